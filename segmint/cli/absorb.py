"""``segmint absorb``: fixes proposed as folds into the unpushed commits they fix, beside new commits."""

from __future__ import annotations

import argparse
import sys

from segmint.cli.session_cli import open_session, plan_table
from segmint_core.rewrite.absorb import Placement
from segmint_core.jsonio import write_json
from segmint_core.wording import shown


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "absorb",
        parents=[common],
        help="fold fixes into the unpushed commits they fix; plan the rest",
        description="Each uncommitted hunk (or run of lines) that changes lines last written by an unpushed "
        "commit, and commutes with every later one, is planned as a fold into that commit; the "
        "rest is grouped and planned as new commits. `segmint apply --all` applies the plan: "
        "folds are made with git plumbing, the work tree is never written; `segmint undo` takes "
        "it all back.",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="say for each hunk where it would go and why, or why it stays; change nothing",
    )
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    if args.dry_run:
        placements = session.absorb_preview()
        if args.json:
            write_json({"placements": [p.to_dict() for p in placements]})
        else:
            print("\n".join(describe(p) for p in placements) or "No uncommitted changes to absorb.")
        return 0
    plan = session.absorb()
    if args.json:
        write_json(plan.to_dict())
        return 0
    sys.stdout.write(plan_table(session.plans, session.unplanned()))
    return 0


def describe(placement: Placement) -> str:
    where = f"absorb into {placement.target.named}" if placement.target else "stays for a new commit"
    return f"{placement.unit_id}  {shown(placement.path)}: {where}: {placement.reason}"
