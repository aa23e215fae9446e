"""``segmint split``: committed work re-planned by intent; ``segmint apply --all`` then rewrites the branch."""

from __future__ import annotations

import argparse
import sys

from segmint.cli.session_cli import open_session, plan_table
from segmint_core.rewrite import split
from segmint_core.jsonio import write_json
from segmint_core.wording import counted


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "split",
        parents=[common],
        help="re-plan committed work by intent (REV, or BASE..TIP)",
        description="The combined change of the commits (REV alone, or BASE..TIP) becomes a session's changes, "
        "grouped and planned as for a work tree. `segmint apply --all` then replaces those commits "
        "with the planned ones, replays later commits on top and moves the branch, once the final "
        "tree is checked byte-identical. The work tree and the index are never touched.",
    )
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("range", nargs="?", metavar="REV|BASE..TIP", help="the commits to split")
    target.add_argument("--abort", action="store_true", help="drop the split under way; nothing was rewritten")
    p.add_argument("--force", action="store_true", help="split commits a remote-tracking ref already has")
    p.add_argument(
        "--follow-commits",
        action="store_true",
        help="a range: lines one of its commits wrote lean together (for clean commits, not work in progress)",
    )
    p.add_argument("--json", action="store_true", help='print {"commits": [...]} as JSON')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    if args.abort:
        session.abort_split()
        print("Dropped the split under way; the branch is as it was.")
        return 0
    inner = session.start_split(args.range, force=args.force, follow_commits=args.follow_commits)
    state = split.pending(session.git)
    assert state is not None  # start_split laid it out
    if args.json:
        write_json(
            {
                "range": {"base": state.base, "tip": state.tip, "commits": state.originals},
                "commits": [p.to_dict() for p in inner.plans],
            }
        )
        return 0
    later = f", then replaying {counted(len(state.later), 'later commit')}," if state.later else ""
    print(
        f"Splitting {state.label} ({counted(len(state.originals), 'commit')}){later} "
        "into the commits below; `segmint apply --all` rewrites the branch.\n"
    )
    sys.stdout.write(plan_table(inner.plans, inner.unplanned()))
    return 0
