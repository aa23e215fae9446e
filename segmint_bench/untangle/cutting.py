"""Where to cut the dendrogram: a learned choice among all its levels, made for the whole case.

Average linkage is run to the end (``graph.dendrogram``); the clusters it
leaves unlinked are then joined too, so keeping everything in one group is
always a candidate. Each level -- the partition after its first t merges --
is described as a whole: how many groups, per file, how much of the change
sits in single units or in the largest group, how many files it splits, the
mean affinity of the last merge made and of the next one refused, and how
those two sit against v1's threshold ``-(bias + size_prior ln(min(files, 5)))``
(hinges at a few offsets, so v1's rule is one setting of the weights). A
linear scorer (``CutModel``, fit on tangled histories by
``cuts.py``) picks the level with the highest score, the
fewest merges on a tie. Deciding once per case, rather than merge by merge,
lets the choice weigh what the partition as a whole looks like. The engine
does not use it, so it lives with the bench that measures it: held out it keeps more single commits whole but tells
fewer tangled ones apart (docs/experiments/untangling.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from segmint_core.grouping import graph
from segmint_core.grouping.unions import unions

CAP = 12.0  # a mean affinity beyond this reads as this
OFFSETS = (-2.0, -1.0, 0.0, 1.0, 2.0)  # hinges around v1's threshold


@dataclass(frozen=True)
class CutModel:
    """A linear score per level over standardised features; the best level is the cut."""

    features: tuple[str, ...]
    center: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]

    def scores(self, names: tuple[str, ...], rows: np.ndarray) -> np.ndarray:
        column = {name: i for i, name in enumerate(names)}
        out = np.zeros(len(rows))
        for name, c, s, w in zip(self.features, self.center, self.scale, self.weights):
            if name in column and w:
                out += w * (rows[:, column[name]] - c) / s
        return out

    def to_dict(self) -> dict:
        return {
            "features": list(self.features),
            "center": list(self.center),
            "scale": list(self.scale),
            "weights": list(self.weights),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "CutModel":
        return cls(tuple(data["features"]), tuple(data["center"]), tuple(data["scale"]), tuple(data["weights"]))


@dataclass
class Levels:
    """Every cut of one case's dendrogram: merges in order, and a feature row per level."""

    size: int  # units
    together: list[tuple[int, int]]  # joined before any merge
    merges: list[tuple[int, int]]  # (kept cluster, folded cluster)
    names: tuple[str, ...]
    rows: np.ndarray  # one row per level: 0 .. len(merges) merges made

    def labels(self, level: int) -> list[int]:
        """A cluster label per unit after the first ``level`` merges: its cluster's smallest unit."""
        root = list(range(self.size))

        def find(x: int) -> int:
            while root[x] != x:
                root[x] = root[root[x]]
                x = root[x]
            return x

        for keep, gone in unions(self.size, self.together):
            root[gone] = keep
        for keep, gone in self.merges[:level]:
            root[find(gone)] = find(keep)
        return [find(u) for u in range(self.size)]


def levels(
    paths: list[str],
    affinity: dict[tuple[int, int], float],
    weights: list[float],
    together: list[tuple[int, int]],
    files: int,
    threshold: float,
) -> Levels:
    """The dendrogram of these units (``paths``: each unit's file) and its levels' features."""
    n = len(paths)
    together = list(together)
    made = graph.dendrogram(n, affinity, weights, together)
    merges = [(a, b) for _, a, b in made]
    values = [-value for value, _, _ in made]
    # Clusters the graph never links: joined last, at no more than a missing link's 0.
    root = list(range(n))
    for keep, gone in [*unions(n, together), *merges]:
        root[gone] = keep
    tops = [c for c in range(n) if root[c] == c]
    floor = min(0.0, values[-1]) if values else 0.0
    for other in tops[1:]:
        merges.append((tops[0], other))
        values.append(floor)
    names, rows = _features(paths, weights, together, merges, values, files, threshold)
    return Levels(n, together, merges, names, rows)


