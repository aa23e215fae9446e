"""Fitting the one-intent gate (``segmint_core/grouping/one_intent.py``) on the benchmark's cases.

Each case is clustered by the pair model given, without a gate; the trees it
leaves in two groups or more are the rows, labelled by whether they hold one
commit. The logistic model is fit by Newton's method with a small ridge on
standardized features (a feature not known for a case, NaN, counts as its
mean); its cutoff is then chosen on the same cases: the lowest at which
trees of two commits and of three each lose at most ``BUDGET`` of their mean
ARI to the gate. Chosen where the mean over k is best instead, the gate
fired on many more tangled trees (docs/experiments/untangling.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from segmint_bench.untangle.features import Sample
from segmint_bench.untangle.logistic import logistic
from segmint_bench.untangle.methods import unit_line_labels
from segmint_bench.untangle.metrics import adjusted_rand_index
from segmint_core.grouping import graph
from segmint_core.grouping.engine import cluster
from segmint_core.grouping.model import Model
from segmint_core.grouping.one_intent import OneIntent, features

RIDGE = 1.0
BUDGET = 0.01  # mean ARI each of k=2 and k=3 may lose on the training cases
CUTOFFS = tuple(round(0.3 + 0.025 * i, 3) for i in range(29))  # 0.3 to 1.0


@dataclass
class Row:
    k: int
    kept: float  # ARI of the engine's groups
    joined: float  # ARI of every unit in one group
    x: list[float] | None  # the features, where the engine made two groups or more


def rows(samples: list[Sample], model: Model) -> list[Row]:
    """One row per case, clustered by ``model`` without its gate."""
    ungated = replace(model, one_intent=None)
    found = []
    for sample in samples:
        labels = cluster(sample.units, sample.links, ungated, sample.files, sample.house)
        truth = [sample.tangle.truth[key] for key in sample.tangle.keys]
        kept = adjusted_rand_index(truth, unit_line_labels(sample, sample.units, labels))
        joined = adjusted_rand_index(truth, [0] * len(truth))
        x = None
        if len(set(labels)) > 1:
            affinity = graph.affinities(sample.links, sample.units, ungated)
            threshold = ungated.threshold(sample.files)
            x = features(sample.units, labels, affinity, threshold, sample.files, sample.house)
        found.append(Row(sample.k, kept, joined, x))
    return found


def fit_one_intent(samples: list[Sample], model: Model) -> OneIntent | None:
    """The gate fit on ``samples`` clustered by ``model``'s pair model, its cutoff chosen on them;
    None where they hold no split tree of one commit, or none of several (nothing to tell apart)."""
    found = rows(samples, model)
    split = [r for r in found if r.x is not None]
    if len({r.k == 1 for r in split}) < 2:
        return None
    x = np.array([r.x for r in split], dtype=float)
    y = np.array([r.k == 1 for r in split], dtype=float)
    known = ~np.isnan(x)
    means = np.where(known, x, 0.0).sum(axis=0) / np.maximum(1, known.sum(axis=0))
    z = np.where(known, x - means, 0.0)  # a feature not known sits at its mean
    scales = z.std(axis=0) + 1e-9
    bias, weights = _newton(z / scales, y)
    gate = OneIntent(tuple(means.tolist()), tuple(scales.tolist()), tuple(weights.tolist()), bias, 1.0)
    p = [gate.probability(r.x) if r.x is not None else 0.0 for r in found]
    return replace(gate, cutoff=lowest_cutoff(found, p))


def lowest_cutoff(found: list[Row], p: list[float]) -> float:
    """The lowest cutoff at which trees of two and of three commits each lose at most ``BUDGET``
    (1.0, the gate never sure enough, where none does)."""
    within = [c for c in CUTOFFS if all(loss(found, p, c, k) <= BUDGET for k in (2, 3))]
    return min(within, default=1.0)


def loss(found: list[Row], p: list[float], cutoff: float, k: int) -> float:
    """The mean ARI the trees of ``k`` commits lose with the gate at ``cutoff`` (0 with none of them)."""
    lost = [row.kept - row.joined for row, prob in zip(found, p) if row.k == k and row.x is not None and prob >= cutoff]
    total = sum(1 for row in found if row.k == k)
    return sum(lost) / total if total else 0.0


def _newton(z: np.ndarray, y: np.ndarray, iterations: int = 100) -> tuple[float, np.ndarray]:
    design = np.c_[np.ones(len(z)), z]
    ridge = RIDGE * np.diag(np.r_[0.0, np.ones(z.shape[1])])
    w = np.zeros(design.shape[1])
    for _ in range(iterations):
        p = logistic(design @ w)
        gradient = design.T @ (p - y) + ridge @ w
        hessian = (design * (p * (1 - p))[:, None]).T @ design + ridge
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return float(w[0]), w[1:]
