"""Running the untangling benchmark: cases, methods, scores, timings."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from segmint_core.bench.untangle import labels as baseline
from segmint_core.bench.untangle.cases import Case, candidate_cases, read_history, shuffled
from segmint_core.bench.untangle.metrics import Scores, score
from segmint_core.bench.untangle.truth import LineKey, line_truth
from segmint_core.bench.untangle.workspace import Workspace
from segmint_core.changes import ChangeSet, capture
from segmint_core.grouping import group_changes

# Methods in table order. "graph" is Segmint's engine; "oracle hunks" is a ceiling, not a method.
METHODS = ("graph", "seed", "per-file", "all-in-one", "per-hunk", "oracle hunks")


@dataclass
class Tangle:
    """One materialised case: the captured changes and the true commit of each scored line."""

    case: Case
    changes: ChangeSet
    truth: dict[LineKey, int]

    @property
    def keys(self) -> list[LineKey]:
        return sorted(self.truth)


@dataclass
class CaseResult:
    case: Case
    files: int
    hunks: int
    lines: int
    scores: dict[str, Scores] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "base": self.case.base,
            "commits": list(self.case.commits),
            "files": self.files,
            "hunks": self.hunks,
            "lines": self.lines,
            "scores": {m: vars(s) for m, s in self.scores.items()},
            "seconds": {m: round(s, 5) for m, s in self.seconds.items()},
        }


def tangles(workspace: Workspace, k: int, n: int, seed: int, *, since: int | None = None,
            until: int | None = None) -> Iterator[Tangle]:
    """Up to ``n`` cases in ``seed`` order; a case where some commit owns no
    scorable line of the tangled diff (reverted, or only moved lines) is skipped."""
    history = read_history(workspace.git, workspace.head())
    found = 0
    for case in shuffled(candidate_cases(history, k, since=since, until=until), seed):
        if found >= n:
            return
        workspace.tangle(case)
        changes = capture(workspace.git)
        truth = line_truth(workspace.git, case, changes)
        if len(set(truth.values())) < k:
            continue
        found += 1
        yield Tangle(case, changes, truth)


def run_case(tangle: Tangle, methods: tuple[str, ...], provider: str) -> CaseResult:
    keys = tangle.keys
    truth = [tangle.truth[key] for key in keys]
    changes = tangle.changes
    result = CaseResult(
        tangle.case, files=len(changes.changes), hunks=len(changes.hunk_ids()), lines=len(keys),
    )
    for method in methods:
        predict = _predictor(method, tangle, provider)
        start = time.perf_counter()
        predicted = predict()
        result.seconds[method] = time.perf_counter() - start
        result.scores[method] = score(truth, predicted)
    return result


def _predictor(method: str, tangle: Tangle, provider: str) -> Callable[[], list]:
    changes, keys = tangle.changes, tangle.keys
    if method in ("graph", "seed"):
        def grouped() -> list:
            grouping = group_changes(changes, provider=provider, algorithm=method, timeline=None)
            return baseline.grouping_labels(grouping, changes, keys)
        return grouped
    if method == "per-file":
        return lambda: baseline.per_file(changes, keys)
    if method == "per-hunk":
        return lambda: baseline.per_hunk(changes, keys)
    if method == "all-in-one":
        return lambda: baseline.all_in_one(changes, keys)
    if method == "oracle hunks":
        return lambda: baseline.hunk_majority(tangle.truth, keys)
    raise ValueError(method)


@dataclass(frozen=True)
class Summary:
    method: str
    ari: float
    rand: float
    accuracy: float
    exact: float
    seconds_mean: float
    seconds_max: float


def summarize(results: list[CaseResult], methods: tuple[str, ...]) -> list[Summary]:
    rows = []
    for method in methods:
        scores = [r.scores[method] for r in results]
        seconds = [r.seconds[method] for r in results]
        rows.append(Summary(
            method,
            ari=statistics.fmean(s.ari for s in scores),
            rand=statistics.fmean(s.rand for s in scores),
            accuracy=statistics.fmean(s.accuracy for s in scores),
            exact=statistics.fmean(1.0 if s.exact else 0.0 for s in scores),
            seconds_mean=statistics.fmean(seconds),
            seconds_max=max(seconds),
        ))
    return rows
