"""``segmint bench untangle --leave-one-out DIR...``: every repository scored by a
model fit on the others, beside the baselines, for k = 1, 2, 3.

A learned part's figures count only held out, so each repository's row comes
from ``fit_model`` on the cases of all the other repositories. The standard
error of a mean over repositories treats each repository's cases as a sample
(``sqrt(sum(var_r / n_r)) / R``); a difference between two methods is taken
case by case (paired), so its error is much smaller than either figure's.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from segmint_bench import BenchReport
from segmint_bench.untangle import cuts, methods
from segmint_bench.untangle.cache import Cache
from segmint_bench.untangle.confidence import ConfidenceTables, review_steps
from segmint_bench.untangle.corpus import Selection, repo_name
from segmint_bench.untangle.features import Sample, load_samples, without
from segmint_bench.untangle.boosting import Boosting
from segmint_bench.untangle.fit import BOOSTING, MERGE_THRESHOLD, fit_model
from segmint_bench.untangle.metrics import adjusted_rand_index
from segmint_bench.untangle.one_intent import fit_one_intent
from segmint_core.errors import SegmintError
from segmint_bench.models import V1
from segmint_core.wording import counted

ENGINE = "graph (held out)"
GATED = "graph, one-intent gate"  # the same pair model, then the whole change joined where a gate fit with it says so
MERGING = "graph, merge model"  # the same pair model, each merge decided by a merge model fit with it
V1_MODEL = "v1 model"
LINEAR = "graph, linear pair model"  # the shipped pair model without its trees, when it has them
# Differences shown under each table, case by case: (row, minus this row).
PER_FILE = "per-file"


@dataclass
class Table:
    """ARI per method, repository and k: one list of per-case scores each."""

    repos: list[str]
    ks: list[int]
    methods: list[str]
    scores: dict[tuple[str, str, int], list[float]] = field(default_factory=dict)

    def add(self, method: str, repo: str, k: int, value: float) -> None:
        self.scores.setdefault((method, repo, k), []).append(value)

    def cell(self, method: str, repo: str, k: int) -> list[float]:
        return self.scores.get((method, repo, k), [])

    def mean(self, method: str, k: int, minus: str | None = None) -> tuple[float, float]:
        """The mean over repositories of each repository's mean, and its standard error."""
        means, variances = [], []
        for repo in self.repos:
            values = self._values(method, repo, k, minus)
            if not values:
                continue
            means.append(statistics.fmean(values))
            variances.append(statistics.variance(values) / len(values) if len(values) > 1 else 0.0)
        if not means:
            return math.nan, math.nan
        return statistics.fmean(means), math.sqrt(sum(variances)) / len(means)

    def repo_mean(self, method: str, repo: str, k: int, minus: str | None = None) -> float:
        values = self._values(method, repo, k, minus)
        return statistics.fmean(values) if values else math.nan

    def _values(self, method: str, repo: str, k: int, minus: str | None) -> list[float]:
        values = self.cell(method, repo, k)
        if minus is None:
            return values
        return [a - b for a, b in zip(values, self.cell(minus, repo, k))]


def leave_one_out(
    repos: list[str],
    selections: list[Selection],
    cache: Cache,
    *,
    drop: frozenset[str] = frozenset(),
    add: frozenset[str] = frozenset(),
    review: int | None = None,
    calibration: bool = False,
    boosting: Boosting | None = None,
    log: Callable[[str], None] | None = None,
) -> BenchReport:
    """``add``: link kinds the shipped model is not fit on (``HELD_BACK``), fit and scored in a row of their own."""
    names = _names(repos)
    samples: dict[str, list[Sample]] = {}
    fuller: dict[str, list[Sample]] = {}  # with the ``add`` kinds
    for name, repo in zip(names, repos):
        fuller[name] = [s for selection in selections for s in load_samples(repo, selection, cache, log, keep=add)]
        samples[name] = without(fuller[name], add)
        for s in (*samples[name], *fuller[name]):
            s.repo = name
    dropped = f"graph without {', '.join(sorted(drop))}" if drop else None
    added = f"graph with {', '.join(sorted(add))}" if add else None
    boosted = _boosted_name(boosting)
    compared = [name for name in (LINEAR if BOOSTING else None, boosted) if name]
    rows = [
        ENGINE,
        GATED,
        *compared,
        *(name for name in (dropped, added) if name),
        MERGING,
        cuts.CUT,
        V1_MODEL,
        *methods.BASELINES,
        cuts.BEST_CUT,
        cuts.TRUE_K,
    ]
    table = Table(names, [s.k for s in selections], rows)
    sure = ConfidenceTables(names, review_steps(review)) if review is not None or calibration else None
    for held in names:
        training = [s for name in names if name != held for s in samples[name]]
        if log:
            log(f"{held}: fitting on {counted(len(training), 'case')} of the other repositories")
        merging = fit_model(training, merge_threshold=MERGE_THRESHOLD, boosting=BOOSTING)
        model = replace(merging, merge=None)
        if log:
            log(f"{held}: the one-intent gate, fit on the other repositories")
        gated = replace(model, one_intent=fit_one_intent(training, model))
        if sure is not None:
            if log:
                log(f"{held}: confidence, calibrated on the other repositories")
            sure.add(held, samples[held], training, model, calibration)
        predictors = {
            ENGINE: methods.engine(model),
            GATED: methods.engine(gated),
            MERGING: methods.engine(merging),
            V1_MODEL: methods.engine(V1),
            **methods.BASELINES,
            **cuts.predictors(model, training),
        }
        if BOOSTING:
            predictors[LINEAR] = methods.engine(fit_model(training))
        if boosted:
            predictors[boosted] = methods.engine(fit_model(training, boosting=boosting))
        if dropped:
            predictors[dropped] = _engine_without(fit_model(without(training, drop)), drop)
        if added:
            predictors[added] = methods.engine(fit_model([s for name in names if name != held for s in fuller[name]]))
        if log:
            log(f"{held}: scoring {counted(len(samples[held]), 'case')}")
        for sample, full in zip(samples[held], fuller[held]):
            truth = [sample.tangle.truth[key] for key in sample.tangle.keys]
            for method in rows:
                predicted = predictors[method](full if method == added else sample)
                table.add(method, held, sample.k, adjusted_rand_index(truth, predicted))
    if not table.scores:
        raise SegmintError("No tangled cases in these repositories: nothing to score")
    figures = _figures(table, selections, drop, add)
    text = format_table(table, selections[0], dropped, compared, added)
    if sure is not None:
        figures.update(sure.figures(table.ks))
        text = "\n".join([text, *sure.text(table.ks)])
    return BenchReport(figures, text)


