"""``segmint undo``: take back the last commit Segmint made (index and plans too)."""

from __future__ import annotations

import argparse

from segmint.cli.session_cli import open_session


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "undo", parents=[common], help="undo the last commit Segmint made",
        description="Undo the last commit Segmint made, if HEAD is still that commit: HEAD, the index "
                    "and the plans go back; work-tree files are not touched.",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    outcome = open_session(args, warn=False).undo()
    head = outcome.head[:7] if outcome.head else "unborn"
    print(f"Undid {outcome.commit_id} ({outcome.sha[:7]}); HEAD is {head} again.")
    return 0
