"""``segmint pr``: the pull-request draft, as Markdown or JSON."""

from __future__ import annotations

import argparse

from segmint.cli.session_cli import open_session
from segmint_core.jsonio import write_json


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "pr",
        parents=[common],
        help="draft the pull request from the plans, applied commits or the branch",
        description="Draft a pull request: a title and a Markdown body with a summary, the commits, "
        "the tasks recorded for them and a test plan (the project's test command, the tests added).",
    )
    p.add_argument("--json", action="store_true", help="print the draft as JSON")
    p.add_argument("--new", action="store_true", help="draft it again, even over a draft someone edited")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    kept = session.pr if session.pr is not None and session.pr.edited and not args.new else None
    draft = kept or session.generate_pr(replace=args.new)
    if args.json:
        write_json(draft.to_dict())
    else:
        print(f"# {draft.title}\n\n{draft.description}", end="")
        if draft.note:
            print(f"\n({draft.note})")
        if kept is not None:
            print("\n(the draft as edited; `segmint pr --new` drafts it again)")
    return 0