def _engine_without(model, drop: frozenset[str]) -> methods.Predict:
    predict = methods.engine(model)
    return lambda sample: predict(without([sample], drop)[0])


def _names(repos: list[str]) -> list[str]:
    names = [repo_name(r) for r in repos]
    if len(set(names)) < len(names):
        names = [f"{n}#{i}" for i, n in enumerate(names, start=1)]
    return names


def _boosted_name(boosting: Boosting | None) -> str | None:
    if boosting is None:
        return None
    return f"graph, {counted(boosting.trees, 'tree')} of depth {boosting.depth} at {boosting.rate:g}"


def format_table(
    table: Table, selection: Selection, dropped: str | None, compared: list[str] = (), added: str | None = None
) -> str:
    history = "first-parent history" if selection.first_parent else "all history"
    counts = {len(table.cell(ENGINE, r, k)) for r in table.repos for k in table.ks}
    per_repo = f"{min(counts)}-{max(counts)}" if len(counts) > 1 else str(counts.pop())
    lines = [
        f"Leave-one-repository-out: each repository scored by a model fit on the others; "
        f"{per_repo} cases per repository and k (seed {selection.seed}, {history}).",
        f"ARI per case, mean per repository; mean over repositories with its standard error. "
        f"{MERGING}: the same pair model with a merge model fit after it (at {MERGE_THRESHOLD}). "
        f"{GATED}: the same pair model, every group joined where a one-intent gate fit with it is sure enough. "
        f"{V1_MODEL}: the model shipped before, fit on click and httpx. {cuts.CUT}: the whole dendrogram "
        f"of the same pair model, cut where a cut model fit after it scores best; {cuts.BEST_CUT}: "
        f"its level with the best ARI; {cuts.TRUE_K}: its level with as many groups as commits.",
    ]
    width = max(len(m) for m in [*table.methods, f"{ENGINE} - {PER_FILE}"]) + 2
    header = f"{'':<{width}}" + "".join(f"{r:>{max(8, len(r) + 2)}}" for r in table.repos) + f"{'mean':>8}{'se':>7}"
    for k in table.ks:
        title = "single commits: share kept as one group" if k == 1 else "ARI"
        lines += ["", f"k={k} ({title})", header]
        for method in table.methods:
            lines.append(_row(table, method, k, width, None))
        lines.append(_row(table, f"{ENGINE} - {PER_FILE}", k, width, (ENGINE, PER_FILE)))
        lines.append(_row(table, f"{MERGING} - graph", k, width, (MERGING, ENGINE)))
        lines.append(_row(table, f"{GATED} - graph", k, width, (GATED, ENGINE)))
        lines.append(_row(table, f"{cuts.CUT} - graph", k, width, (cuts.CUT, ENGINE)))
        for name in compared:  # what the shipped model's trees add, or what the asked-for trees would
            pair = (ENGINE, name) if name == LINEAR else (name, ENGINE)
            label = f"graph - {LINEAR.removeprefix('graph, ')}" if name == LINEAR else f"{name} - graph"
            lines.append(_row(table, label, k, width, pair))
        if dropped:
            lines.append(_row(table, f"{ENGINE} - without", k, width, (ENGINE, dropped)))
        if added:
            lines.append(_row(table, f"with - {ENGINE}", k, width, (added, ENGINE)))
    return "\n".join(lines)


def _row(table: Table, label: str, k: int, width: int, pair: tuple[str, str] | None) -> str:
    method, minus = pair if pair else (label, None)
    sign = "+" if minus else ""
    cells = "".join(
        format(table.repo_mean(method, r, k, minus), f">{sign}{max(8, len(r) + 2)}.3f") for r in table.repos
    )
    mean, se = table.mean(method, k, minus)
    return f"{label:<{width}}{cells}{mean:>{sign}8.3f}{se:>7.3f}"


def _figures(table: Table, selections: list[Selection], drop: frozenset[str], add: frozenset[str]) -> dict:
    out: dict = {
        "repos": table.repos,
        "ks": table.ks,
        "n": selections[0].n,
        "seed": selections[0].seed,
        "first_parent": selections[0].first_parent,
        "drop": sorted(drop),
        "add": sorted(add),
        "methods": {},
    }
    for method in table.methods:
        per_k = {}
        for k in table.ks:
            mean, se = table.mean(method, k)
            per_k[str(k)] = {
                "mean": mean,
                "se": se,
                "repos": {
                    r: {
                        "mean": table.repo_mean(method, r, k),
                        "n": len(table.cell(method, r, k)),
                        "cases": table.cell(method, r, k),
                    }
                    for r in table.repos
                },
            }
        out["methods"][method] = per_k
    return out
