"""``segmint bench untangle``: grouping measured on tangled real commits.

From a repository's history, k consecutive commits by one author are tangled
into one dirty tree (see ``cases.py``); every changed line is scored against
the commit that made it. Segmint's engine is shown beside the clustering
it started from (``models/seed.py``), simple baselines and the ceiling of perfect hunk-level grouping. A
synthetic change set (1,000 hunks by default) times grouping at scale.

``--leave-one-out DIR...`` scores each repository with a model fit on the
others (``loo.py``): the only figures of a learned part that count.
"""

from __future__ import annotations

import argparse
import datetime as dt

from segmint_bench import BenchReport
from segmint_bench.timing import progress
from segmint_core.errors import SegmintError


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    from segmint_bench.untangle.boosting import add_boosting_options

    p = subparsers.add_parser(
        "untangle",
        description="Tangle k consecutive commits of REPO into one dirty tree and score how well "
        "grouping recovers them (ARI, Rand index, matched accuracy, exact share). "
        "With --leave-one-out, score each repository with a model fit on the others.",
    )
    p.add_argument(
        "repo", metavar="REPO", nargs="?", help="a git repository (or bundle) with history; it is cloned, never touched"
    )
    p.add_argument(
        "--leave-one-out",
        metavar="DIR",
        nargs="+",
        help="repositories (or bundles): fit on all but one, score that one, for each; "
        "prints the table of every method per repository and k",
    )
    p.add_argument(
        "--k",
        type=int,
        nargs="+",
        help="commits tangled per case (default 2; with --leave-one-out 1 2 3). "
        "k=1 scores single commits: the share kept as one group; several print a table each",
    )
    p.add_argument("--n", type=int, default=50, help="cases per repository and k (default 50)")
    add_selection_options(p)
    p.add_argument(
        "--drop",
        metavar="KIND",
        nargs="+",
        default=[],
        help="with --leave-one-out: also fit and score the engine without these link kinds "
        "(a kind or its prefix: shared, def_use:generic), to measure what they add",
    )
    p.add_argument(
        "--add",
        metavar="KIND",
        nargs="+",
        default=[],
        help="with --leave-one-out: also fit and score the engine with these link kinds, which the "
        "shipped model is not fit on (cochange: files changed together in history)",
    )
    p.add_argument(
        "--review",
        type=int,
        metavar="N",
        help="with --leave-one-out: ARI after an oracle reviewer settles the N least certain "
        "decisions per case (also after 0, 1, 3, 5 below N)",
    )
    p.add_argument(
        "--calibration",
        action="store_true",
        help="with --leave-one-out: reliability tables of P(same intent) and P(hunk belongs "
        "with its group), raw and calibrated on the other repositories",
    )
    add_boosting_options(p, None, "with --leave-one-out: also fit and score the engine with")
    p.add_argument("--provider", default="local", help="embedding provider for the engine (default local)")
    p.add_argument(
        "--synthetic-hunks",
        type=int,
        default=1000,
        metavar="N",
        help="also time grouping a synthetic N-hunk change set (default 1000; 0 skips)",
    )
    p.add_argument("--json", action="store_true", help="print every figure, per case too, as JSON")
    p.add_argument(
        "--refine",
        action="store_true",
        help="also score the engine's groups refined by the chat model (SEGMINT_CHAT_MODEL; one "
        "request or more per case); says so when no model is configured",
    )
    p.set_defaults(func=run)


def add_selection_options(p: argparse.ArgumentParser) -> None:
    """Options that pick cases, shared by ``bench untangle`` and ``bench fit``."""
    from segmint_bench.untangle.cache import default_dir

    p.add_argument("--seed", type=int, default=0, help="which random sample of cases (default 0)")
    p.add_argument(
        "--first-parent",
        action="store_true",
        help="pick cases from first-parent history only (never inside a merged branch)",
    )
    p.add_argument("--since", metavar="DATE", help="only cases whose last commit is on or after DATE (YYYY-MM-DD, UTC)")
    p.add_argument("--until", metavar="DATE", help="only cases whose last commit is before DATE (YYYY-MM-DD, UTC)")
    p.add_argument(
        "--cache",
        metavar="DIR",
        default=str(default_dir()),
        help="where tangled cases and their evidence are kept between runs (default %(default)s)",
    )
    p.add_argument(
        "--no-cache", dest="cache", action="store_const", const=None, help="tangle every case afresh and keep nothing"
    )


def selections(args: argparse.Namespace, ks: list[int]) -> list:
    from segmint_bench.untangle.corpus import Selection

    if any(k < 1 for k in ks) or args.n < 1:
        raise SegmintError("--k and --n must be at least 1")
    since, until = parse_day(args.since, "--since"), parse_day(args.until, "--until")
    return [Selection(k, args.n, args.seed, args.first_parent, since, until) for k in ks]


def run(args: argparse.Namespace) -> BenchReport:
    from segmint_bench.untangle.cache import Cache

    if args.leave_one_out:
        from segmint_bench.untangle.boosting import boosting_option
        from segmint_bench.untangle.loo import leave_one_out

        if args.repo:
            raise SegmintError("Give repositories either as REPO or after --leave-one-out, not both")
        if args.refine:
            raise SegmintError("--refine goes with one REPO: every case is a request to the chat model")
        if len(args.leave_one_out) < 2:
            raise SegmintError("--leave-one-out needs at least two repositories: one to score, the rest to fit on")
        from segmint_bench.untangle.features import HELD_BACK

        if not set(args.add) <= HELD_BACK:
            raise SegmintError(
                f"--add takes link kinds the shipped model is not fit on: {', '.join(sorted(HELD_BACK))}"
            )
        if args.review is not None and args.review < 0:
            raise SegmintError("--review takes a number of decisions, 0 or more")
        return leave_one_out(
            args.leave_one_out,
            selections(args, args.k or [1, 2, 3]),
            Cache(args.cache),
            drop=frozenset(args.drop),
            add=frozenset(args.add),
            review=args.review,
            calibration=args.calibration,
            boosting=boosting_option(args),
            log=progress,
        )
    from segmint_bench.untangle.report import run_benchmark, run_several

    if not args.repo:
        raise SegmintError("Name a repository to benchmark (REPO), or several after --leave-one-out")
    if args.drop or args.add or args.review is not None or args.calibration or args.trees:
        raise SegmintError(
            "--drop, --add, --review, --calibration and --trees measure fitted parts held out, "
            "so they go with --leave-one-out"
        )
    if args.synthetic_hunks < 0:
        raise SegmintError("--synthetic-hunks takes a number of hunks, 0 or more (0 skips the timing)")
    chosen = selections(args, args.k or [2])
    options = {
        "provider": args.provider,
        "synthetic_hunks": args.synthetic_hunks,
        "log": progress,
        "refine": args.refine,
    }
    if len(chosen) == 1:
        return run_benchmark(args.repo, chosen[0], Cache(args.cache), **options)
    return run_several(args.repo, chosen, Cache(args.cache), **options)


def parse_day(text: str | None, option: str) -> int | None:
    if text is None:
        return None
    try:
        day = dt.datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=dt.timezone.utc)
    except ValueError:
        raise SegmintError(f"{option} takes a date as YYYY-MM-DD, not {text!r}") from None
    return int(day.timestamp())
