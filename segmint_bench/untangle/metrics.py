"""Partition agreement scores: Rand index, adjusted Rand index, matched accuracy.

Each takes two label sequences of equal length (one label per item, any
hashable values). ``adjusted_rand_index`` is the public helper other tests
import to compare groupings (e.g. with and without the edit timeline).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Scores:
    accuracy: float
    rand: float
    ari: float
    exact: bool


def score(truth: Sequence[Hashable], predicted: Sequence[Hashable]) -> Scores:
    table = contingency(truth, predicted)
    return Scores(
        accuracy=_matched_accuracy(table),
        rand=_rand(table),
        ari=_ari(table),
        exact=_exact(table),
    )


def adjusted_rand_index(truth: Sequence[Hashable], predicted: Sequence[Hashable]) -> float:
    """Hubert and Arabie's ARI: 1 for identical partitions, about 0 for chance."""
    return _ari(contingency(truth, predicted))


def rand_index(truth: Sequence[Hashable], predicted: Sequence[Hashable]) -> float:
    return _rand(contingency(truth, predicted))


def matched_accuracy(truth: Sequence[Hashable], predicted: Sequence[Hashable]) -> float:
    """Share of items whose predicted group is matched (one to one, Hungarian) to their true one."""
    return _matched_accuracy(contingency(truth, predicted))


def contingency(truth: Sequence[Hashable], predicted: Sequence[Hashable]) -> np.ndarray:
    if len(truth) != len(predicted):
        raise ValueError("truth and predicted must label the same items")
    rows = {t: n for n, t in enumerate(dict.fromkeys(truth))}
    cols = {p: n for n, p in enumerate(dict.fromkeys(predicted))}
    table = np.zeros((len(rows), len(cols)), dtype=np.int64)
    for t, p in zip(truth, predicted):
        table[rows[t], cols[p]] += 1
    return table


def _pairs(x: np.ndarray | int) -> np.ndarray | int:
    return x * (x - 1) // 2


def _rand(table: np.ndarray) -> float:
    n = int(table.sum())
    if n < 2:
        return 1.0
    both = int(_pairs(table).sum())
    rows = int(_pairs(table.sum(axis=1)).sum())
    cols = int(_pairs(table.sum(axis=0)).sum())
    return 1.0 + (2 * both - rows - cols) / _pairs(n)


def _ari(table: np.ndarray) -> float:
    n = int(table.sum())
    if n < 2:
        return 1.0
    both = float(_pairs(table).sum())
    rows = float(_pairs(table.sum(axis=1)).sum())
    cols = float(_pairs(table.sum(axis=0)).sum())
    expected = rows * cols / _pairs(n)
    maximum = (rows + cols) / 2
    if maximum == expected:  # both partitions trivial (one group, or all singletons)
        return 1.0 if _exact(table) else 0.0
    return (both - expected) / (maximum - expected)


def _exact(table: np.ndarray) -> bool:
    """The same partition: every row and every column has one non-zero cell."""
    nonzero = table > 0
    return bool((nonzero.sum(axis=0) == 1).all() and (nonzero.sum(axis=1) == 1).all())


def _matched_accuracy(table: np.ndarray) -> float:
    n = int(table.sum())
    if n == 0:
        return 1.0
    weights = table if table.shape[0] <= table.shape[1] else table.T
    columns = max_weight_matching(weights)
    return sum(int(weights[r, c]) for r, c in enumerate(columns)) / n


def max_weight_matching(weights: np.ndarray) -> list[int]:
    """Hungarian algorithm (rows <= columns): the column matched to each row,
    maximising the total weight. O(rows^2 * columns), plain Python; the
    tables here are a handful of rows."""
    rows, cols = weights.shape
    cost = (-weights).tolist()
    inf = float("inf")
    u = [0.0] * (rows + 1)
    v = [0.0] * (cols + 1)
    match = [0] * (cols + 1)  # match[j]: row (1-based) matched to column j
    way = [0] * (cols + 1)
    for i in range(1, rows + 1):
        match[0] = i
        j0 = 0
        minv = [inf] * (cols + 1)
        used = [False] * (cols + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = match[j0], inf, 0
            for j in range(1, cols + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(cols + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if match[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
    result = [0] * rows
    for j in range(1, cols + 1):
        if match[j]:
            result[match[j] - 1] = j - 1
    return result
