"""The pair model's trees (``grouping/boosted.py``), fit on what the linear model gets wrong.

Rows are those of the linear fit (``pairs.py``): every linked pair of units
in a case of two or more commits, labelled by whether the commits owning
most of their lines are the same, weighted by the product of their scored
lines so each case counts once; the unlinked pairs of a case are summed
into two rows with no feature. Each row starts at the linear model's
log-odds; every round adds an oblivious tree fit by one Newton step on the
logistic loss (gradient and curvature summed per leaf, ``l2`` added to the
curvature), shrunk by ``rate``.

Splits are searched over a few quantiles of each feature's non-zero values
(and 0), with histograms that visit only the non-zero cells: a row has a
handful of them. At each depth the feature and threshold that gain most,
summed over the nodes of that depth, split every node; a node's split whose
side would hold less than ``min_leaf`` cases' weight gains nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import argparse

import numpy as np

from segmint_bench.untangle.features import Sample
from segmint_bench.untangle.logistic import logistic
from segmint_bench.untangle.pairs import unlinked
from segmint_core.errors import SegmintError
from segmint_core.grouping import graph
from segmint_bench.models.boosted import LINK, SHAPE, Trees, feature_matrix
from segmint_core.grouping.model import Model
from segmint_core.grouping.pair_evidence import PairEvidence, pair_evidence

NEVER = float(np.finfo(np.float64).max)  # a threshold no value passes


@dataclass(frozen=True)
class Boosting:
    """How the trees are fit."""

    trees: int = 100
    depth: int = 3
    rate: float = 0.1
    cuts: int = 15  # quantile thresholds per feature
    min_leaf: float = 5.0  # cases' weight (each case weighs 1) on each side of a split
    l2: float = 1.0


@dataclass
class CaseRows:
    """One case's rows for the trees, and what the linear model's log-odds of them need."""

    names: list[str]
    matrix: np.ndarray  # linked pairs, then the unlinked rows (all 0)
    same: np.ndarray
    weight: np.ndarray  # sums to 1 over the case
    evidence: PairEvidence  # of the linked rows
    pair_kinds: list[str]  # of the linked rows (``kinds:code+test``)
    size: float  # ln(min(files, cap))


def add_boosting_options(p: argparse.ArgumentParser, default: Boosting | None, what: str) -> None:
    shipped = f"default {default.trees}" if default else "default 0: none"
    p.add_argument(
        "--trees",
        type=int,
        metavar="N",
        default=default.trees if default else 0,
        help=f"{what} N boosted trees after the linear pair model ({shipped})",
    )
    p.add_argument(
        "--depth",
        type=int,
        default=(default or Boosting()).depth,
        metavar="D",
        help="with --trees: the depth of each tree (default %(default)s)",
    )
    p.add_argument(
        "--rate",
        type=float,
        default=(default or Boosting()).rate,
        metavar="R",
        help="with --trees: the shrinkage of each tree (default %(default)s)",
    )


def boosting_option(args: argparse.Namespace) -> Boosting | None:
    """The trees the options ask for (None: none)."""
    if args.trees < 0 or not 1 <= args.depth <= 8 or not 0.0 < args.rate <= 1.0:
        raise SegmintError("--trees takes 0 or more, --depth 1 to 8, --rate a shrinkage above 0 and at most 1")
    return Boosting(trees=args.trees, depth=args.depth, rate=args.rate) if args.trees else None


def case_rows(sample: Sample, model: Model) -> CaseRows:
    """The case's rows (``model`` gives only the size cap); cached in the sample's memo."""
    if "tree_rows" not in sample.memo:
        sample.memo["tree_rows"] = _case_rows(sample, model)
    return sample.memo["tree_rows"]


def _case_rows(sample: Sample, model: Model) -> CaseRows:
    units = sample.units
    owners = sample.owners()
    commit = np.array([o[0] if o else -1 for o in owners], dtype=np.int64)
    lines = np.array([o[1] if o else 0 for o in owners], dtype=np.float64)
    usable = [x for x in sample.links if commit[x.a] >= 0 and commit[x.b] >= 0]
    evidence = pair_evidence(usable, len(units))
    names = [LINK + k for k in evidence.kinds] + list(SHAPE)
    matrix = feature_matrix(evidence, units, names)
    a, b = evidence.a, evidence.b
    same = (commit[a] == commit[b]).astype(np.float64)
    weight = lines[a] * lines[b]
    extra = unlinked(commit, lines, same, weight)
    matrix = np.vstack([matrix, np.zeros((len(extra), len(names)))])
    same = np.concatenate([same, [label for label, _ in extra]])
    weight = np.concatenate([weight, [w for _, w in extra]])
    flavour = [u.flavour for u in units]
    kinds = [graph.pair_kind(flavour[x], flavour[y]) for x, y in zip(a.tolist(), b.tolist())]
    size = float(np.log(min(max(sample.files, 1), model.size_prior_cap)))
    return CaseRows(names, matrix, same, weight / (weight.sum() or 1.0), evidence, kinds, size)


def linear_log_odds(rows: CaseRows, model: Model) -> np.ndarray:
    """The linear model's log-odds of each row."""
    evidence = rows.evidence
    coefficients = np.array([model.coefficient(k) for k in evidence.kinds])
    linked = np.bincount(
        evidence.cell_pair, weights=evidence.strength * coefficients[evidence.cell_kind], minlength=len(evidence.a)
    )
    linked = linked + np.array([model.coefficient(k) for k in rows.pair_kinds])
    base = model.bias + model.size_prior * rows.size
    return base + np.concatenate([linked, np.zeros(len(rows.same) - len(linked))])


