"""Candidate pairs from an inverted index: the units that hold one key (a word, a name, a folder).

Evidence looked for between every two units grows with the square of their
number: 50,000 one-line edits are 1.25 billion pairs. Two units can only be
linked by what they share, so the pairs worth weighing are read off an index
from each key to the units holding it. A key that many units hold says little
and alone would pair them all, so only keys held by at most ``cap`` units make
pairs; ``cap_for`` picks the largest cap whose pairs fit a budget that grows
with the units, which keeps memory linear in the size of the change set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Candidates:
    """Distinct pairs of units (``first < second``, ascending) sharing a key held by at most ``cap`` units."""

    first: np.ndarray
    second: np.ndarray
    cap: int
    crowded_keys: int  # keys held by more than ``cap`` units: they make no pairs
    shared: np.ndarray | None = None  # per pair, the sum over its keys of the two entries' values


def holder_pairs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every two entries holding one key: ``(order, left, right)``, where ``order`` sorts the
    entries by key (stably, so holders keep their order within a key) and ``left < right``
    are positions in that order. ``keys`` holds one key per entry."""
    order = np.argsort(keys, kind="stable")
    if not len(keys):
        empty = np.zeros(0, dtype=np.intp)
        return order, empty, empty
    keys = keys[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.repeat(np.r_[starts[1:], len(keys)], np.diff(np.r_[starts, len(keys)]))
    later = ends - np.arange(len(keys)) - 1  # entries after each one under its key
    total = int(later.sum())
    left = np.repeat(np.arange(len(keys)), later)
    right = left + 1 + np.arange(total) - np.repeat(np.cumsum(later) - later, later)
    return order, left, right


def cap_for(holders: np.ndarray, budget: int, ceiling: int) -> int:
    """The largest ``cap <= ceiling`` for which the keys held by 2..cap units (``holders``: units
    per key) make at most ``budget`` pairs of entries (at least 2: a key two units share)."""
    counts = np.bincount(holders, minlength=ceiling + 1)[: ceiling + 1].astype(np.int64)
    sizes = np.arange(len(counts), dtype=np.int64)
    made = np.cumsum(counts * sizes * (sizes - 1) // 2)
    fitting = np.flatnonzero(made <= budget)
    return int(max(2, fitting[-1] if len(fitting) else 2))


def candidate_pairs(
    unit: np.ndarray, key: np.ndarray, units: int, per_unit: int, ceiling: int, value: np.ndarray | None = None
) -> Candidates:
    """The distinct pairs of units sharing a key, from entries ``(unit[i], key[i])`` (a unit holds
    a key at most once), making at most ``per_unit`` pairs of entries per unit on the way.
    With ``value`` (one per entry): each pair's sum of products over the keys it shares."""
    unit, key = np.asarray(unit, dtype=np.int64), np.asarray(key, dtype=np.int64)
    holders = np.bincount(key) if len(key) else np.zeros(0, dtype=np.int64)
    cap = cap_for(holders, per_unit * units, ceiling)
    keep = (holders[key] >= 2) & (holders[key] <= cap)
    order, left, right = holder_pairs(key[keep])
    held = unit[keep][order]
    a, b = held[left], held[right]
    pairs, inverse = np.unique(np.minimum(a, b) * units + np.maximum(a, b), return_inverse=True)
    shared = None
    if value is not None:
        kept = np.asarray(value, dtype=np.float64)[keep][order]
        shared = np.bincount(inverse.reshape(-1), weights=kept[left] * kept[right], minlength=len(pairs))
    return Candidates(pairs // units, pairs % units, cap, int(np.count_nonzero(holders > cap)), shared)
