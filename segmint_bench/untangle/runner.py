"""Running the untangling benchmark on one repository: methods, scores, timings."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from segmint_bench.untangle import labels as baseline
from segmint_bench.untangle import methods
from segmint_bench.untangle.cases import Case
from segmint_bench.untangle.features import Sample
from segmint_bench.untangle.metrics import Scores, score
from segmint_core.grouping import group_changes
from segmint_bench.models import V1

# Methods in table order. "graph" is Segmint's engine as shipped, run end to end;
# the ceilings are not methods but the best a grouping of hunks (or atoms) can do.
METHODS = ("graph", "v1 model", "seed", "per-file", "all-in-one", "per-hunk", "ceiling: hunks", "ceiling: atoms")
REFINED = "graph + refine"  # with --refine and a chat model: the engine's groups, then the model's edits


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


def run_case(
    sample: Sample,
    provider: str = "local",
    names: tuple[str, ...] = METHODS,
    extra: dict[str, methods.Predict] | None = None,
) -> CaseResult:
    """Every method of ``names`` on one case; ``extra`` adds methods by name (``REFINED``)."""
    tangle = sample.tangle
    keys = tangle.keys
    truth = [tangle.truth[key] for key in keys]
    changes = tangle.changes
    result = CaseResult(tangle.case, files=len(changes.changes), hunks=len(changes.hunk_ids()), lines=len(keys))
    for name in names:
        start = time.perf_counter()
        predicted = extra[name](sample) if extra and name in extra else _predict(name, sample, provider)
        result.seconds[name] = time.perf_counter() - start
        result.scores[name] = score(truth, predicted)
    return result


def _predict(name: str, sample: Sample, provider: str) -> list:
    if name == "graph":
        grouping = group_changes(sample.tangle.changes, provider=provider, timeline=None)
        return baseline.grouping_labels(grouping, sample.tangle.changes, sample.tangle.keys)
    if name == "v1 model":
        return methods.engine(V1)(sample)
    return methods.BASELINES[name](sample)


@dataclass(frozen=True)
class Summary:
    method: str
    ari: float
    rand: float
    accuracy: float
    exact: float
    seconds_mean: float
    seconds_max: float


def summarize(results: list[CaseResult], names: tuple[str, ...]) -> list[Summary]:
    rows = []
    for method in names:
        scores = [r.scores[method] for r in results]
        seconds = [r.seconds[method] for r in results]
        rows.append(
            Summary(
                method,
                ari=statistics.fmean(s.ari for s in scores),
                rand=statistics.fmean(s.rand for s in scores),
                accuracy=statistics.fmean(s.accuracy for s in scores),
                exact=statistics.fmean(1.0 if s.exact else 0.0 for s in scores),
                seconds_mean=statistics.fmean(seconds),
                seconds_max=max(seconds),
            )
        )
    return rows