def fit_trees(samples: Iterable[Sample], model: Model, boosting: Boosting) -> Trees:
    """Trees that correct ``model``'s log-odds on these cases (two or more commits each)."""
    parts = [case_rows(s, model) for s in samples]
    names = sorted({n for p in parts for n in p.names})
    column = {n: i for i, n in enumerate(names)}
    matrix = np.vstack([_aligned(p, column) for p in parts])
    same = np.concatenate([p.same for p in parts])
    weight = np.concatenate([p.weight for p in parts])
    offset = np.concatenate([linear_log_odds(p, model) for p in parts])
    return fit_rows(names, matrix, same, weight, offset, boosting)


def fit_rows(
    names: list[str], matrix: np.ndarray, same: np.ndarray, weight: np.ndarray, offset: np.ndarray, boosting: Boosting
) -> Trees:
    """Trees over the columns ``names`` of ``matrix`` that correct the log-odds ``offset`` towards ``same``."""
    return _exported(names, *_grow(matrix, same, weight, offset, boosting))


def _aligned(rows: CaseRows, column: dict[str, int]) -> np.ndarray:
    out = np.zeros((len(rows.matrix), len(column)))
    out[:, [column[n] for n in rows.names]] = rows.matrix
    return out


@dataclass
class _Binned:
    """The non-zero cells by (row, feature, bin); a feature's bin ``j`` holds values up to ``cuts[f][j]``."""

    cuts: list[np.ndarray]
    row: np.ndarray
    feature: np.ndarray
    code: np.ndarray
    zero_code: np.ndarray  # per feature: the bin of 0
    bins: int


def _binned(matrix: np.ndarray, cuts: int) -> _Binned:
    thresholds: list[np.ndarray] = []
    for f in range(matrix.shape[1]):
        values = matrix[:, f][matrix[:, f] != 0]
        found = (
            np.unique(np.concatenate([[0.0], np.quantile(values, np.linspace(0, 1, cuts + 1)[:-1])]))
            if len(values)
            else np.zeros(1)
        )
        thresholds.append(found[found < (values.max() if len(values) else 0.0)])
    row, feature = np.nonzero(matrix)
    code = np.zeros(len(row), dtype=np.int64)
    for f in range(matrix.shape[1]):
        at = feature == f
        code[at] = np.searchsorted(thresholds[f], matrix[row[at], f], side="left")
    zero_code = np.array([np.searchsorted(t, 0.0, side="left") for t in thresholds], dtype=np.int64)
    bins = max(len(t) for t in thresholds) + 1
    return _Binned(thresholds, row, feature, code, zero_code, bins)


