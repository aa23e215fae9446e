"""``segmint intent``: say what you are working on, from any shell; grouping and titles then follow it."""

from __future__ import annotations

import argparse
import time

from segmint_core.errors import SegmintError

SOURCE = "cli"


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "intent",
        parents=[common],
        help="say what you are working on now (recorded with your edits), or show it",
        description='`segmint intent "fix the crash on an empty config"` makes that the current intent: what '
        "you change from now on, in any editor, is grouped and titled from it. "
        "`--done` says the task is finished; with neither, the current intent is shown.",
    )
    p.add_argument("text", nargs="*", metavar="TEXT", help="what you are working on, in a few words")
    p.add_argument("--done", action="store_true", help="the current task is finished")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from segmint_core.git import Git
    from segmint_core.redact import redact
    from segmint_core.trajectory import provenance

    text = " ".join(" ".join(args.text).split())
    if args.done and text:
        raise SegmintError("Give either a new intent or --done, not both (a new intent ends the current one).")
    root = Path(Git.discover(args.repo).root)
    if args.done:
        current = provenance.current_intent(root)
        provenance.end_intent(root, source=SOURCE)
        print(f"Done: {current.text}" if current else "No current intent: nothing to finish.")
    elif text:
        intent = provenance.begin_intent(root, redact(text), source=SOURCE)
        print(f"Now working on: {intent.text}")
    elif args.text:
        raise SegmintError("The intent is empty: say in a few words what you are working on.")
    else:
        current = provenance.current_intent(root)
        if current is None:
            print('No current intent. Set one with: segmint intent "what you are working on"')
        else:
            since = time.strftime("%H:%M", time.localtime(current.created))
            print(f"Now working on: {current.text} (since {since}, from {current.source})")
    return 0
