"""``segmint bench messages``: the command; the scoring is in ``scoring.py``, the voting chosen held out in ``voting.py``."""

from __future__ import annotations

import argparse

from segmint_bench import BenchReport
from segmint_bench.messages.scoring import run_benchmark
from segmint_bench.messages.voting import leave_one_out
from segmint_core.errors import SegmintError


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "messages",
        help="score proposed commit subjects against real Conventional subjects",
        description="Check out the parent of real single commits of REPO, propose commits for the "
        "commit's changes, and compare the largest proposal's subject with the real one. "
        "With --leave-one-out, choose how the type and scope are voted on all but one "
        "repository and score that one, for each.",
    )
    p.add_argument(
        "repo", metavar="REPO", nargs="?", help="a git repository (or bundle) with history; it is cloned, never touched"
    )
    p.add_argument(
        "--leave-one-out",
        metavar="REPO",
        nargs="+",
        help="repositories (or bundles): choose the voting on all but one, score that one, for each",
    )
    p.add_argument("--n", type=int, default=40, help="cases per repository (default 40)")
    p.add_argument("--seed", type=int, default=0, help="which random sample of cases (default 0)")
    p.add_argument("--json", action="store_true", help="print every figure, per case too, as JSON")
    p.add_argument(
        "--confusion", action="store_true", help="also print how often each real type was proposed as each type"
    )
    p.add_argument(
        "--save-type-model",
        metavar="PATH",
        help="with --leave-one-out: fit the type model on all the repositories and write it to PATH "
        "(segmint_core/planning/type_model.json ships)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    from segmint_bench.timing import progress

    if args.n < 1:
        raise SegmintError("--n must be at least 1")
    if args.leave_one_out:
        if args.repo:
            raise SegmintError("Give repositories either as REPO or after --leave-one-out, not both")
        return leave_one_out(
            args.leave_one_out,
            n=args.n,
            seed=args.seed,
            log=progress,
            confusion=args.confusion,
            save_type_model=args.save_type_model,
        )
    if args.save_type_model:
        raise SegmintError("--save-type-model fits on the repositories given after --leave-one-out")
    if not args.repo:
        raise SegmintError("Give a repository, or several after --leave-one-out")
    return run_benchmark(args.repo, n=args.n, seed=args.seed, log=progress, confusion=args.confusion)
