"""``segmint hook``: record a coding agent's hook event; ``segmint hook install|uninstall``: set the agent up.

The hook's plain form starts in ``segmint.entry``, without this parser; the
recording itself (``record_event``) and what it promises the agent are there.
"""

from __future__ import annotations

import argparse
import os
import sys

from segmint_core.errors import SegmintError
from segmint_core.hooks.events import AGENTS, CLAUDE_CODE

ACTIONS = ("install", "uninstall")
USAGE = (
    "segmint hook [claude-code|gemini] reads one hook event on stdin; "
    "segmint hook install|uninstall claude-code|gemini [--scope project|user] sets the agent up"
)


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "hook",
        parents=[common],
        help="record a coding agent's hook event (install: add the hook to the agent's settings)",
        description="With no action, read one Claude Code (default) or Gemini CLI hook event as JSON on stdin "
        "and record it: a prompt becomes the current intent, an edit is snapshotted under it. "
        "`install`/`uninstall AGENT` add or remove Segmint's entries in the agent's settings file, "
        "keeping every other setting.",
    )
    p.add_argument(
        "words",
        nargs="*",
        metavar="[install|uninstall] AGENT",
        help="claude-code (default) or gemini, after install or uninstall to set it up",
    )
    p.add_argument(
        "--scope",
        choices=("project", "user"),
        default="project",
        help="install into the repository's settings (default) or the user's, in the home folder",
    )
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
    from segmint.hook_event import record_event

    return record_event(agent, args.repo)


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
