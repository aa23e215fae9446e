"""Segmint's entries in a coding agent's settings file: merged in, and taken out, touching nothing else.

Both agents read hooks from ``settings.json`` under ``"hooks"``: an event name
maps to a list of groups, each with an optional ``matcher`` and a list of
``{"type": "command", "command": ...}`` hooks. Ours are the hooks whose
command is ``segmint hook <agent>`` (run from the agent's PATH). Installing
adds one group per event unless an entry of ours is already there (so a
second install changes nothing, and an entry a person edited is left as it
is); uninstalling removes our hooks only, then the groups and events they
leave empty. A file that is not JSON, or whose ``hooks`` has another shape,
is refused whole and left untouched.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from segmint_core.atomic import write_atomic
from segmint_core.errors import SegmintError
from segmint_core.hooks.events import CLAUDE_CODE, GEMINI

SCOPES = ("project", "user")
FOLDERS = {CLAUDE_CODE: ".claude", GEMINI: ".gemini"}
# The tools whose results we record (events.CLAUDE_FILE_TOOLS etc.), as each agent's matcher regex.
EVENTS: dict[str, dict[str, str | None]] = {  # agent -> event -> the tools it is for (None: all)
    CLAUDE_CODE: {
        "UserPromptSubmit": None,
        "PreToolUse": "Edit|Write|MultiEdit|NotebookEdit",
        "PostToolUse": "Edit|Write|MultiEdit|NotebookEdit|Bash",
        "SessionStart": None,
        "SessionEnd": None,
    },
    GEMINI: {
        "BeforeAgent": "*",
        "BeforeTool": "write_file|replace",
        "AfterTool": "write_file|replace|run_shell_command",
        "SessionStart": "*",
        "SessionEnd": "*",
    },
}
OURS = re.compile(r"(?:^|[\s/\"'])segmint(?:\.exe)?[\"']?\s+hook(?:\s|$)")


@dataclass(frozen=True)
class SettingsChange:
    path: Path
    events: tuple[str, ...]  # the events whose entries were added (install) or removed (uninstall)
    created: bool = False  # the file did not exist before


class SettingsFileError(SegmintError):
    """A settings file Segmint will not rewrite (not JSON, or hooks of another shape)."""


def settings_path(agent: str, scope: str, project_root: str | None) -> Path:
    """The agent's settings file for ``scope``: the project's, or the user's in the home folder."""
    if scope == "user":
        return Path(os.path.expanduser("~")) / FOLDERS[agent] / "settings.json"
    if project_root is None:
        raise SegmintError("--scope project needs a repository: run it inside one, give --repo, or use --scope user.")
    return Path(project_root) / FOLDERS[agent] / "settings.json"


def hook_command(agent: str) -> str:
    return f"segmint hook {agent}"


def install(agent: str, path: Path) -> SettingsChange:
    """Add Segmint's entries to the settings file at ``path`` (created if missing)."""
    settings, existed = _load(path)
    hooks = _hooks_of(settings, path, create=True)
    assert hooks is not None  # made when missing
    added = []
    for event, matcher in EVENTS[agent].items():
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise SettingsFileError(f"{path}: hooks.{event} is not a list, so it was left untouched: fix it first.")
        if any(_is_ours(hook) for group in groups for hook in _group_hooks(group)):
            continue
        group: dict = {} if matcher is None else {"matcher": matcher}
        entry = {"type": "command", "command": hook_command(agent)}
        if agent == GEMINI:
            entry = {"name": "segmint", **entry, "description": "Record the task behind each edit for Segmint"}
        group["hooks"] = [entry]
        groups.append(group)
        added.append(event)
    if added:
        _save(path, settings)
    return SettingsChange(path, tuple(added), created=not existed and bool(added))


def uninstall(agent: str, path: Path) -> SettingsChange:
    """Take Segmint's entries out of the settings file at ``path``; every other entry stays."""
    if not path.exists():
        return SettingsChange(path, ())
    settings, _ = _load(path)
    hooks = _hooks_of(settings, path, create=False)
    if hooks is None:
        return SettingsChange(path, ())
    removed = []
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        for group in groups:
            inner = _group_hooks(group)
            kept = [hook for hook in inner if not _is_ours(hook)]
            if len(kept) == len(inner):
                kept_groups.append(group)
            elif kept:
                kept_groups.append({**group, "hooks": kept})
        if kept_groups != groups:
            removed.append(event)
            if kept_groups:
                hooks[event] = kept_groups
            else:
                del hooks[event]
    if removed:
        if not hooks:
            del settings["hooks"]
        _save(path, settings)
    return SettingsChange(path, tuple(removed))


def _load(path: Path) -> tuple[dict, bool]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}, False
    except OSError as exc:
        raise SettingsFileError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    if not raw.strip():
        return {}, True
    try:
        settings = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise SettingsFileError(
            f"{path} is not valid JSON{where}, so it was left untouched: fix it, then run this again."
        ) from None
    if not isinstance(settings, dict):
        raise SettingsFileError(f"{path} does not hold a JSON object, so it was left untouched: fix it first.")
    return settings, True


def _hooks_of(settings: dict, path: Path, *, create: bool) -> dict | None:
    hooks = settings.get("hooks")
    if hooks is None:
        if not create:
            return None
        hooks = settings["hooks"] = {}
    if not isinstance(hooks, dict):
        raise SettingsFileError(f'{path}: "hooks" is not an object, so it was left untouched: fix it first.')
    return hooks


def _group_hooks(group: object) -> list:
    inner = group.get("hooks") if isinstance(group, dict) else None
    return inner if isinstance(inner, list) else []


def _is_ours(hook: object) -> bool:
    command = hook.get("command") if isinstance(hook, dict) else None
    return isinstance(command, str) and bool(OURS.search(command))


def _save(path: Path, settings: dict) -> None:
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = None
    write_atomic(path, (json.dumps(settings, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    os.chmod(path, mode if mode is not None else 0o644 & ~_umask())


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