def _grow(
    matrix: np.ndarray, same: np.ndarray, weight: np.ndarray, offset: np.ndarray, boosting: Boosting
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    binned = _binned(matrix, boosting.cuts)
    n, m = matrix.shape
    depth = boosting.depth
    score = np.zeros(n)
    features = np.zeros((boosting.trees, depth), dtype=np.int64)
    thresholds = np.zeros((boosting.trees, depth))
    values = np.zeros((boosting.trees, 2**depth))
    for t in range(boosting.trees):
        p = logistic(offset + score)
        gradient, curvature = weight * (p - same), weight * p * (1.0 - p)
        leaf = np.zeros(n, dtype=np.int64)
        for d in range(depth):
            f, j = _best_split(binned, leaf, 2**d, gradient, curvature, weight, boosting)
            if j >= 0:
                threshold = binned.cuts[f][j]
            elif d:  # nothing gains: repeat the last test, which splits nothing more
                f, threshold = features[t, d - 1], thresholds[t, d - 1]
            else:
                f, threshold = 0, NEVER
            features[t, d], thresholds[t, d] = f, threshold
            leaf += (matrix[:, f] > threshold).astype(np.int64) << d
        g = np.bincount(leaf, weights=gradient, minlength=2**depth)
        h = np.bincount(leaf, weights=curvature, minlength=2**depth)
        values[t] = -boosting.rate * g / (h + boosting.l2)
        score += values[t][leaf]
    return features, thresholds, values


def _best_split(
    binned: _Binned,
    node: np.ndarray,
    nodes: int,
    gradient: np.ndarray,
    curvature: np.ndarray,
    weight: np.ndarray,
    boosting: Boosting,
) -> tuple[int, int]:
    """The (feature, bin) whose threshold gains most over all nodes; bin -1 when none gains."""
    m, bins = len(binned.cuts), binned.bins
    key = (node[binned.row] * m + binned.feature) * bins + binned.code
    size = nodes * m * bins
    sums = []
    for values in (gradient, curvature, weight):
        hist = np.bincount(key, weights=values[binned.row], minlength=size).reshape(nodes, m, bins)
        total = np.bincount(node, weights=values, minlength=nodes)
        # Cells not stored are 0: what the node holds beyond its non-zero cells sits in 0's bin.
        rest = total[:, None] - hist.sum(axis=2)
        hist[:, np.arange(m), binned.zero_code] += rest
        sums.append((np.cumsum(hist, axis=2), total))
    (g_left, g), (h_left, h), (w_left, w) = sums
    lam = boosting.l2
    g_right, h_right, w_right = g[:, None, None] - g_left, h[:, None, None] - h_left, w[:, None, None] - w_left
    gain = g_left**2 / (h_left + lam) + g_right**2 / (h_right + lam) - (g**2 / (h + lam))[:, None, None]
    gain = np.where((w_left >= boosting.min_leaf) & (w_right >= boosting.min_leaf), gain, 0.0).sum(axis=0)
    valid = np.arange(bins)[None, :] < np.array([len(c) for c in binned.cuts])[:, None]
    gain = np.where(valid, gain, -np.inf)
    best = int(np.argmax(gain))
    if not gain.flat[best] > 1e-12:
        return 0, -1
    return best // bins, best % bins


def _exported(names: list[str], features: np.ndarray, thresholds: np.ndarray, values: np.ndarray) -> Trees:
    """The trees over only the features they test, with their sum at the all-zero row."""
    used = sorted(set(features.ravel().tolist()))
    remap = {f: i for i, f in enumerate(used)}
    kept = [names[f] for f in used]
    local = np.vectorize(remap.get, otypes=[np.int64])(features) if features.size else features
    trees = Trees(kept, local, thresholds, values, 0.0)
    zero = float(trees.score(np.zeros((1, len(kept))))[0])
    return Trees(kept, local, thresholds, values, zero)
