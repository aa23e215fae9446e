"""The confidence tables of ``bench untangle --leave-one-out``: reliability and review effort.

For each repository held out, the pair model and its calibration
(``calibration.fit_calibration``) are fit on the others; that repository's
cases then give the reliability of the probabilities (``--calibration``) and
the ARI after 0, 1, 3, ... decisions settled by an oracle reviewer
(``--review N``, ``review.py``), beside the ARI of a reviewer shown the
listed decision that helps most first: the ceiling of any order of the list.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from segmint_bench.untangle.calibration import Reliability, add_case, fit_calibration, format_reliability
from segmint_bench.untangle.features import Sample
from segmint_bench.untangle.review import review_curve, steps_up_to
from segmint_core.grouping.confidence import IDENTITY, Calibration
from segmint_core.grouping.model import Model

RAW, CALIBRATED = "raw", "calibrated"


@dataclass
class ConfidenceTables:
    repos: list[str]
    steps: list[int]
    reliability: dict[str, dict[str, Reliability]] = field(default_factory=dict)  # raw|calibrated -> pairs|hunks
    curves: dict[tuple[str, int], list[list[float]]] = field(default_factory=dict)  # (repo, k) -> per case
    best: dict[tuple[str, int], list[list[float]]] = field(default_factory=dict)  # the same, best first
    calibrations: dict[str, Calibration] = field(default_factory=dict)

    def add(self, held: str, samples: list[Sample], training: list[Sample], model: Model, reliability: bool) -> None:
        calibration = fit_calibration(training, model)
        self.calibrations[held] = calibration
        for sample in samples:
            if reliability and sample.k >= 2:
                for name, used in ((RAW, IDENTITY), (CALIBRATED, calibration)):
                    tables = self.reliability.setdefault(name, {"pairs": Reliability(), "hunks": Reliability()})
                    add_case(tables["pairs"], tables["hunks"], sample, model, used)
            if self.steps:
                self.curves.setdefault((held, sample.k), []).append(
                    review_curve(sample, model, self.steps, calibration)
                )
                self.best.setdefault((held, sample.k), []).append(
                    review_curve(sample, model, self.steps, calibration, best_first=True)
                )

    def review_means(self, k: int, best_first: bool = False) -> list[tuple[float, float]]:
        """Per step: the mean over repositories of each one's mean ARI, and its standard error."""
        curves = self.best if best_first else self.curves
        out = []
        for i in range(len(self.steps)):
            means, variances = [], []
            for repo in self.repos:
                values = [c[i] for c in curves.get((repo, k), [])]
                if values:
                    means.append(statistics.fmean(values))
                    variances.append(statistics.variance(values) / len(values) if len(values) > 1 else 0.0)
            se = (sum(variances) ** 0.5) / len(means) if means else float("nan")
            out.append((statistics.fmean(means) if means else float("nan"), se))
        return out

    def figures(self, ks: list[int]) -> dict:
        out: dict = {}
        if self.reliability:
            out["reliability"] = {
                name: {table: r.rows() for table, r in tables.items()} for name, tables in self.reliability.items()
            }
            out["calibrations"] = {repo: c.to_dict() for repo, c in self.calibrations.items()}
        if self.steps:
            out["review"] = {
                "steps": self.steps,
                "ari": self._review_figures(ks, False),
                "best_first": self._review_figures(ks, True),
            }
        return out

    def _review_figures(self, ks: list[int], best_first: bool) -> dict:
        curves = self.best if best_first else self.curves
        return {
            str(k): {
                "mean": [m for m, _ in self.review_means(k, best_first)],
                "se": [s for _, s in self.review_means(k, best_first)],
                "repos": {
                    r: [statistics.fmean(c[i] for c in curves[(r, k)]) for i in range(len(self.steps))]
                    for r in self.repos
                    if (r, k) in curves
                },
            }
            for k in ks
        }

    def text(self, ks: list[int]) -> list[str]:
        lines: list[str] = []
        if self.reliability:
            lines += [
                "",
                "Reliability, held out (per decile of P: line-weighted mean predicted and observed; "
                "* where they differ by more than 0.10)",
            ]
            for name in (RAW, CALIBRATED):
                tables = self.reliability.get(name)
                if tables:
                    lines += ["", *format_reliability(f"{name}: unit pairs, P(same intent)", tables["pairs"].rows())]
                    lines += [
                        "",
                        *format_reliability(f"{name}: hunks, P(belongs with its group)", tables["hunks"].rows()),
                    ]
        if self.steps:
            lines += [
                "",
                "Review effort, held out: ARI after the reviewer settles the N least certain decisions "
                "(mean over repositories, standard error)",
                *self._review_table(ks, False),
            ]
            lines += [
                "",
                "The same reviewer shown the listed decision that helps most first "
                "(known from the history: the ceiling of any order of the list)",
                *self._review_table(ks, True),
            ]
        return lines

    def _review_table(self, ks: list[int], best_first: bool) -> list[str]:
        curves = self.best if best_first else self.curves
        width = max(9, *(len(r) + 2 for r in self.repos))
        prefix = "best " if best_first else ""
        kw = len(prefix) + 4
        lines = [f"{'k':<{kw}}{'N':>4}" + "".join(f"{r:>{width}}" for r in self.repos) + f"{'mean':>8}{'se':>7}"]
        for k in ks:
            for i, step in enumerate(self.steps):
                cells = "".join(
                    f"{statistics.fmean(c[i] for c in curves[(r, k)]):>{width}.3f}"
                    if (r, k) in curves
                    else f"{'':>{width}}"
                    for r in self.repos
                )
                mean, se = self.review_means(k, best_first)[i]
                lines.append(f"{prefix + str(k):<{kw}}{step:>4}{cells}{mean:>8.3f}{se:>7.3f}")
        return lines


def review_steps(n: int | None) -> list[int]:
    return steps_up_to(n) if n is not None else []