def cut(
    paths: list[str],
    affinity: dict[tuple[int, int], float],
    weights: list[float],
    together: list[tuple[int, int]],
    files: int,
    threshold: float,
    model: CutModel,
) -> list[int]:
    """A cluster label per unit: the dendrogram cut where ``model`` scores the partition best."""
    found = levels(paths, affinity, weights, together, files, threshold)
    return found.labels(int(np.argmax(model.scores(found.names, found.rows))))


def _features(
    paths: list[str],
    weights: list[float],
    together: list[tuple[int, int]],
    merges: list[tuple[int, int]],
    values: list[float],
    files: int,
    threshold: float,
) -> tuple[tuple[str, ...], np.ndarray]:
    n = len(paths)
    total = sum(weights) or 1.0
    weight = list(weights)
    count = [1] * n
    paths_of: list[set[str]] = [{p} for p in paths]
    for keep, gone in unions(n, together):
        _fold(keep, gone, weight, count, paths_of)
    alive = {c for c in range(n) if count[c]}
    groups = len(alive)
    singles = sum(weight[c] for c in alive if count[c] == 1)
    largest = max((weight[c] for c in alive), default=0.0)
    pieces = sum(len(paths_of[c]) for c in alive)
    state = [(groups, singles, largest, pieces)]
    joins_file, smaller = [], []  # per merge: whether its two clusters share a file; the smaller one's lines
    for keep, gone in merges:
        singles -= sum(weight[c] for c in (keep, gone) if count[c] == 1)
        smaller.append(min(weight[keep], weight[gone]) / total)
        shared = _fold(keep, gone, weight, count, paths_of)
        joins_file.append(float(shared > 0))
        pieces -= shared
        groups -= 1
        largest = max(largest, weight[keep])
        state.append((groups, singles, largest, pieces))
    g, single, large, piece = (np.array(column, dtype=float) for column in zip(*state))
    v = np.clip(np.array(values, dtype=float), -CAP, CAP)
    last = np.concatenate([[CAP], v])
    following = np.concatenate([v, [-CAP]])
    files = max(files, 1)
    log_files, log_groups = math.log(files), np.log(np.maximum(g, 1.0))
    one = (g <= 1).astype(float)
    columns = {
        "last": last,
        "next": following,
        "gap": last - following,
        "groups": log_groups,
        "groups_per_file": np.minimum(g / files, 10.0),
        "over_files": np.maximum(0.0, log_groups - log_files),
        "groups_x_files": log_groups * log_files,
        "one_group": one,
        "one_group_one_file": one * float(files == 1),
        "one_group_x_files": one * log_files,
        "one_group_x_units": one * math.log(max(n, 1)),
        "singletons": single / total,
        "largest": large / total,
        "split_files": piece / len(set(paths)) - 1.0,
        "done": np.arange(len(g)) / max(len(merges), 1),
        "next_joins_file": np.array(joins_file + [0.0]),
        "last_joined_file": np.array([0.0] + joins_file),
        "next_smaller": np.array(smaller + [0.0]),
        "last_smaller": np.array([0.0] + smaller),
    }
    for offset in OFFSETS:
        columns[f"next_over_{offset:+g}"] = np.maximum(0.0, following - threshold - offset)
        columns[f"last_under_{offset:+g}"] = np.maximum(0.0, threshold + offset - last)
    names = tuple(columns)
    return names, np.column_stack([columns[name] for name in names])


def _fold(keep: int, gone: int, weight: list[float], count: list[int], paths_of: list[set[str]]) -> int:
    """Fold cluster ``gone`` into ``keep``; the number of files they shared."""
    weight[keep] += weight[gone]
    count[keep] += count[gone]
    count[gone] = 0
    small, large = sorted((paths_of[keep], paths_of[gone]), key=len)
    shared = len(small & large)
    large |= small
    paths_of[keep] = large
    paths_of[gone] = set()
    return shared
