"""``segmint bench check``: planned commits that do not build on their own, before and after the fix.

Two parts. On tangled cases of real histories (``bench untangle``'s cases: k
consecutive commits of one author as one dirty tree), Segmint groups and plans
each case, runs the zero-config check (``segmint check``), then the fix
(``segmint check --fix``): the share of proposed commits that fail, before and
after, and the plans' ARI against the true commits, before and after (each
line labelled by the plan committing it), with its standard error.

And the speed: five commits on a repository of 1,000 Python files, checked with
the zero-config check from a cold cache, beside the time to apply the same
plans (``segmint apply --all``) in a copy of the repository.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass

from segmint_bench import BenchReport
from segmint_core.errors import SegmintError

SPEED_FILES = 1000
SPEED_COMMITS = 5
SPEED_TARGET = 2.0  # seconds


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    from segmint_bench.untangle import add_selection_options

    p = subparsers.add_parser(
        "check",
        description="On tangled cases of each REPO (as bench untangle picks them), the share of proposed commits "
        "that fail the zero-config check, before and after the fix, and the plans' ARI before and "
        "after; then five commits on a 1,000-file repository checked, beside applying them.",
    )
    p.add_argument("repos", metavar="REPO", nargs="*", help="git repositories (or bundles); cloned, never touched")
    p.add_argument("--k", type=int, nargs="+", default=[2, 3], help="commits tangled per case (default 2 3)")
    p.add_argument("--n", type=int, default=20, help="cases per repository and k (default 20)")
    add_selection_options(p)
    p.add_argument("--no-speed", action="store_true", help="skip the 1,000-file timing")
    p.add_argument("--json", action="store_true", help="print every figure, per case too, as JSON")
    p.set_defaults(func=run)


@dataclass
class CaseCheck:
    repo: str
    k: int
    case: str
    commits_before: int
    failing_before: int
    commits_after: int
    failing_after: int
    ari_before: float
    ari_after: float
    fixes: list[str]
    seconds: float


def run(args: argparse.Namespace) -> BenchReport:
    from segmint_bench.timing import progress
    from segmint_bench.untangle import selections
    from segmint_bench.untangle.cache import Cache

    if not args.repos and args.no_speed:
        raise SegmintError("Name a repository to check tangled cases of, or leave out --no-speed")
    cache = Cache(args.cache)
    cases: list[CaseCheck] = []
    for repo in args.repos:
        for selection in selections(args, args.k):
            cases += check_cases(repo, selection, cache, progress)
    speed = speed_run() if not args.no_speed else None
    return BenchReport({"cases": [vars(c) for c in cases], "table": _rows(cases), "speed": speed}, _text(cases, speed))


def check_cases(repo: str, selection, cache, log) -> list[CaseCheck]:
    from segmint_bench.untangle.corpus import load_tangles, repo_name
    from segmint_bench.untangle.workspace import Workspace

    name = repo_name(repo)
    out = []
    with Workspace(repo) as workspace:
        for n, tangle in enumerate(load_tangles(repo, selection, cache, log), 1):
            workspace.tangle(tangle.case)
            shutil.rmtree(os.path.join(workspace.git.git_dir, "segmint"), ignore_errors=True)
            result = check_case(workspace.root, tangle)
            if result is not None:
                result.repo, result.k = name, selection.k
                out.append(result)
            if log and n % 5 == 0:
                log(f"{name} k={selection.k}: checked {n}/{selection.n} cases")
    return out


def check_case(root: str, tangle) -> CaseCheck | None:
    from segmint_core.session.session import Session

    session = Session.open(root)
    if session.units.changeset.fingerprint != tangle.changes.fingerprint:
        return None  # captured otherwise than when the case was tangled: its lines are not the truth's
    start = time.perf_counter()
    session.regroup()
    session.propose_commits()
    before = session.check_commits(None)
    ari_before = _ari(session, tangle)
    fixes: list[str] = []
    after = before
    if before.failed:
        fix = session.propose_fixes(before, None)
        if fix.steps:
            session.fix_commits(fix)
            after = fix.report
            fixes = [s.kind for s in fix.steps]
    return CaseCheck(
        "",
        0,
        tangle.case.name,
        len(before.results),
        len(before.failed),
        len(after.results),
        len(after.failed),
        ari_before,
        _ari(session, tangle),
        fixes,
        time.perf_counter() - start,
    )


def _ari(session, tangle) -> float:
    """ARI of the open plans against the true commits: each scored line labelled by the plan committing it."""
    from segmint_bench.untangle.metrics import adjusted_rand_index

    plan_of = {}
    for plan in session.plans:
        for unit in session.units.resolve(plan.hunk_ids):
            for ref in unit.refs:
                plan_of[ref] = plan.id
    keys = tangle.keys
    return adjusted_rand_index([tangle.truth[k] for k in keys], [plan_of.get(k, "none") for k in keys])


def _rows(cases: list[CaseCheck]) -> list[dict]:
    rows = []
    for repo, k in dict.fromkeys((c.repo, c.k) for c in cases):
        rows.append(_row(f"{repo}", k, [c for c in cases if (c.repo, c.k) == (repo, k)]))
    if cases:
        rows.append(_row("all", 0, cases))
    return rows


def _row(repo: str, k: int, cases: list[CaseCheck]) -> dict:
    before = [c.ari_before for c in cases]
    after = [c.ari_after for c in cases]
    deltas = [a - b for a, b in zip(after, before)]
    return {
        "repo": repo,
        "k": k,
        "cases": len(cases),
        "commits_before": sum(c.commits_before for c in cases),
        "commits_after": sum(c.commits_after for c in cases),
        "failing_before": sum(c.failing_before for c in cases) / max(1, sum(c.commits_before for c in cases)),
        "failing_after": sum(c.failing_after for c in cases) / max(1, sum(c.commits_after for c in cases)),
        "ari_before": statistics.fmean(before) if before else 0.0,
        "ari_after": statistics.fmean(after) if after else 0.0,
        "ari_se": _se(before),
        "delta_se": _se(deltas),
        "cases_fixed": sum(1 for c in cases if c.fixes),
        "seconds_mean": statistics.fmean(c.seconds for c in cases) if cases else 0.0,
    }


def _se(values: list[float]) -> float:
    return statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0


def _text(cases: list[CaseCheck], speed: dict | None) -> str:
    lines = []
    if cases:
        lines += [
            "Proposed commits that fail the zero-config check on their own, before and after --fix",
            "(ARI: the plans against the true commits, each line labelled by the plan committing it)",
            "",
            f"{'repo':<12} {'k':>2} {'cases':>5} {'commits':>9} {'failing':>17} {'ARI before':>16} "
            f"{'ARI after':>10} {'Δ ± SE':>15} {'fixed':>5}",
        ]
        for row in _rows(cases):
            k = str(row["k"]) if row["k"] else "-"
            lines.append(
                f"{row['repo']:<12} {k:>2} {row['cases']:>5} {row['commits_before']:>4}→{row['commits_after']:<4} "
                f"{100 * row['failing_before']:>6.1f}% → {100 * row['failing_after']:>5.1f}% "
                f"{row['ari_before']:>8.3f} ± {row['ari_se']:.3f} {row['ari_after']:>10.3f} "
                f"{row['ari_after'] - row['ari_before']:>+7.3f} ± {row['delta_se']:.3f} {row['cases_fixed']:>5}"
            )
    if speed is not None:
        lines += [
            "",
            f"Speed: {speed['commits']} commits on a {speed['files']:,}-file repository",
            f"  segmint check (zero-config, cold cache)  {speed['check_seconds']:.2f} s (target <= {SPEED_TARGET:g} s)",
            f"  segmint check again (cached by tree)      {speed['check_cached_seconds']:.2f} s",
            f"  segmint apply --all (the same plans)      {speed['apply_seconds']:.2f} s",
        ]
    return "\n".join(lines)


def speed_run(files: int = SPEED_FILES, commits: int = SPEED_COMMITS) -> dict:
    """Time the zero-config check of ``commits`` plans on a ``files``-file repository, beside applying them."""
    from segmint_core.session.session import Session

    folder = tempfile.mkdtemp(prefix="segmint-check-speed-")
    try:
        root = os.path.join(folder, "repo")
        _speed_repo(root, files, commits)
        copy = os.path.join(folder, "copy")
        shutil.copytree(root, copy, symlinks=True)
        session = Session.open(root)
        _plans_by_file(session, commits)
        start = time.perf_counter()
        report = session.check_commits(None)
        check_seconds = time.perf_counter() - start
        start = time.perf_counter()
        session.check_commits(None)
        cached_seconds = time.perf_counter() - start
        applied = Session.open(copy)
        _plans_by_file(applied, commits)
        start = time.perf_counter()
        applied.apply_all()
        apply_seconds = time.perf_counter() - start
        return {
            "files": files,
            "commits": len(report.results),
            "check_seconds": check_seconds,
            "check_cached_seconds": cached_seconds,
            "apply_seconds": apply_seconds,
            "failing": len(report.failed),
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _speed_repo(root: str, files: int, commits: int) -> None:
    """A repository of ``files`` Python modules; then ``commits`` edits, each a new function in one module
    that the next edit's module calls."""
    import subprocess

    os.makedirs(os.path.join(root, "pkg"))
    subprocess.run(["git", "init", "-q", root], check=True)
    for n in range(files):
        with open(os.path.join(root, "pkg", f"module_{n:04d}.py"), "w") as fh:
            fh.write(f'"""Module {n}."""\n\n\ndef value_{n}():\n    return {n}\n')
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Bench",
        "GIT_AUTHOR_EMAIL": "bench@example.invalid",
        "GIT_COMMITTER_NAME": "Bench",
        "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    }
    subprocess.run(["git", "-C", root, "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", root, "-c", "commit.gpgsign=false", "commit", "-qm", "base"], check=True, env=env)
    for c in range(commits):
        path = os.path.join(root, "pkg", f"module_{c:04d}.py")
        uses = f"from pkg.module_{c - 1:04d} import step_{c - 1}\n\n\n" if c else ""
        body = f"step_{c - 1}() + " if c else ""
        with open(path, "w") as fh:
            fh.write(
                f'"""Module {c}."""\n{uses}\ndef value_{c}():\n    return {c}\n\n\n'
                f"def step_{c}():\n    return {body}value_{c}()\n"
            )


def _plans_by_file(session, commits: int) -> None:
    """One group, and so one plan, per changed file, in file order (each builds on the one before)."""
    session.regroup()
    changes = session.changes
    session.move_hunks([h.id for c in changes for h in c.hunks], to_group_id=session.groups[0].id)
    for change in changes[1:]:
        session.move_hunks([h.id for h in change.hunks], new_group=True)
    session.propose_commits()
    order = sorted(session.plans, key=lambda p: session.units.change_of(p.hunk_ids[0]).file_path)
    session.reorder_commits([p.id for p in order])
    if len(session.plans) != commits:
        raise SegmintError(f"The speed repository planned {len(session.plans)} commits, not {commits}")
