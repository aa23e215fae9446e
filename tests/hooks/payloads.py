"""The agents' hook payloads kept under ``payloads/`` (their sources: ``payloads/README.md``), pointed at a test's repository."""

from __future__ import annotations

import json
from pathlib import Path

FOLDER = Path(__file__).parent / "payloads"
PATH_FIELDS = ("file_path", "notebook_path", "filePath")


def payload(
    agent: str,
    name: str,
    repo: Path | None = None,
    *,
    file: str | None = None,
    prompt: str | None = None,
    session_id: str | None = None,
) -> dict:
    """The payload ``payloads/<agent>/<name>.json``, every field kept; with ``repo``, its ``cwd`` is the
    repository and its file paths name ``file`` there (absolute, as the agents send them)."""
    data = json.loads((FOLDER / agent / f"{name}.json").read_text())
    if repo is not None and "cwd" in data:
        data["cwd"] = str(repo)
    if file is not None:
        target = str(repo / file) if repo is not None else file
        for part in (data.get("tool_input"), data.get("tool_response")):
            if isinstance(part, dict):
                for key in PATH_FIELDS:
                    if key in part:
                        part[key] = target
    if prompt is not None:
        data["prompt"] = prompt
    if session_id is not None:
        data["session_id"] = session_id
    return data


def names(agent: str) -> list[str]:
    return sorted(p.stem for p in (FOLDER / agent).glob("*.json"))
