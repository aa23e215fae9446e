"""A change set's linked pairs of units and how strongly each kind of link joins them.

What the pair model reads: per pair of units, the strengths of each kind of
link summed (``log1p`` for kinds that pile up, like many shared names).
Vectorised with ``np.bincount``, since a large change set has 10^5 links.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter

import numpy as np

from segmint_core.grouping.links import Link

_A, _B, _WEIGHT, _KIND = (itemgetter(i) for i in range(4))  # a link's fields, as ``Link`` orders them

# Kinds (before any ":" suffix) whose summed strength grows with the number of
# shared things: log1p.
PILING = frozenset({"def_use", "def_use_context", "shared", "mention", "mention_use", "repeated", "exercises"})


@dataclass(frozen=True)
class PairEvidence:
    """The linked pairs (``a < b``, ascending) and one cell per (pair, kind) of link."""

    a: np.ndarray
    b: np.ndarray
    kinds: list[str]
    cell_pair: np.ndarray  # index into ``a``/``b``
    cell_kind: np.ndarray  # index into ``kinds``
    strength: np.ndarray


def pair_evidence(links: list[Link], n: int) -> PairEvidence:
    """The evidence of ``links`` between ``n`` units."""
    kinds = sorted(set(map(_KIND, links)))
    kind_index = {k: i for i, k in enumerate(kinds)}
    m = max(len(kinds), 1)
    count = len(links)
    # Each field read by ``map`` over an item getter: no Python frame per link.
    a = np.fromiter(map(_A, links), np.int64, count)
    b = np.fromiter(map(_B, links), np.int64, count)
    kind = np.fromiter(map(kind_index.__getitem__, map(_KIND, links)), np.int64, count)
    keys = (a * n + b) * m + kind
    weights = np.fromiter(map(_WEIGHT, links), np.float64, count)
    cells, inverse = np.unique(keys, return_inverse=True)
    sums = np.bincount(inverse, weights=weights, minlength=len(cells))
    cell_kind = cells % m
    piling = np.array([k.split(":")[0] in PILING for k in kinds], dtype=bool)
    strength = np.where(piling[cell_kind], np.log1p(np.maximum(sums, 0.0)), sums) if kinds else sums
    pairs, cell_pair = np.unique(cells // m, return_inverse=True)
    return PairEvidence(pairs // n, pairs % n, kinds, cell_pair.reshape(-1), cell_kind, strength)
