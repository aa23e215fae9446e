"""Where a session lives between runs: ``.git/segmint/`` in the repository.

Writes are atomic (a temporary file renamed over the old one), so a crash never
leaves half a session behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

FORMAT = 1


def session_dir(git_dir: str) -> Path:
    path = Path(git_dir) / "segmint"
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_state(path: Path, state: dict[str, Any]) -> None:
    payload = {"format": FORMAT, **state}
    write_atomic(path, json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8"))


def load_state(path: Path) -> dict[str, Any] | None:
    """The saved state, or None if there is none (or it is unreadable: a
    session is a convenience, never worth refusing to start over)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    return data
