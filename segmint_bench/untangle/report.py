"""Running ``segmint bench untangle`` end to end and printing its table."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable

from segmint_bench.untangle.cache import Cache
from segmint_bench.untangle.corpus import Selection
from segmint_bench.untangle.features import load_samples
from segmint_bench.untangle import methods
from segmint_bench.untangle.runner import METHODS, REFINED, CaseResult, Summary, run_case, summarize
from segmint_bench.untangle.synthetic import synthetic_changes
from segmint_core.grouping.syntax.facts import forget_parses
from segmint_bench.untangle.workspace import Workspace
from segmint_core.config import load_settings
from segmint_core.errors import SegmintError
from segmint_core.grouping import group_changes
from segmint_bench import BenchReport
from segmint_core.wording import counted

SYNTHETIC_REPEAT = 3


def run_benchmark(
    repo: str,
    selection: Selection,
    cache: Cache,
    *,
    provider: str,
    synthetic_hunks: int,
    log: Callable[[str], None],
    refine: bool = False,
) -> BenchReport:
    samples = load_samples(repo, selection, cache, log)
    if not samples:
        raise SegmintError(f"No case of {_chains(selection.k)} fits the limits in {repo}")
    return score_samples(
        repo, selection, samples, provider=provider, synthetic_hunks=synthetic_hunks, log=log, refine=refine
    )


def run_several(
    repo: str,
    chosen: list[Selection],
    cache: Cache,
    *,
    provider: str,
    synthetic_hunks: int,
    log: Callable[[str], None],
    refine: bool = False,
) -> BenchReport:
    """A table for each k, or a note for a k the history holds no case of; the synthetic
    timing once, under the last table."""
    loaded = [(selection, load_samples(repo, selection, cache, log)) for selection in chosen]
    scored = [position for position, (_, samples) in enumerate(loaded) if samples]
    if not scored:
        ks = " or ".join(str(selection.k) for selection in chosen)
        raise SegmintError(f"No case of {ks} consecutive commits by one author fits the limits in {repo}")
    reports = [
        score_samples(
            repo,
            selection,
            samples,
            provider=provider,
            log=log,
            refine=refine,
            synthetic_hunks=synthetic_hunks if position == scored[-1] else 0,
        )
        if samples
        else _no_cases(repo, selection)
        for position, (selection, samples) in enumerate(loaded)
    ]
    return BenchReport({"runs": [r.figures for r in reports]}, "\n\n".join(r.text for r in reports))


def _no_cases(repo: str, selection: Selection) -> BenchReport:
    note = f"k={selection.k}: no cases found in {repo} (no case of {_chains(selection.k)} fits the limits)"
    return BenchReport({"repo": repo, "k": selection.k, "n": 0, "note": note}, note)


def _chains(k: int) -> str:
    return f"{counted(k, 'consecutive commit')} by one author"


def score_samples(
    repo: str,
    selection: Selection,
    samples: list,
    *,
    provider: str,
    synthetic_hunks: int,
    log: Callable[[str], None],
    refine: bool = False,
) -> BenchReport:
    settings = load_settings() if refine else None
    refining = settings is not None and settings.chat_enabled
    tally: Counter = Counter()
    names = (*METHODS, REFINED) if refining else METHODS
    extra = {REFINED: methods.refined(settings, provider, tally)} if refining else None
    results: list[CaseResult] = []
    for number, sample in enumerate(samples, start=1):
        result = run_case(sample, provider, names, extra)
        results.append(result)
        log(_case_line(number, len(samples), result))
    synthetic = None
    if synthetic_hunks:
        with Workspace(repo) as workspace:
            synthetic = _synthetic(workspace, synthetic_hunks, provider, log)
    rows = summarize(results, names)
    figures = {
        "repo": repo,
        "k": selection.k,
        "n": len(results),
        "seed": selection.seed,
        "first_parent": selection.first_parent,
        "provider": provider,
        "summary": [vars(r) for r in rows],
        "synthetic": synthetic,
        "cases": [r.to_dict() for r in results],
    }
    table = format_table(rows, len(results), selection, synthetic)
    if refine:
        figures["refine"] = (
            {"model": settings.chat_model, "cases": dict(tally)} if refining else {"model": None, "why": NOT_CONFIGURED}
        )
        table += "\n\n" + (_refine_lines(settings.chat_model, tally, len(results)) if refining else NOT_CONFIGURED)
    return BenchReport(figures, table)


NOT_CONFIGURED = (
    f"{REFINED}: not measured: no chat model is configured here (set SEGMINT_CHAT_MODEL, and "
    "SEGMINT_BASE_URL for a local OpenAI-compatible server or OPENAI_API_KEY)"
)


def _refine_lines(model: str | None, tally: Counter, cases: int) -> str:
    lines = [
        f"{REFINED}: {model}; its edits applied in {tally['applied']} of {counted(cases, 'case')}, "
        f"the engine's groups kept in {tally['kept']}"
    ]
    notes = sorted(((n, k.removeprefix("note: ")) for k, n in tally.items() if k.startswith("note: ")), reverse=True)
    lines += [f"  {n} x {why}" for n, why in notes[:5]]
    return "\n".join(lines)


def _case_line(number: int, total: int, r: CaseResult) -> str:
    return (
        f"case {number}/{total} {r.case.name}: {counted(r.files, 'file')}, {counted(r.hunks, 'hunk')}, "
        f"{counted(r.lines, 'line')}; "
        f"graph ARI {r.scores['graph'].ari:.2f} in {r.seconds['graph']:.3f} s "
        f"(per-file {r.scores['per-file'].ari:.2f})"
        + (f"; refined {r.scores[REFINED].ari:.2f} in {r.seconds[REFINED]:.1f} s" if REFINED in r.scores else "")
    )


def _synthetic(workspace: Workspace, hunks: int, provider: str, log: Callable[[str], None]) -> dict:
    changes = synthetic_changes(workspace.git, workspace.head(), hunks)
    log(f"synthetic case: {len(changes.changes)} files, {hunks} hunks")
    wall: list[float] = []
    cpu: list[float] = []  # CPU time too: on a shared machine the wall clock says more of its load
    regroup: list[float] = []
    for _ in range(1 + SYNTHETIC_REPEAT):  # the first is a warm-up, not counted
        forget_parses()  # a first grouping: no file's tree kept from the run before
        start, start_cpu = time.perf_counter(), time.process_time()
        group_changes(changes, provider=provider, timeline=None, root=workspace.root)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        start_cpu = time.process_time()  # the same files grouped again, as a session regroups: parses kept
        group_changes(changes, provider=provider, timeline=None, root=workspace.root)
        regroup.append(time.process_time() - start_cpu)
    wall, cpu, regroup = wall[1:], cpu[1:], regroup[1:]
    return {
        "files": len(changes.changes),
        "hunks": len(changes.hunk_ids()),
        "lines": sum(len(h.lines) for c in changes.changes for h in c.hunks),
        "seconds": round(statistics.median(wall), 4),
        "seconds_best": round(min(wall), 4),
        "cpu_seconds": round(statistics.median(cpu), 4),
        "regroup_cpu_seconds": round(statistics.median(regroup), 4),
        "repeat": SYNTHETIC_REPEAT,
    }


def format_table(rows: list[Summary], cases: int, selection: Selection, synthetic: dict | None) -> str:
    history = "first-parent history" if selection.first_parent else "all history"
    what = "single commits: ARI 1 when kept as one group, else 0" if selection.k == 1 else "tangled commits"
    lines = [
        f"{counted(cases, 'case')} of k={selection.k} {what} (seed {selection.seed}, {history}); means over cases",
        "",
        f"{'method':<22}{'ARI':>7}{'Rand':>7}{'accuracy':>10}{'exact':>8}{'s/case':>9}{'max s':>8}",
    ]
    for r in rows:
        lines.append(
            f"{r.method:<22}{r.ari:>7.3f}{r.rand:>7.3f}{r.accuracy:>10.3f}{r.exact:>8.0%}"
            f"{r.seconds_mean:>9.4f}{r.seconds_max:>8.3f}"
        )
    if synthetic:
        lines += [
            "",
            f"synthetic {synthetic['hunks']:,} hunks ({synthetic['files']} files, {synthetic['lines']:,} lines): "
            f"grouping {synthetic['seconds']:.3f} s median of {synthetic['repeat']} "
            f"(best {synthetic['seconds_best']:.3f} s), CPU {synthetic['cpu_seconds']:.3f} s median; "
            f"grouped again with its parses kept, CPU {synthetic['regroup_cpu_seconds']:.3f} s",
        ]
    return "\n".join(lines)
