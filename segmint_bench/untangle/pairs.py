"""Training rows of the pair model, and its fit: a logistic regression, sparse.

Every pair of units in a case is a row: its features are the link strengths
per kind (``log1p`` for kinds that pile up) and the kinds of the two files
when linked, plus the case's size prior; the label is whether the commits
owning most of their lines are the same; the weight is the product of their
scored lines, normalised so each case counts once. Pairs with no link differ
only in the size prior, so they are summed into two rows per case.

Rows are kept sparse (a row has a handful of features), so a Newton step over
a few hundred thousand rows costs a few ``bincount``s, and a leave-one-out run
refits seven times in seconds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from segmint_bench.untangle.features import Sample
from segmint_bench.untangle.logistic import logistic
from segmint_core.grouping import graph
from segmint_core.grouping.model import Model
from segmint_core.grouping.pair_evidence import pair_evidence
from segmint_core.grouping.signals.release import ENTRY, RELEASE

SIZE = "size_prior"


@dataclass
class PairRows:
    """One case's rows: the non-zero features as (row, name, value), labels and weights."""

    names: list[str]  # this case's feature names; ``column`` indexes them
    row: np.ndarray
    column: np.ndarray
    value: np.ndarray
    same: np.ndarray  # 1.0 when both units belong to one commit
    weight: np.ndarray  # sums to 1 over the case


def pair_rows(sample: Sample, model: Model) -> PairRows:
    units = sample.units
    n = len(units)
    owners = sample.owners()
    commit = np.array([o[0] if o else -1 for o in owners], dtype=np.int64)
    lines = np.array([o[1] if o else 0 for o in owners], dtype=np.float64)
    size = float(np.log(min(max(sample.files, 1), model.size_prior_cap)))
    names: list[str] = [SIZE]
    index: dict[str, int] = {SIZE: 0}
    rows_r: list[np.ndarray] = []
    rows_c: list[np.ndarray] = []
    rows_v: list[np.ndarray] = []

    def name_id(name: str) -> int:
        if name not in index:
            index[name] = len(names)
            names.append(name)
        return index[name]

    # A release's links only force its two sides together (``release.together``): no weight to learn.
    usable = [x for x in sample.links if commit[x.a] >= 0 and commit[x.b] >= 0 and x.kind not in (RELEASE, ENTRY)]
    if usable:
        evidence = pair_evidence(usable, n)
        kind_id = np.array([name_id(k) for k in evidence.kinds])
        a, b = evidence.a, evidence.b
        flavour = [units[i].flavour for i in range(n)]
        interaction = np.array(
            [name_id(graph.pair_kind(flavour[x], flavour[y])) for x, y in zip(a.tolist(), b.tolist())]
        )
        rows_r += [evidence.cell_pair, np.arange(len(a)), np.arange(len(a))]
        rows_c += [kind_id[evidence.cell_kind], interaction, np.zeros(len(a), dtype=np.int64)]
        rows_v += [evidence.strength, np.ones(len(a)), np.full(len(a), size)]
        same = (commit[a] == commit[b]).astype(np.float64)
        weight = lines[a] * lines[b]
    else:
        same = weight = np.zeros(0)
    extra = unlinked(commit, lines, same, weight)
    start = len(same)
    for offset, _ in enumerate(extra):
        rows_r.append(np.array([start + offset]))
        rows_c.append(np.array([0]))
        rows_v.append(np.array([size]))
    same = np.concatenate([same, [float(label) for label, _ in extra]])
    weight = np.concatenate([weight, [w for _, w in extra]])
    total = weight.sum() or 1.0
    cat = (
        (lambda parts, dtype: np.concatenate(parts).astype(dtype))
        if rows_r
        else (lambda parts, dtype: np.zeros(0, dtype))
    )
    return PairRows(names, cat(rows_r, np.int64), cat(rows_c, np.int64), cat(rows_v, np.float64), same, weight / total)


def unlinked(commit: np.ndarray, lines: np.ndarray, same: np.ndarray, weight: np.ndarray) -> list[tuple[float, float]]:
    """The unlinked pairs' rows, (label, weight): all pairs of scored units (``commit`` -1 for
    none) weighted by their lines, less the linked ones (``same``, ``weight``), by label."""
    scored = commit >= 0
    per_commit = np.bincount(commit[scored], weights=lines[scored]) if scored.any() else np.zeros(0)
    squares = float((lines**2).sum())
    all_pairs = (lines.sum() ** 2 - squares) / 2
    same_pairs = (float((per_commit**2).sum()) - squares) / 2
    rest = [all_pairs - same_pairs - float(weight[same == 0].sum()), same_pairs - float(weight[same == 1].sum())]
    return [(float(label), w) for label, w in enumerate(rest) if w > 1e-9]


