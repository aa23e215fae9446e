"""Clustering whose every merge is decided from cluster-level evidence.

Candidates come best first, as in average linkage: the pair of clusters with
the highest mean affinity over all their unit pairs (weighted by changed
lines, a pair with no link counting 0). Each candidate is then accepted or
refused by the merge model (``MergeModel``): a logistic regression over what
the two clusters look like -- the best and mean link between them, how much of
them is linked at all and by which kinds of evidence, the drop in affinity
since the last merge, their sizes, files, folders and kinds of file, how tight
each is inside, and how large the change set is. A refused pair is set aside
and the next best is looked at; it comes back only when one of its clusters
grows. The fixed threshold of v1 (``4.35 - 2.30 ln(files)``) shattered
one-file trees and joined too little across files; these decisions learn
both from the tangled histories.

Cost follows the number of links: each cluster keeps its best pair in a heap,
and every figure a decision reads is kept up to date as clusters merge.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from segmint_core.changes.kinds import CHANGELOG, CODE, CONFIG, DOCS, TEST
from segmint_core.grouping.lexicon import directory
from segmint_core.grouping.unions import unions

if TYPE_CHECKING:
    from segmint_core.grouping.links import Link
    from segmint_core.grouping.units import Unit

KINDS = (CODE, TEST, DOCS, CHANGELOG, CONFIG)


@dataclass(frozen=True)
class MergeModel:
    """P(two clusters share an intent) from their features; merge when at least ``threshold``."""

    features: tuple[str, ...]
    center: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float
    threshold: float
    links: tuple[str, ...]  # link kinds (before any ":") whose presence between clusters is a feature
    # Each feature is held to the range the fit saw: a tree of 400 files is read as
    # the largest the histories hold, not extrapolated to one intent.
    low: tuple[float, ...] = ()
    high: tuple[float, ...] = ()

    def log_odds(self, values: dict[str, float]) -> float:
        z = self.intercept
        low = self.low or (-math.inf,) * len(self.features)
        high = self.high or (math.inf,) * len(self.features)
        for name, c, s, w, lo, hi in zip(self.features, self.center, self.scale, self.weights, low, high):
            value = values.get(name, 0.0)
            z += w * ((lo if value < lo else hi if value > hi else value) - c) / s
        return z

    def probability(self, values: dict[str, float]) -> float:
        z = self.log_odds(values)
        return 1.0 / (1.0 + math.exp(-z)) if z > -500 else 0.0

    def to_dict(self) -> dict:
        return {
            "features": list(self.features),
            "center": list(self.center),
            "scale": list(self.scale),
            "weights": list(self.weights),
            "intercept": self.intercept,
            "threshold": self.threshold,
            "links": list(self.links),
            "low": list(self.low),
            "high": list(self.high),
        }

    def cluster(
        self,
        units: list[Unit],
        affinity: dict[tuple[int, int], float],
        weights: list[float],
        links: list[Link],
        files: int,
        together: list[tuple[int, int]],
    ) -> list[int]:
        """A cluster label per unit, each merge decided by this model (``grouping.model.MergeRule``)."""
        return agglomerate(units, affinity, weights, links, files, self, together)

    @classmethod
    def from_dict(cls, data: dict) -> "MergeModel":
        return cls(
            tuple(data["features"]),
            tuple(data["center"]),
            tuple(data["scale"]),
            tuple(data["weights"]),
            float(data["intercept"]),
            float(data["threshold"]),
            tuple(data["links"]),
            tuple(data.get("low", ())),
            tuple(data.get("high", ())),
        )


Decide = Callable[[dict[str, float]], bool]
# Told of every candidate: its features, the two clusters' units, and whether it merged.
Observe = Callable[[dict[str, float], list[int], list[int], bool], None]
Pair = tuple[float, int, int]  # (-mean affinity, lower cluster, higher cluster): smallest is best


def link_masks(links: list[Link], kinds: tuple[str, ...]) -> dict[tuple[int, int], int]:
    """Per linked pair, a bit for each kind of evidence (``kinds`` order) between them."""
    bit = {kind: 1 << i for i, kind in enumerate(kinds)}
    flags: dict[str, int] = {}  # per full kind ("shared:generic"), looked up once
    masks: dict[tuple[int, int], int] = {}
    for item in links:
        flag = flags.get(item.kind)
        if flag is None:
            flag = flags[item.kind] = bit.get(item.kind.split(":", 1)[0], 0)
        if flag:
            key = (item.a, item.b)
            masks[key] = masks.get(key, 0) | flag
    return masks


class Agglomeration:
    """Best-first average linkage where ``decide(features)`` accepts or refuses each merge."""

    def __init__(
        self,
        units: list[Unit],
        affinity: dict[tuple[int, int], float],
        weights: list[float],
        links: list[Link],
        link_kinds: tuple[str, ...],
        files: int,
        decide: Decide,
        observe: Observe | None = None,
    ) -> None:
        n = len(units)
        masks = link_masks(links, link_kinds)
        self.link_names = [f"link:{kind}" for kind in link_kinds]
        self.decide, self.observe = decide, observe
        self.size = list(weights)
        self.total = sum(weights) or 1.0
        self.case = {
            "case_files": math.log(max(files, 1)),
            "case_units": math.log(max(n, 1)),
            "case_one_file": float(files == 1),
        }
        # Per neighbour: [summed weighted affinity, best affinity, evidence bits, linked weight].
        self.neighbours: list[dict[int, list]] = [{} for _ in range(n)]
        for (a, b), value in affinity.items():
            weight = weights[a] * weights[b]
            edge = [value * weight, value, masks.get((a, b), 0), weight]
            self.neighbours[a][b] = edge
            self.neighbours[b][a] = edge
        self.members: list[list[int]] = [[i] for i in range(n)]
        self.files: list[set[str]] = [{u.path} for u in units]
        self.folders: list[set[str]] = [{directory(u.path)} for u in units]
        self.kinds: list[dict[str, float]] = [{u.kind: weights[u.index]} for u in units]
        self.inside = [0.0] * n
        self.alive = [True] * n
        self.refused: list[set[int]] = [set() for _ in range(n)]
        self.clusters = n
        self.last: float | None = None
        self.version = [0] * n
        self.best: list[Pair | None] = [None] * n
        self.heap: list[tuple[Pair, int, int]] = []

    # -- running ---------------------------------------------------------------

    def join(self, pairs: list[tuple[int, int]]) -> None:
        """Put each pair's units in one cluster before any decision (a rename, a lock file)."""
        for keep, gone in unions(len(self.members), pairs):
            self._merge(keep, gone, settle=False)

    def run(self) -> list[int]:
        """A cluster label per unit: the smallest unit index in its cluster."""
        for c in range(len(self.members)):
            if self.alive[c]:
                self._settle(c, self._best_of(c))
        while self.heap:
            pair, c, seen = heapq.heappop(self.heap)
            if not self.alive[c] or self.version[c] != seen:
                continue
            _, a, b = pair
            values = self.features(a, b)
            merged = self.decide(values)
            if self.observe is not None:
                self.observe(values, self.members[a], self.members[b], merged)
            if merged:
                self.last = values["mean"]
                self._merge(a, b)
            else:
                self.refused[a].add(b)
                self.refused[b].add(a)
                self._settle(a, self._best_of(a))
                self._settle(b, self._best_of(b))
        labels = [0] * len(self.members)
        for root, members in enumerate(self.members):
            for unit in members:
                labels[unit] = root
        return labels

    def features(self, a: int, b: int) -> dict[str, float]:
        total, peak, mask, linked = self.neighbours[a][b]
        sa, sb = self.size[a], self.size[b]
        mean = total / (sa * sb)
        inner_a = self.inside[a] / (sa * sa) if len(self.members[a]) > 1 else 0.0
        inner_b = self.inside[b] / (sb * sb) if len(self.members[b]) > 1 else 0.0
        files_a, files_b = self.files[a], self.files[b]
        values = {
            "mean": mean,
            "max": peak,
            "drop": mean - self.last if self.last is not None else 0.0,
            "small": math.log(min(sa, sb)),
            "large": math.log(max(sa, sb)),
            "share": (sa + sb) / self.total,
            "clusters": math.log(self.clusters),
            "linked": linked / (sa * sb),
            "inside_min": min(inner_a, inner_b),
            "inside_max": max(inner_a, inner_b),
            "files_min": float(min(len(files_a), len(files_b))),
            "files_max": float(max(len(files_a), len(files_b))),
            "shared_file": float(not files_a.isdisjoint(files_b)),
            "files_union": math.log(len(files_a | files_b)),
            "folders_union": float(len(self.folders[a] | self.folders[b])),
            "shared_folder": float(not self.folders[a].isdisjoint(self.folders[b])),
            **self.case,
        }
        kinds_a, kinds_b = self.kinds[a], self.kinds[b]
        for kind in KINDS:
            in_a, in_b = kinds_a.get(kind, 0.0) / sa, kinds_b.get(kind, 0.0) / sb
            values[f"only_{kind}"] = float(in_a == 1.0) + float(in_b == 1.0)
            values[f"least_{kind}"] = min(in_a, in_b)
            values[f"most_{kind}"] = max(in_a, in_b)
        for bit, name in enumerate(self.link_names):
            values[name] = float((mask >> bit) & 1)
        return values

    # -- bookkeeping -----------------------------------------------------------

    def _merge(self, a: int, b: int, settle: bool = True) -> None:
        """Fold cluster ``b`` into ``a`` (a < b) and update every figure it touches."""
        neighbours = self.neighbours
        into, gone = neighbours[a], neighbours[b]
        between = into.pop(b, None)
        gone.pop(a, None)
        self.inside[a] += self.inside[b] + (2.0 * between[0] if between else 0.0)
        for other, edge in gone.items():
            mine = into.get(other)
            theirs = neighbours[other]
            del theirs[b]
            if mine is None:  # the edge moves over whole (one list serves both ends)
                into[other] = theirs[a] = edge
                continue
            mine[0] += edge[0]
            if edge[1] > mine[1]:
                mine[1] = edge[1]
            mine[2] |= edge[2]
            mine[3] += edge[3]
        gone.clear()
        self.size[a] += self.size[b]
        self.members[a].extend(self.members[b])
        self.members[b] = []
        self.files[a] |= self.files[b]
        self.folders[a] |= self.folders[b]
        for kind, lines in self.kinds[b].items():
            self.kinds[a][kind] = self.kinds[a].get(kind, 0.0) + lines
        if self.refused[a] or self.refused[b]:  # the grown cluster is looked at afresh
            for other in self.refused[a] | self.refused[b]:
                self.refused[other].discard(a)
                self.refused[other].discard(b)
            self.refused[a] = set()
            self.refused[b] = set()
        self.alive[b] = False
        self.best[b] = None
        self.version[b] += 1
        self.clusters -= 1
        if not settle:
            return
        self._settle(a, self._best_of(a))
        size_a = self.size[a]
        for other, edge in into.items():
            current = self.best[other]
            if current is not None and (current[1] in (a, b) or current[2] in (a, b)):
                self._settle(other, self._best_of(other))  # its best pair changed or is gone
                continue
            value = edge[0] / (size_a * self.size[other])
            candidate = (-value, other, a) if other < a else (-value, a, other)
            if current is None or candidate < current:
                self._settle(other, candidate)

    def _best_of(self, c: int) -> Pair | None:
        best = None
        size_c, size, refused = self.size[c], self.size, self.refused[c]
        for other, edge in self.neighbours[c].items():
            if other in refused:
                continue
            pair = (
                (-(edge[0] / (size_c * size[other])), c, other)
                if c < other
                else (-(edge[0] / (size_c * size[other])), other, c)
            )
            if best is None or pair < best:
                best = pair
        return best

    def _settle(self, c: int, pair: Pair | None) -> None:
        self.best[c] = pair
        self.version[c] += 1
        if pair is not None:
            heapq.heappush(self.heap, (pair, c, self.version[c]))


def agglomerate(
    units: list[Unit],
    affinity: dict[tuple[int, int], float],
    weights: list[float],
    links: list[Link],
    files: int,
    model: MergeModel,
    together: list[tuple[int, int]] = (),
    decide: Decide | None = None,
    observe: Observe | None = None,
) -> list[int]:
    """A cluster label per unit; ``decide`` (default: the merge model at its threshold) rules on each merge."""
    if decide is None:

        def decide(values: dict[str, float]) -> bool:
            return model.probability(values) >= model.threshold

    clustering = Agglomeration(units, affinity, weights, links, model.links, files, decide, observe)
    clustering.join(list(together))
    return clustering.run()
