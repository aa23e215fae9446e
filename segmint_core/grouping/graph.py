"""Clustering over the weighted unit graph: average linkage with a threshold.

A pair's affinity is its log-odds from the model (``model.py``) without the
bias. Groups merge, best first, while the mean affinity over all their unit
pairs, weighted by changed lines (a missing link counts as 0), is at least the
threshold. Averaging keeps one stray link from joining two large groups. Only
linked pairs are ever looked at, so the cost follows the number of links, not
units squared.
"""

from __future__ import annotations

import heapq

import numpy as np

from segmint_core.grouping.model import PILING, Model
from segmint_core.grouping.signals.base import Link
from segmint_core.grouping.units import Unit


def affinities(links: list[Link], units: list[Unit], model: Model) -> dict[tuple[int, int], float]:
    """Each linked pair's log-odds of sharing an intent, without the bias.

    Vectorised: strengths are summed per (pair, kind) with ``np.bincount``,
    since a large change set has 10^5 links.
    """
    if not links:
        return {}
    n = len(units)
    kinds = sorted({item.kind for item in links})
    kind_index = {k: i for i, k in enumerate(kinds)}
    m = len(kinds)
    keys = np.fromiter(((item.a * n + item.b) * m + kind_index[item.kind] for item in links), np.int64, len(links))
    weights = np.fromiter((item.weight for item in links), np.float64, len(links))
    cells, inverse = np.unique(keys, return_inverse=True)
    sums = np.bincount(inverse, weights=weights)
    cell_kind = cells % m
    piling = np.array([k.split(":")[0] in PILING for k in kinds])
    coefficients = np.array([model.coefficient(k) for k in kinds])
    sums = np.where(piling[cell_kind], np.log1p(np.maximum(sums, 0.0)), sums) * coefficients[cell_kind]
    pairs, pair_inverse = np.unique(cells // m, return_inverse=True)
    totals = np.bincount(pair_inverse, weights=sums)
    unit_kinds = [u.flavour for u in units]
    interaction: dict[tuple[str, str], float] = {}
    out: dict[tuple[int, int], float] = {}
    for pair, total in zip(pairs.tolist(), totals.tolist()):
        a, b = divmod(pair, n)
        key = (unit_kinds[a], unit_kinds[b])
        bonus = interaction.get(key)
        if bonus is None:
            bonus = interaction[key] = model.coefficient(pair_kind(*key))
        out[(a, b)] = total + bonus
    return out


def pair_kind(a: str, b: str) -> str:
    """The interaction feature of two linked units' file kinds (``kinds:code+test``)."""
    return f"kinds:{a}+{b}" if a <= b else f"kinds:{b}+{a}"


def average_linkage(n: int, affinity: dict[tuple[int, int], float], threshold: float,
                    weights: list[float] | None = None) -> list[int]:
    """A cluster label per unit: the smallest unit index in its cluster.

    ``weights`` (default 1 each) make a pair count ``w_a * w_b`` times, the
    way a score over changed lines counts a pair of big hunks more than two
    small ones. Merging goes best first while the weighted mean affinity
    between two clusters is at least ``threshold``.
    """
    size = list(weights) if weights is not None else [1.0] * n
    neighbours: list[dict[int, float]] = [{} for _ in range(n)]
    heap = []
    for (a, b), value in affinity.items():
        neighbours[a][b] = neighbours[b][a] = value * size[a] * size[b]
        if value >= threshold:
            heap.append((-value, a, b, 0, 0))
    heapq.heapify(heap)
    version = [0] * n
    alive = [True] * n
    members: list[list[int]] = [[i] for i in range(n)]
    while heap:
        _, a, b, va, vb = heapq.heappop(heap)
        if not (alive[a] and alive[b]) or version[a] != va or version[b] != vb:
            continue  # stale: one side has merged since this entry was pushed
        _merge(a, b, neighbours, size, alive, version, members)
        for other, total in neighbours[a].items():
            value = total / (size[a] * size[other])
            if value >= threshold:
                x, y = (a, other) if a < other else (other, a)
                heapq.heappush(heap, (-value, x, y, version[x], version[y]))
    labels = [0] * n
    for root in range(n):
        if alive[root]:
            for unit in members[root]:
                labels[unit] = root
    return labels


def _merge(a: int, b: int, neighbours: list[dict[int, float]], size: list[float], alive: list[bool],
           version: list[int], members: list[list[int]]) -> None:
    """Fold cluster ``b`` into ``a`` (a < b), summing their links to everyone else."""
    into, gone = neighbours[a], neighbours[b]
    gone.pop(a, None)
    into.pop(b, None)
    for other, total in gone.items():
        merged = into.get(other, 0.0) + total
        into[other] = merged
        theirs = neighbours[other]
        theirs.pop(b, None)
        theirs[a] = merged
    gone.clear()
    size[a] += size[b]
    members[a].extend(members[b])
    members[b] = []
    alive[b] = False
    version[a] += 1
