"""Running ``segmint bench untangle`` end to end and printing its table."""

from __future__ import annotations

from collections.abc import Callable

from segmint_core.bench.timing import time_it
from segmint_core.bench.untangle.runner import METHODS, CaseResult, Summary, run_case, summarize, tangles
from segmint_core.bench.untangle.synthetic import synthetic_changes
from segmint_core.bench.untangle.workspace import Workspace
from segmint_core.errors import SegmintError
from segmint_core.grouping import group_changes
from segmint_core.bench import BenchReport
from segmint_core.wording import counted

SYNTHETIC_REPEAT = 3


def run_benchmark(repo: str, *, k: int, n: int, seed: int, provider: str, since: int | None, until: int | None,
                  synthetic_hunks: int, log: Callable[[str], None]) -> BenchReport:
    results: list[CaseResult] = []
    with Workspace(repo) as workspace:
        for number, tangle in enumerate(tangles(workspace, k, n, seed, since=since, until=until), start=1):
            result = run_case(tangle, METHODS, provider)
            results.append(result)
            log(_case_line(number, n, result))
        if not results:
            raise SegmintError(f"No case of {k} consecutive commits by one author fits the limits in {repo}")
        synthetic = _synthetic(workspace, synthetic_hunks, provider, log) if synthetic_hunks else None
    rows = summarize(results, METHODS)
    figures = {
        "repo": repo, "k": k, "n": len(results), "seed": seed, "provider": provider,
        "summary": [vars(r) for r in rows],
        "synthetic": synthetic,
        "cases": [r.to_dict() for r in results],
    }
    return BenchReport(figures, format_table(rows, len(results), k, seed, synthetic))


def _case_line(number: int, total: int, r: CaseResult) -> str:
    return (
        f"case {number}/{total} {r.case.name}: {counted(r.files, 'file')}, {counted(r.hunks, 'hunk')}, "
        f"{counted(r.lines, 'line')}; "
        f"graph ARI {r.scores['graph'].ari:.2f} in {r.seconds['graph']:.3f} s "
        f"(per-file {r.scores['per-file'].ari:.2f})"
    )


def _synthetic(workspace: Workspace, hunks: int, provider: str, log: Callable[[str], None]) -> dict:
    changes = synthetic_changes(workspace.git, workspace.head(), hunks)
    log(f"synthetic case: {len(changes.changes)} files, {hunks} hunks")
    timing = time_it(lambda: group_changes(changes, provider=provider, timeline=None), SYNTHETIC_REPEAT)
    return {
        "files": len(changes.changes),
        "hunks": len(changes.hunk_ids()),
        "lines": sum(len(h.lines) for c in changes.changes for h in c.hunks),
        "seconds": round(timing.median, 4),
        "seconds_best": round(timing.best, 4),
        "repeat": SYNTHETIC_REPEAT,
    }


def format_table(rows: list[Summary], cases: int, k: int, seed: int, synthetic: dict | None) -> str:
    lines = [
        f"{counted(cases, 'case')} of k={k} tangled commits (seed {seed}); means over cases",
        "",
        f"{'method':<22}{'ARI':>7}{'Rand':>7}{'accuracy':>10}{'exact':>8}{'s/case':>9}{'max s':>8}",
    ]
    for r in rows:
        name = "oracle hunks (ceiling)" if r.method == "oracle hunks" else r.method
        lines.append(
            f"{name:<22}{r.ari:>7.3f}{r.rand:>7.3f}{r.accuracy:>10.3f}{r.exact:>8.0%}"
            f"{r.seconds_mean:>9.4f}{r.seconds_max:>8.3f}"
        )
    if synthetic:
        lines += [
            "",
            f"synthetic {synthetic['hunks']:,} hunks ({synthetic['files']} files, {synthetic['lines']:,} lines): "
            f"grouping {synthetic['seconds']:.3f} s median of {synthetic['repeat']} "
            f"(best {synthetic['seconds_best']:.3f} s)",
        ]
    return "\n".join(lines)
