"""Fitting the one-intent gate (``segmint_core/grouping/one_intent.py``) on the benchmark's cases.

Each case is clustered by the pair model given, without a gate; the trees it
leaves in two groups or more are the rows, labelled by whether they hold one
commit. The logistic model is fit by Newton's method with a small ridge on
standardized features; its cutoff is then chosen on the same cases, where
the mean over k of each k's mean ARI (single commits: kept whole or not) is
best, ties to the higher cutoff (the gate firing less).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
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
        labels = cluster(sample.units, sample.links, ungated, sample.files)
        truth = [sample.tangle.truth[key] for key in sample.tangle.keys]
        kept = adjusted_rand_index(truth, unit_line_labels(sample, sample.units, labels))
        joined = adjusted_rand_index(truth, [0] * len(truth))
        x = None
        if len(set(labels)) > 1:
            affinity = graph.affinities(sample.links, sample.units, ungated)
            x = features(sample.units, labels, affinity, ungated.threshold(sample.files), sample.files)
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
    means, scales = x.mean(axis=0), x.std(axis=0) + 1e-9
    bias, weights = _newton((x - means) / scales, y)
    gate = OneIntent(tuple(means.tolist()), tuple(scales.tolist()), tuple(weights.tolist()), bias, 1.0)
    p = [gate.probability(r.x) if r.x is not None else 0.0 for r in found]
    cutoff = max(CUTOFFS, key=lambda c: (objective(found, p, c), c))
    return replace(gate, cutoff=cutoff)


def objective(found: list[Row], p: list[float], cutoff: float) -> float:
    """The mean over k of the mean ARI with the gate at ``cutoff``."""
    per_k: dict[int, list[float]] = defaultdict(list)
    for row, prob in zip(found, p):
        per_k[row.k].append(row.joined if row.x is not None and prob >= cutoff else row.kept)
    return statistics.fmean(statistics.fmean(v) for v in per_k.values())


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
