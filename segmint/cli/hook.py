"""``segmint hook``: record a coding agent's hook event; ``segmint hook install|uninstall``: set the agent up.

Run by the agent, the hook never gets in its way: it writes nothing on stdout
but what the agent's protocol expects (nothing for Claude Code, ``{}`` for
Gemini CLI, whose stdout is read as JSON), and exits 0 whatever happens, with
one line on stderr when something could not be recorded.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace

from segmint_core.errors import SegmintError
from segmint_core.hooks.events import AGENTS, CLAUDE_CODE, GEMINI

ACTIONS = ("install", "uninstall")
MAX_EVENT_BYTES = 16 << 20   # a Write of a large file carries its content; past this, not an event we read
USAGE = ("segmint hook [claude-code|gemini] reads one hook event on stdin; "
         "segmint hook install|uninstall claude-code|gemini [--scope project|user] sets the agent up")


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "hook", parents=[common],
        help="record a coding agent's hook event (install: add the hook to the agent's settings)",
        description="With no action, read one Claude Code (default) or Gemini CLI hook event as JSON on stdin "
                    "and record it: a prompt becomes the current intent, an edit is snapshotted under it. "
                    "`install`/`uninstall AGENT` add or remove Segmint's entries in the agent's settings file, "
                    "keeping every other setting.",
    )
    p.add_argument("words", nargs="*", metavar="[install|uninstall] AGENT",
                   help="claude-code (default) or gemini, after install or uninstall to set it up")
    p.add_argument("--scope", choices=("project", "user"), default="project",
                   help="install into the repository's settings (default) or the user's, in the home folder")
    p.set_defaults(func=run, quick_exit=True)


def run(args: argparse.Namespace) -> int:
    words = list(args.words)
    if words and words[0] in ACTIONS:
        if len(words) != 2 or words[1] not in AGENTS:
            raise SegmintError(f"segmint hook {words[0]} needs the agent: claude-code or gemini.")
        return _set_up(words[0], words[1], args)
    if len(words) > 1 or (words and words[0] not in AGENTS):
        raise SegmintError(f"Unknown hook target {' '.join(words)!r}: {USAGE}.")
    agent = words[0] if words else CLAUDE_CODE
    if sys.stdin.isatty():
        raise SegmintError(f"segmint hook {agent} reads the agent's hook event as JSON on stdin; none was piped in.")
    return _record(agent, args.repo)


def _record(agent: str, repo: str | None) -> int:
    problem = None
    try:
        from segmint_core.hooks.events import read_event
        from segmint_core.hooks.recording import apply_event

        raw = sys.stdin.buffer.read(MAX_EVENT_BYTES + 1)
        if len(raw) > MAX_EVENT_BYTES:
            problem = "the hook event is larger than 16 MB; nothing was recorded."
        else:
            event = read_event(agent, json.loads(raw or b"null"))
            if repo:   # named by the person who set the hook up: it wins over the agent's cwd
                event = replace(event, cwd=os.path.abspath(repo))
            apply_event(event, os.getcwd())
    except json.JSONDecodeError as exc:
        problem = f"the hook event is not JSON ({exc.msg} at line {exc.lineno}); nothing was recorded."
    except SegmintError as exc:
        problem = f"{exc} (nothing was recorded)"
    except Exception as exc:   # never the agent's problem: said, and the agent goes on
        problem = f"could not record the event: {type(exc).__name__}: {exc}"
    if agent == GEMINI:
        sys.stdout.write("{}\n")
    if problem:
        print(f"segmint hook: {_one_line(problem)}", file=sys.stderr)
    return 0


def _set_up(action: str, agent: str, args: argparse.Namespace) -> int:
    from segmint_core.git import Git
    from segmint_core.hooks import settings

    root = None
    if args.scope == "project":
        root = Git.discover(args.repo).root
    path = settings.settings_path(agent, args.scope, root)
    change = settings.install(agent, path) if action == "install" else settings.uninstall(agent, path)
    shown = path if args.scope == "user" else os.path.relpath(path, os.getcwd()) if root else path
    if not change.events:
        state = "already in" if action == "install" else "not in"
        print(f"Segmint's hooks are {state} {shown}: nothing changed.")
    elif action == "install":
        print(f"Added Segmint's hooks to {shown} ({', '.join(change.events)}); every other setting kept.")
    else:
        print(f"Removed Segmint's hooks from {shown} ({', '.join(change.events)}); every other setting kept.")
    return 0


def _one_line(text: str) -> str:
    return " ".join(text.split())