@dataclass
class Design:
    """Rows of many cases in one sparse matrix over a shared vocabulary of features."""

    names: list[str]
    row: np.ndarray
    column: np.ndarray
    value: np.ndarray
    same: np.ndarray
    weight: np.ndarray

    @classmethod
    def stack(cls, parts: Iterable[PairRows]) -> "Design":
        index: dict[str, int] = {}
        rows, columns, values, same, weight = [], [], [], [], []
        offset = 0
        for part in parts:
            local = np.array([index.setdefault(name, len(index)) for name in part.names], dtype=np.int64)
            rows.append(part.row + offset)
            columns.append(local[part.column] if len(part.column) else part.column)
            values.append(part.value)
            same.append(part.same)
            weight.append(part.weight)
            offset += len(part.same)
        ordered = sorted(index, key=index.get)
        if not rows:
            empty = np.zeros(0)
            return cls(ordered, empty.astype(np.int64), empty.astype(np.int64), empty, empty, empty)
        return cls(
            ordered,
            np.concatenate(rows),
            np.concatenate(columns),
            np.concatenate(values),
            np.concatenate(same),
            np.concatenate(weight),
        )


def fit_logistic(design: Design, free: np.ndarray, l2: float = 0.01, iterations: int = 100) -> tuple[np.ndarray, float]:
    """Coefficients (one per name) and the intercept: weighted L2 logistic regression
    by Newton's method, coefficients not ``free`` held at zero or above."""
    m = len(design.names)
    rows, cols, vals = design.row, design.column, design.value
    n = len(design.same)
    # Each row's non-zero pairs, for the Hessian: built once.
    order = np.argsort(rows, kind="stable")
    rows, cols, vals = rows[order], cols[order], vals[order]
    starts = np.searchsorted(rows, np.arange(n + 1))
    counts = np.diff(starts)
    pair_row, pair_cell, pair_value = _row_products(rows, cols, vals, starts, counts, m + 1)
    beta = np.zeros(m)
    bias = 0.0
    reg = np.full(m, l2)
    for _ in range(iterations):
        score = np.bincount(rows, weights=beta[cols] * vals, minlength=n) + bias
        p = logistic(score)
        residual = design.weight * (p - design.same)
        curvature = design.weight * p * (1.0 - p)
        gradient = np.append(np.bincount(cols, weights=residual[rows] * vals, minlength=m) + reg * beta, residual.sum())
        hessian = np.bincount(pair_cell, weights=curvature[pair_row] * pair_value, minlength=(m + 1) ** 2).reshape(
            m + 1, m + 1
        )
        hessian += np.diag(np.append(reg, 0.0)) + 1e-9 * np.eye(m + 1)
        step = np.linalg.solve(hessian, gradient)
        before = np.append(beta, bias)
        beta = beta - step[:m]
        bias -= step[m]
        beta[(~free) & (beta < 0)] = 0.0
        if np.abs(np.append(beta, bias) - before).max() < 1e-6:  # a coefficient held at zero moves no more
            break
    return beta, bias


def _row_products(
    rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, starts: np.ndarray, counts: np.ndarray, width: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every row, every pair of its features (the intercept, column ``width - 1``,
    included): (row, cell of the Hessian, product of the values)."""
    n = len(counts)
    cols = np.append(cols, np.full(n, width - 1))
    vals = np.append(vals, np.ones(n))
    rows = np.append(rows, np.arange(n))
    order = np.argsort(rows, kind="stable")
    rows, cols, vals = rows[order], cols[order], vals[order]
    counts = counts + 1
    starts = np.concatenate([[0], np.cumsum(counts)])
    out_r, out_c, out_v = [], [], []
    for size in np.unique(counts).tolist():
        members = np.nonzero(counts == size)[0]
        base = starts[members]
        for i in range(size):
            for j in range(size):
                out_r.append(members)
                out_c.append(cols[base + i] * width + cols[base + j])
                out_v.append(vals[base + i] * vals[base + j])
    return np.concatenate(out_r), np.concatenate(out_c), np.concatenate(out_v)
