"""One hook event, as Claude Code or Gemini CLI sends it on stdin, read into a ``HookEvent``.

Formats, from the agents' own references (Claude Code: "Hooks reference",
code.claude.com/docs/en/hooks; Gemini CLI: docs/hooks/reference.md in
google-gemini/gemini-cli). Every event carries ``session_id``, ``cwd`` and
``hook_event_name``:

- Claude Code ``UserPromptSubmit`` gives ``prompt``; ``PostToolUse`` gives
  ``tool_name`` and ``tool_input`` (``file_path`` for Edit, Write and
  MultiEdit, ``notebook_path`` for NotebookEdit, ``command`` for Bash) and
  ``tool_response``; ``PreToolUse`` gives the same before the tool runs;
  ``SessionStart``/``SessionEnd`` mark the session.
- Gemini CLI ``BeforeAgent`` gives ``prompt``; ``AfterTool`` gives
  ``tool_name`` (``write_file``, ``replace``, ``run_shell_command``) and
  ``tool_input`` with ``file_path``; ``BeforeTool`` the same before the tool
  runs; ``SessionStart``/``SessionEnd`` as above.

Anything else (another tool, another event, a field missing) reads as
``IGNORED``: the hook then records nothing and says nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TypedDict

CLAUDE_CODE = "claude-code"
GEMINI = "gemini"
AGENTS = (CLAUDE_CODE, GEMINI)

# What an event asks of the record.
PROMPT = "prompt"  # a new task: the prompt becomes the current intent
EDIT = "edit"  # these files were just written under the current intent
BEFORE_EDIT = "before-edit"  # these files are about to be written: what they hold now is not the agent's
SHELL = "shell"  # a command ran: whatever it changed in the tree was written under the intent
SESSION = "session"  # an agent session started or ended
IGNORED = "ignored"

CLAUDE_FILE_TOOLS = {
    "Edit": "file_path",
    "Write": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}
CLAUDE_SHELL_TOOLS = {"Bash"}
GEMINI_FILE_TOOLS = {"write_file": "file_path", "replace": "file_path"}
GEMINI_SHELL_TOOLS = {"run_shell_command"}


@dataclass(frozen=True)
class HookEvent:
    action: str
    agent: str
    session_id: str | None = None
    cwd: str | None = None
    prompt: str | None = None
    prompt_id: str | None = None
    paths: tuple[str, ...] = ()  # as the agent gave them (absolute, or relative to cwd)
    session_event: str | None = None  # "start" | "end"


class _Common(TypedDict):
    """The fields every event carries, passed on to each ``HookEvent``."""

    agent: str
    session_id: str | None
    cwd: str | None


def read_event(agent: str, payload: object) -> HookEvent:
    """``payload`` (the decoded JSON) as a ``HookEvent`` of ``agent``'s format."""
    if not isinstance(payload, dict):
        return HookEvent(IGNORED, agent)
    base: _Common = {"agent": agent, "session_id": _text(payload.get("session_id")), "cwd": _text(payload.get("cwd"))}
    name = payload.get("hook_event_name")
    if name in ("SessionStart", "SessionEnd"):
        return HookEvent(SESSION, session_event="start" if name == "SessionStart" else "end", **base)
    if name == ("UserPromptSubmit" if agent == CLAUDE_CODE else "BeforeAgent"):
        prompt = _text(payload.get("prompt"))
        if prompt is None or not prompt.strip():
            return HookEvent(IGNORED, **base)
        return HookEvent(PROMPT, prompt=prompt, prompt_id=_text(payload.get("prompt_id")), **base)
    if name == ("PostToolUse" if agent == CLAUDE_CODE else "AfterTool"):
        return _tool_event(agent, payload, base, after=True)
    if name == ("PreToolUse" if agent == CLAUDE_CODE else "BeforeTool"):
        return _tool_event(agent, payload, base, after=False)
    return HookEvent(IGNORED, **base)


def _tool_event(agent: str, payload: dict, base: _Common, *, after: bool) -> HookEvent:
    tool = payload.get("tool_name")
    file_tools, shell_tools = (
        (CLAUDE_FILE_TOOLS, CLAUDE_SHELL_TOOLS) if agent == CLAUDE_CODE else (GEMINI_FILE_TOOLS, GEMINI_SHELL_TOOLS)
    )
    if tool in shell_tools:
        return HookEvent(SHELL if after else IGNORED, **base)
    if tool not in file_tools:
        return HookEvent(IGNORED, **base)
    given_input, given_response = payload.get("tool_input"), payload.get("tool_response")
    tool_input = given_input if isinstance(given_input, dict) else {}
    response = given_response if isinstance(given_response, dict) else {}
    paths = [tool_input.get(file_tools[tool]), response.get("filePath")]
    # MultiEdit as some versions sent it: a path on each edit.
    edits = tool_input.get("edits")
    if isinstance(edits, list):
        paths += [e.get("file_path") for e in edits if isinstance(e, dict)]
    found = tuple(dict.fromkeys(p for p in paths if isinstance(p, str) and p and "\0" not in p))
    if not found:
        return HookEvent(IGNORED, **base)
    return HookEvent(EDIT if after else BEFORE_EDIT, paths=found, **base)


def project_paths(paths: tuple[str, ...], cwd: str, root: str) -> list[str]:
    """``paths`` relative to the project ``root`` (slash-separated); those outside it are left out."""
    real_root = os.path.realpath(root)
    found = []
    for path in paths:
        full = os.path.realpath(os.path.join(cwd, path))
        rel = os.path.relpath(full, real_root)
        if rel != "." and rel != ".." and not rel.startswith(".." + os.sep):
            found.append(rel.replace(os.sep, "/"))
    return list(dict.fromkeys(found))


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
