"""``segmint bench untangle REPO``: grouping measured on tangled real commits.

From REPO's history, k consecutive commits by one author are tangled into one
dirty tree (see ``cases.py``); every changed line is scored against the commit
that made it. Segmint's engine is shown beside the seed's algorithm, simple
baselines and the ceiling of perfect hunk-level grouping. A synthetic change
set (1,000 hunks by default) times grouping at scale.
"""

from __future__ import annotations

import argparse
import datetime as dt

from segmint_core.bench.timing import progress
from segmint_core.errors import SegmintError
from segmint_core.bench import BenchReport


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "untangle", help="score grouping on tangled commits from a repository's history",
        description="Tangle k consecutive commits of REPO into one dirty tree and score how well "
                    "grouping recovers them (ARI, Rand index, matched accuracy, exact share).",
    )
    p.add_argument("repo", metavar="REPO",
                   help="a git repository (or bundle) with history; it is cloned, never touched")
    p.add_argument("--k", type=int, default=2, help="commits tangled per case (default 2)")
    p.add_argument("--n", type=int, default=50, help="cases (default 50)")
    p.add_argument("--seed", type=int, default=0, help="which random sample of cases (default 0)")
    p.add_argument("--provider", default="local", help="embedding provider for the engine (default local)")
    p.add_argument("--since", metavar="DATE", help="only cases whose last commit is on or after DATE (YYYY-MM-DD, UTC)")
    p.add_argument("--until", metavar="DATE", help="only cases whose last commit is before DATE (YYYY-MM-DD, UTC)")
    p.add_argument("--synthetic-hunks", type=int, default=1000, metavar="N",
                   help="also time grouping a synthetic N-hunk change set (default 1000; 0 skips)")
    p.add_argument("--json", action="store_true", help="print every figure, per case too, as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    from segmint_core.bench.untangle.report import run_benchmark

    if args.k < 1 or args.n < 1:
        raise SegmintError("--k and --n must be at least 1")
    return run_benchmark(
        args.repo, k=args.k, n=args.n, seed=args.seed, provider=args.provider,
        since=parse_day(args.since, "--since"), until=parse_day(args.until, "--until"),
        synthetic_hunks=args.synthetic_hunks, log=progress,
    )


def parse_day(text: str | None, option: str) -> int | None:
    if text is None:
        return None
    try:
        day = dt.datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=dt.timezone.utc)
    except ValueError:
        raise SegmintError(f"{option} takes a date as YYYY-MM-DD, not {text!r}") from None
    return int(day.timestamp())
