"""``segmint undo``: take back the last whole operation Segmint made (index and plans too)."""

from __future__ import annotations

import argparse

from segmint.cli.session_cli import open_session
from segmint_core.jsonio import write_json
from segmint_core.session.models import Operation, UNDO_OP


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "undo",
        parents=[common],
        help="undo the last operation Segmint made (all commits of one apply --all)",
        description="Undo the last operation Segmint made (one apply, or every commit of one apply --all), "
        "if HEAD is still where it left it: HEAD, the index and the plans go back; work-tree files "
        "are not touched. OP takes back that operation and every one after it.",
    )
    target = p.add_mutually_exclusive_group()
    target.add_argument("op", nargs="?", metavar="OP", help="an operation id from `segmint undo --list` (op-3)")
    target.add_argument("--list", action="store_true", help="show the operation log, newest first")
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    session = open_session(args, warn=False)
    if args.list:
        log = session.operations()
        if args.json:
            write_json({"operations": [o.to_dict() for o in log]})
        elif not log:
            print("No operations yet: Segmint has written nothing in this repository's session.")
        for op in reversed(log) if not args.json else ():
            print(describe(op))
        return 0
    outcome = session.undo(args.op)
    if args.json:
        write_json(outcome.to_dict())
    else:
        print(outcome.sentence())
    return 0


def describe(op: Operation) -> str:
    """One line of the log: ``op-3  apply  commit-1, commit-2  a1b2c3d..e4f5a6b  (undone by op-4)``."""
    before = op.head_before[:7] if op.head_before else "unborn"
    after = op.head_after[:7] if op.head_after else "unborn"
    what = f"undo of {op.label}" if op.kind == UNDO_OP else op.label
    undone = f"  (undone by {op.undone_by})" if op.undone_by else ""
    branch = f" on {op.ref.removeprefix('refs/heads/')}" if op.ref else ""
    return f"{op.id}  {op.kind}  {what}  {before}..{after}{branch}  {op.time} by {op.actor}{undone}"
