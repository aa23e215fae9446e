"""Reliability of the pair model's probabilities, held out: predicted against observed, per decile.

Two tables. *Pairs*: every pair of scored units of a case, its P(same intent)
against whether the commits owning most of their lines are one. *Hunks*: every
block (``review.py``) of the engine's grouping, its confidence (P(it belongs
with its group)) against the share of its group's other scored lines that
come from its commit (alone in its group: one minus that share of the group
it fits best). Pairs and blocks are weighted by changed lines, each case
counting once, as the model is fit; ``n`` counts them. ``fit_calibration``
fits the scalings of both, and of each decision kind, on the cases given.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from segmint_bench.untangle.features import Sample
from segmint_bench.untangle.logistic import logistic
from segmint_core.grouping.confidence import IDENTITY, BlockFit, Calibration, assess, hunk_signals
from segmint_core.grouping.engine import cluster
from segmint_core.grouping.model import Model
from segmint_core.grouping.probability import PairProbabilities, pair_probabilities

BINS = 10
TARGET = 0.10
# A decision kind's probabilities may sit in a narrow band (merges do): without a firm pull
# towards no change, the fit turns them into a step that a small shift flips.
DECISION_L2 = 0.5


@dataclass
class Reliability:
    """Predicted probabilities, outcomes and weights, binned by decile."""

    predicted: list[np.ndarray] = field(default_factory=list)
    observed: list[np.ndarray] = field(default_factory=list)
    weight: list[np.ndarray] = field(default_factory=list)

    def add(self, predicted: Iterable[float], observed: Iterable[float], weight: Iterable[float]) -> None:
        p, o, w = (np.asarray(list(x), dtype=np.float64) for x in (predicted, observed, weight))
        if len(p):
            total = w.sum()
            self.predicted.append(p)
            self.observed.append(o)
            self.weight.append(w / total if total > 0 else w)

    def rows(self) -> list[dict]:
        """Per decile: its range, weighted mean predicted and observed, their difference, count."""
        if not self.predicted:
            return []
        p, o, w = (np.concatenate(x) for x in (self.predicted, self.observed, self.weight))
        decile = np.minimum((p * BINS).astype(np.int64), BINS - 1)
        out = []
        for d in range(BINS):
            inside = decile == d
            total = float(w[inside].sum())
            if not inside.any() or total <= 0:
                continue
            mean_p = float((p[inside] * w[inside]).sum() / total)
            mean_o = float((o[inside] * w[inside]).sum() / total)
            out.append(
                {
                    "low": d / BINS,
                    "high": (d + 1) / BINS,
                    "predicted": mean_p,
                    "observed": mean_o,
                    "difference": mean_o - mean_p,
                    "n": int(inside.sum()),
                    "weight": total,
                }
            )
        return out


def add_case(
    pairs_table: Reliability,
    hunks_table: Reliability,
    sample: Sample,
    model: Model,
    calibration: Calibration | None = None,
) -> None:
    """Score one case's pairs and blocks into the two tables."""
    calibration = calibration or IDENTITY
    z, same, weight = pair_rows(
        sample, calibration.pairs(pair_probabilities(sample.units, sample.links, model, sample.files))
    )
    pairs_table.add(logistic(z), same, weight)
    hunks_table.add(*hunk_rows(sample, model, calibration))


def hunk_rows(sample: Sample, model: Model, calibration: Calibration) -> tuple[list, list, list]:
    """Every block of the engine's grouping of a case: its confidence, the observed share, its weight."""
    rows = block_rows(sample, model, calibration)
    return [f.confidence for f, _, _ in rows], [o for _, o, _ in rows], [w for _, _, w in rows]


def block_rows(sample: Sample, model: Model, calibration: Calibration) -> list[tuple[BlockFit, float, float]]:
    """Every block of the engine's grouping of a case with a scored line: its fit, the share of
    its group's other scored lines from its commit (alone in its group: one minus that share
    of the group it fits best), and its weight (its lines times those)."""
    from segmint_bench.untangle.review import _blocks  # one definition of a block

    owners = sample.owners()
    labels = cluster(sample.units, sample.links, model, sample.files)
    blocks = _blocks(sample, labels)
    pairs = pair_probabilities(sample.units, sample.links, model, sample.files)
    share = _shares(owners, labels, blocks)
    out = []
    for fit in assess(pairs, labels, blocks, calibration).blocks:
        mine = share.get((fit.block, fit.label))
        if mine is None:
            other = share.get((fit.block, fit.alternative)) if fit.alternative is not None else None
            if other is None:
                continue
            mine = (1.0 - other[0], other[1])
        out.append((fit, mine[0], mine[1]))
    return out


def _triu_index(i: int, j: int, n: int) -> int:
    """Position of pair (i, j), i < j, in ``np.triu_indices(n, k=1)`` order."""
    return i * (2 * n - i - 1) // 2 + (j - i - 1)


