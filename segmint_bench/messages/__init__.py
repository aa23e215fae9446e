"""``segmint bench messages``: the command; the Conventional scoring is in ``scoring.py``, its
voting chosen held out in ``voting.py``; the plain-style scoring in ``plain.py``."""

from __future__ import annotations

import argparse
import hashlib
import pickle
from pathlib import Path

from segmint_bench import BenchReport
from segmint_bench.messages import plain
from segmint_bench.messages.scoring import CONVENTIONAL, STYLES, Cases, conventional_report, pick_and_propose, score
from segmint_bench.messages.voting import leave_one_out
from segmint_core.atomic import write_atomic
from segmint_core.errors import SegmintError
from segmint_core.git import Git


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "messages",
        description="Check out the parent of real single commits of REPO, propose commits for the "
        "commit's changes, and compare the largest proposal's subject with the real one: type, scope "
        "and description in a house of Conventional Commits; word F1, lead verb and one commit in a "
        "house of plain subjects. With --leave-one-out, fit what is fitted on all but one "
        "repository and score that one, for each, then the mean.",
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
    p.add_argument(
        "--style",
        choices=STYLES,
        default="auto",
        help="which cases and figures: Conventional subjects, plain ones, or (auto, the default) "
        "whichever the house writes at the repository's head",
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
    p.add_argument(
        "--cases-cache",
        metavar="DIR",
        help="keep each repository's proposed cases in DIR and read them back on the next run with the "
        "same repository, style, --n and --seed: the titles and types are written again, the grouping "
        "is not run again (empty DIR after changing the grouping)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    from segmint_bench.timing import progress

    if args.n < 1:
        raise SegmintError("--n must be at least 1")
    if args.leave_one_out:
        if args.repo:
            raise SegmintError("Give repositories either as REPO or after --leave-one-out, not both")
        found = [pick(repo, args, progress) for repo in dict.fromkeys(args.leave_one_out)]
        return held_out(found, args, progress)
    if args.save_type_model:
        raise SegmintError("--save-type-model fits on the repositories given after --leave-one-out")
    if not args.repo:
        raise SegmintError("Give a repository, or several after --leave-one-out")
    cases = pick(args.repo, args, progress)
    if cases.style == CONVENTIONAL:
        return conventional_report(args.repo, [score(p) for p in cases.proposals], args.seed, args.confusion)
    return plain.report(args.repo, cases.proposals, args.seed)


def pick(repo: str, args: argparse.Namespace, log) -> Cases:
    if not getattr(args, "cases_cache", None):
        return pick_and_propose(repo, n=args.n, seed=args.seed, log=log, style=args.style)
    return cached_cases(Path(args.cases_cache), repo, args, log)


def cached_cases(folder: Path, repo: str, args: argparse.Namespace, log) -> Cases:
    """The cases proposed for ``repo`` by an earlier run, or proposed now and kept in ``folder``.
    Keyed by the repository's content, the style, ``--n`` and ``--seed``."""
    key = f"{content_key(Path(repo))}|{args.style}|{args.n}|{args.seed}"
    path = folder / f"{Path(repo).name}-{hashlib.sha256(key.encode()).hexdigest()[:16]}.pickle"
    if path.exists():
        log(f"{repo}: cases read from {path}")
        with path.open("rb") as f:
            return pickle.load(f)  # written by this command, from this machine's own runs
    found = pick_and_propose(repo, n=args.n, seed=args.seed, log=log, style=args.style)
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(path, pickle.dumps(found))
    return found


def content_key(repo: Path) -> str:
    """What the cases of ``repo`` are drawn from: a bundle's bytes (a copy made afresh, with a new
    time of change, keeps its key), or a repository's path and the commit at its head."""
    try:
        if repo.is_dir():
            return f"{repo.resolve()}@{Git(repo).head()}"
        return hashlib.sha256(repo.read_bytes()).hexdigest()
    except OSError as exc:
        raise SegmintError(f"Cannot read {repo}: {exc.strerror}") from None


def held_out(found: list[Cases], args: argparse.Namespace, log) -> BenchReport:
    """Each style's repositories held out among themselves (with ``--style auto`` a mix
    gives two tables)."""
    conventional = {c.repo: c.proposals for c in found if c.style == CONVENTIONAL}
    plain_style = {c.repo: c.proposals for c in found if c.style != CONVENTIONAL}
    if args.save_type_model and not conventional:
        raise SegmintError("--save-type-model needs repositories that write Conventional Commits")
    reports = []
    if conventional:
        reports.append(
            leave_one_out(
                list(conventional),
                n=args.n,
                seed=args.seed,
                log=log,
                confusion=args.confusion,
                save_type_model=args.save_type_model,
                cases=conventional,
            )
        )
    if plain_style:
        reports.append(plain.leave_one_out(plain_style, seed=args.seed))
    if len(reports) == 1:
        return reports[0]
    return BenchReport(
        {"conventional": reports[0].figures, "plain": reports[1].figures}, "\n\n".join(r.text for r in reports)
    )
