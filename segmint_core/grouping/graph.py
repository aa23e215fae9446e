"""Clustering over the weighted unit graph: average linkage with a threshold.

A pair's affinity is its log-odds from the model (``model.py``) without the
bias. Groups merge, best first, while the mean affinity over all their unit
pairs, weighted by changed lines (a missing link counts as 0), is at least the
threshold. Averaging keeps one stray link from joining two large groups. Only
linked pairs are ever looked at, so the cost follows the number of links, not
units squared.
"""

from __future__ import annotations

from collections.abc import Sequence

import heapq
import math
from typing import TypeGuard

import numpy as np

from segmint_core.grouping.model import Model
from segmint_core.grouping.pair_evidence import pair_evidence
from segmint_core.grouping.signals import dependencies, release
from segmint_core.grouping.links import Link
from segmint_core.grouping.signals.repeated import REPEATED
from segmint_core.grouping.units import Unit
from segmint_core.grouping.unions import unions


def affinities(links: list[Link], units: list[Unit], model: Model) -> dict[tuple[int, int], float]:
    """Each linked pair's log-odds of sharing an intent, without the bias.

    Vectorised: strengths are summed per (pair, kind) with ``np.bincount``,
    since a large change set has 10^5 links.
    """
    if not links:
        return {}
    evidence = pair_evidence(links, len(units))
    coefficients = np.array([model.coefficient(k) for k in evidence.kinds])
    totals = np.bincount(
        evidence.cell_pair, weights=evidence.strength * coefficients[evidence.cell_kind], minlength=len(evidence.a)
    )
    if model.trees is not None:
        totals = totals + model.trees.lift(evidence, units)
    flavours = sorted({u.flavour for u in units})
    flavour = np.array([flavours.index(u.flavour) for u in units], dtype=np.int64)
    # the interaction of the two units' file kinds, per pair of flavours
    bonus = np.array([[model.coefficient(pair_kind(x, y)) for y in flavours] for x in flavours])
    totals = totals + bonus[flavour[evidence.a], flavour[evidence.b]]
    return dict(zip(zip(evidence.a.tolist(), evidence.b.tolist()), totals.tolist()))


def pair_kind(a: str, b: str) -> str:
    """The interaction feature of two linked units' file kinds (``kinds:code+test``)."""
    return f"kinds:{a}+{b}" if a <= b else f"kinds:{b}+{a}"


def average_linkage(
    n: int,
    affinity: dict[tuple[int, int], float],
    threshold: float,
    weights: list[float] | None = None,
    together: Sequence[tuple[int, int]] = (),
) -> list[int]:
    """A cluster label per unit: the smallest unit index in its cluster.

    ``weights`` (default 1 each) make a pair count ``w_a * w_b`` times, the
    way a score over changed lines counts a pair of big hunks more than two
    small ones. The pairs in ``together`` start in one cluster. Merging goes
    best first (ties: the lowest pair of indices) while the weighted mean
    affinity between two clusters is at least ``threshold``.
    """
    linkage = _Linkage(n, affinity, threshold, weights)
    linkage.join(together)
    return linkage.run()


def dendrogram(
    n: int,
    affinity: dict[tuple[int, int], float],
    weights: list[float] | None = None,
    together: Sequence[tuple[int, int]] = (),
) -> list[Pair]:
    """Every merge average linkage makes with no threshold, in order, after joining
    ``together``: ``(-mean affinity, kept cluster, folded cluster)``, as ``average_linkage``
    would make them at any threshold above that mean."""
    linkage = _Linkage(n, affinity, -math.inf, weights)
    linkage.join(together)
    linkage.run()
    return linkage.merges


_FORCING = frozenset({REPEATED, dependencies.DEPENDENCIES, release.RELEASE, release.ENTRY})  # kinds read below


def forced_pairs(links: list[Link]) -> list[tuple[int, int]]:
    """Pairs of units that start in one group whatever their affinity: one mechanical edit,
    a manifest with its lock file, a release's changelog block with the version it sets,
    a dependency's changelog entry with its bump."""
    forcing = [item for item in links if item.kind in _FORCING]  # one pass over 10^5 links, not three
    return mechanical_pairs(forcing) + dependencies.together(forcing) + release.together(forcing)


def mechanical_pairs(links: list[Link], min_places: int = 4) -> list[tuple[int, int]]:
    """Pairs of units that make one substitution (``old -> new``) found in at least
    ``min_places`` units: one mechanical edit, however far apart its places are.

    Average linkage alone would split it: its places link in a chain, so the
    mean over all their pairs falls as the edit spreads.
    """
    places: dict[str, set[int]] = {}
    for item in links:
        if item.kind == REPEATED and " -> " in item.detail:
            places.setdefault(item.detail, set()).update((item.a, item.b))
    pairs: list[tuple[int, int]] = []
    for _, units in sorted(places.items()):
        if len(units) >= min_places:
            first, *rest = sorted(units)
            pairs.extend((first, other) for other in rest)
    return pairs


Pair = tuple[float, int, int]  # (-mean affinity, lower cluster, higher cluster): smallest is best