def _shares(
    owners: list[tuple[int, int] | None], labels: list[int], blocks: list[int]
) -> dict[tuple[int, int], tuple[float, float]]:
    """(block, cluster) -> (line-weighted share of the cluster's other scored lines from the block's
    commits, the weight: block lines x other lines), for every block and cluster holding scored lines."""
    by_block: dict[int, dict[int, float]] = {}
    by_cluster: dict[int, dict[int, float]] = {}
    block_cluster: dict[int, dict[int, dict[int, float]]] = {}
    for unit, owner in enumerate(owners):
        if owner is None:
            continue
        commit, lines = owner
        by_block.setdefault(blocks[unit], {}).setdefault(commit, 0.0)
        by_block[blocks[unit]][commit] += lines
        by_cluster.setdefault(labels[unit], {}).setdefault(commit, 0.0)
        by_cluster[labels[unit]][commit] += lines
    for unit, owner in enumerate(owners):
        if owner is not None:
            block_cluster.setdefault(labels[unit], {}).setdefault(blocks[unit], {})
    out: dict[tuple[int, int], tuple[float, float]] = {}
    for block, mine in by_block.items():
        size = sum(mine.values())
        own_label = next(labels[u] for u, b in enumerate(blocks) if b == block)
        for label, theirs in by_cluster.items():
            others = dict(theirs)
            if label == own_label:
                for commit, lines in mine.items():
                    others[commit] -= lines
            total = sum(others.values())
            if total <= 0:
                continue
            same = sum(lines * others.get(commit, 0.0) for commit, lines in mine.items()) / (size * total)
            out[(block, label)] = (same, size * total)
    return out


def format_reliability(title: str, rows: list[dict]) -> list[str]:
    lines = [title, f"{'P':<10}{'predicted':>10}{'observed':>10}{'diff':>8}{'n':>9}"]
    for r in rows:
        flag = "" if abs(r["difference"]) <= TARGET else "  *"
        lines.append(
            f"{r['low']:.1f}-{r['high']:.1f}   {r['predicted']:>10.3f}{r['observed']:>10.3f}"
            f"{r['difference']:>+8.3f}{r['n']:>9,}{flag}"
        )
    return lines


# -- fitting the calibration ------------------------------------------------------------


def fit_platt(z: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 0.01) -> tuple[float, float]:
    """``a, b`` minimising the weighted log loss of ``sigmoid(a * z + b)`` against ``y``, shrunk towards no change."""
    a, b = fit_logistic(z[:, None], y, w, l2)
    return a, b


def fit_logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 0.01) -> tuple[float, ...]:
    """``a, b, c...`` minimising the weighted log loss of ``sigmoid(a * x0 + b + c . x[1:])`` against
    ``y`` (Newton), shrunk towards ``a = 1`` and the rest 0: no change (``fit_platt`` with signals)."""
    design = np.column_stack([x[:, 0], np.ones(len(x)), x[:, 1:]])
    prior = np.zeros(design.shape[1])
    prior[0] = 1.0
    theta = prior.copy()
    w = w / w.sum() if w.sum() > 0 else w
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ theta, -30, 30)))
        g = design.T @ (w * (p - y)) + l2 * (theta - prior)
        h = design.T @ (design * (w * p * (1 - p))[:, None]) + l2 * np.eye(len(theta))
        step = np.linalg.solve(h, g)
        theta = theta - step
        if np.abs(step).max() < 1e-8:
            break
    return tuple(float(t) for t in theta)


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def pair_rows(sample: Sample, pairs: PairProbabilities) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair of scored units: log-odds, same commit (0/1), line weight (summing to 1 over the case)."""
    owners = sample.owners()
    scored = [i for i, o in enumerate(owners) if o is not None]
    if len(scored) < 2:
        return np.zeros(0), np.zeros(0), np.zeros(0)
    commit = np.array([owners[i][0] for i in scored])
    lines = np.array([float(owners[i][1]) for i in scored])
    a, b = np.triu_indices(len(scored), k=1)
    z = np.full(len(a), pairs.base)
    position = {unit: n for n, unit in enumerate(scored)}
    for (x, y), affinity in pairs.affinity.items():
        if x in position and y in position:
            i, j = sorted((position[x], position[y]))
            z[_triu_index(i, j, len(scored))] = pairs.base + affinity
    w = lines[a] * lines[b]
    return z, (commit[a] == commit[b]).astype(np.float64), w / w.sum()


def fit_calibration(samples: list[Sample], model: Model) -> Calibration:
    """Pair scaling from every pair of the cases, then each decision kind's scaling from
    what the reviewer makes of the decisions of the engine's groupings of them."""
    from segmint_bench.untangle.review import decision_rows

    rows = [pair_rows(s, pair_probabilities(s.units, s.links, model, s.files)) for s in samples if s.k >= 2]
    z, y, w = (np.concatenate([r[i] for r in rows]) for i in range(3))
    pair = fit_platt(z, y, w)
    hunks = fit_hunks([s for s in samples if s.k >= 2], model, Calibration(pair))
    found: dict[str, list[tuple[float, bool]]] = {}
    for sample in samples:
        for kind, p, right in decision_rows(sample, model, Calibration(pair)):
            found.setdefault(kind, []).append((p, right))
    decisions = {}
    for kind, values in sorted(found.items()):
        p = np.clip(np.array([v[0] for v in values]), 1e-6, 1 - 1e-6)
        y = np.array([1.0 if v[1] else 0.0 for v in values])
        decisions[kind] = fit_platt(np.log(p / (1 - p)), y, np.ones(len(p)), l2=DECISION_L2)
    return Calibration(pair, decisions, hunks)


def fit_hunks(samples: list[Sample], model: Model, calibration: Calibration) -> tuple[float, ...]:
    """The scaling of a block's P(belongs with its group) from its confidence and ``hunk_signals``,
    against the observed share; blocks weighted by lines, each case counting once."""
    x, y, w = [], [], []
    for sample in samples:
        rows = block_rows(sample, model, calibration)
        size = Counter(f.label for f, _, _ in rows)
        total = sum(weight for _, _, weight in rows)
        for fit, observed, weight in rows:
            x.append((_logit(fit.confidence), *hunk_signals(fit, size[fit.label])))
            y.append(observed)
            w.append(weight / total)
    if not x:
        return (1.0, 0.0)
    return fit_logistic(np.array(x), np.array(y), np.array(w))