class _Linkage:
    """Average linkage over a sparse graph, with one heap entry per cluster: its best pair.

    Keeping each cluster's best pair (instead of every linked pair) means a
    merge re-pushes only the clusters whose best changed, not every neighbour
    of the merged cluster; on 3,000 hunks that halves the time. A cluster's
    best pair is the same whenever and however it is found (the smallest
    ``(-mean, lower, higher)``, each mean by one expression), so the forced
    pairs are joined first and the best pairs looked for once afterwards.
    """

    def __init__(
        self, n: int, affinity: dict[tuple[int, int], float], threshold: float, weights: list[float] | None
    ) -> None:
        self.size = list(weights) if weights is not None else [1.0] * n
        self.threshold = threshold
        self.neighbours: list[dict[int, float]] = [{} for _ in range(n)]  # summed weighted affinity
        neighbours, size = self.neighbours, self.size
        for (a, b), value in affinity.items():
            neighbours[a][b] = neighbours[b][a] = value * size[a] * size[b]
        self.alive = [True] * n
        self.members: list[list[int]] = [[i] for i in range(n)]
        self.version = [0] * n
        self.merges: list[Pair] = []  # as run() makes them
        self.best: list[Pair | None] = [None] * n
        self.partner = [-1] * n  # the other cluster of each one's best pair
        self.heap: list[tuple[Pair, int, int]] = []
        self._start()

    def _start(self) -> None:
        self.best = [self._best_of(c) if alive else None for c, alive in enumerate(self.alive)]
        self.partner = [
            -1 if pair is None else pair[2] if pair[1] == c else pair[1] for c, pair in enumerate(self.best)
        ]
        self.heap = [(pair, c, self.version[c]) for c, pair in enumerate(self.best) if self._wanted(pair)]
        heapq.heapify(self.heap)

    def join(self, pairs: Sequence[tuple[int, int]]) -> None:
        """Put each pair's units in one cluster, whatever their affinity."""
        if not pairs:
            return
        for keep, gone in unions(len(self.members), pairs):
            self._fold(keep, gone)
        self._start()

    def run(self) -> list[int]:
        while self.heap:
            pair, c, seen = heapq.heappop(self.heap)
            if self.alive[c] and self.version[c] == seen:
                self.merges.append(pair)
                self._merge(pair[1], pair[2])
        labels = [0] * len(self.members)
        for root, members in enumerate(self.members):
            for unit in members:
                labels[unit] = root
        return labels

    def _fold(self, a: int, b: int) -> None:
        """Fold cluster ``b`` into ``a`` (a < b): their links, sizes and members."""
        neighbours = self.neighbours
        into, gone = neighbours[a], neighbours[b]
        gone.pop(a, None)
        into.pop(b, None)
        for other, total in gone.items():
            merged = into.get(other, 0.0) + total
            into[other] = merged
            theirs = neighbours[other]
            del theirs[b]
            theirs[a] = merged
        gone.clear()
        self.size[a] += self.size[b]
        self.members[a].extend(self.members[b])
        self.members[b] = []
        self.alive[b] = False
        self.best[b] = None
        self.partner[b] = -1

    def _merge(self, a: int, b: int) -> None:
        """Fold cluster ``b`` into ``a``; update the best pair of everyone it touches."""
        self._fold(a, b)
        size, best, partner = self.size, self.best, self.partner
        size_a = size[a]
        nearest, near = math.inf, -1  # a's best (-mean, neighbour), found on the way
        for other, total in self.neighbours[a].items():
            value = -(total / (size_a * size[other]))
            if value < nearest or (value == nearest and other < near):
                nearest, near = value, other
            current = best[other]
            candidate = (value, other, a) if other < a else (value, a, other)
            if current is None:
                self._settle(other, candidate)
            elif partner[other] == a or partner[other] == b:
                # Its best pair changed or is gone. Its other pairs are as they were, none better
                # than that best: a pair with the merged cluster at least as good is the best
                # (the very same pair: its heap entry stands).
                if candidate != current:
                    self._settle(other, candidate if candidate < current else self._best_of(other))
            elif value <= current[0] and candidate < current:  # only then can the pair with a be better
                self._settle(other, candidate)
        if near < 0:
            self._settle(a, None)
        else:
            self._settle(a, (nearest, a, near) if a < near else (nearest, near, a))

    def _best_of(self, c: int) -> Pair | None:
        neighbours = self.neighbours[c]
        if not neighbours:
            return None
        size = self.size
        size_c = size[c]
        others = list(neighbours)
        means = [total / (size_c * size[other]) for other, total in neighbours.items()]
        mean = max(means)
        at = means.index(mean)
        other = others[at] if means.count(mean) == 1 else min(o for o, m in zip(others, means) if m == mean)
        return (-mean, c, other) if c < other else (-mean, other, c)

    def _settle(self, c: int, pair: Pair | None) -> None:
        self.best[c] = pair
        self.partner[c] = -1 if pair is None else pair[2] if pair[1] == c else pair[1]
        self.version[c] += 1
        if self._wanted(pair):
            heapq.heappush(self.heap, (pair, c, self.version[c]))

    def _wanted(self, pair: Pair | None) -> TypeGuard[Pair]:
        return pair is not None and -pair[0] >= self.threshold
