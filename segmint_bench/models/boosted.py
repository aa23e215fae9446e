"""Boosted trees over a pair's evidence: what the linear pair model cannot weigh.

The linear model (``model.py``) adds each kind of link's strength times one
coefficient, whatever else the pair shows. A model may also carry trees,
fit on what it gets wrong (``segmint bench fit --trees N``): oblivious trees
(every node of one depth splits on the same feature and threshold), each
adding a leaf value to the pair's log-odds. Their features exist for every
language: each kind of link's strength, how many of the two units are of
each file kind, how many kinds of link join them, and the changed lines of
the smaller and the larger unit. What they give a pair with no link at all
is folded into the model's bias, so an unlinked pair's affinity stays 0.

Evaluation is vectorised: every distinct (feature, threshold) test once per
pair, then each tree's leaf from its tests' bits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from segmint_core.changes.kinds import CHANGELOG, CODE, CONFIG, DOCS, TEST
from segmint_core.grouping.pair_evidence import PairEvidence

if TYPE_CHECKING:
    from segmint_core.grouping.units import Unit

FLAVOURS = (CODE, TEST, DOCS, CONFIG, CHANGELOG, "changelog-release")
LINK = "link:"
KINDS = "link kinds"
SMALLER, LARGER = "lines:smaller", "lines:larger"
SHAPE = (*(f"flavour:{f}" for f in FLAVOURS), KINDS, SMALLER, LARGER)


def feature_matrix(evidence: PairEvidence, units: list[Unit], names: list[str]) -> np.ndarray:
    """One row per pair, one column per name (``link:KIND`` or one of ``SHAPE``)."""
    pairs = len(evidence.a)
    out = np.zeros((pairs, len(names)))
    column = {name: i for i, name in enumerate(names)}
    link_column = np.array([column.get(LINK + k, -1) for k in evidence.kinds], dtype=np.int64)
    cell_column = link_column[evidence.cell_kind]
    keep = cell_column >= 0
    out[evidence.cell_pair[keep], cell_column[keep]] = evidence.strength[keep]  # one cell per (pair, kind)
    if KINDS in column:
        out[:, column[KINDS]] = np.bincount(evidence.cell_pair, minlength=pairs)
    flavour = np.array([FLAVOURS.index(u.flavour) if u.flavour in FLAVOURS else -1 for u in units], dtype=np.int64)
    for i, name in enumerate(FLAVOURS):
        if f"flavour:{name}" in column:
            out[:, column[f"flavour:{name}"]] = (flavour[evidence.a] == i).astype(float) + (flavour[evidence.b] == i)
    if SMALLER in column or LARGER in column:
        lines = np.log1p(np.array([u.size for u in units], dtype=np.float64))
        small = np.minimum(lines[evidence.a], lines[evidence.b])
        large = np.maximum(lines[evidence.a], lines[evidence.b])
        for name, values in ((SMALLER, small), (LARGER, large)):
            if name in column:
                out[:, column[name]] = values
    return out


@dataclass(frozen=True)
class Trees:
    """Oblivious trees: tree ``t`` tests ``features[t, d] > thresholds[t, d]`` at depth ``d``;
    the bits, depth 0 lowest, index its leaf in ``values[t]``."""

    names: list[str]
    features: np.ndarray  # (trees, depth) int, into ``names``
    thresholds: np.ndarray  # (trees, depth)
    values: np.ndarray  # (trees, 2 ** depth)
    zero: float  # the trees' sum for a pair with no link (in the model's bias)

    def score(self, matrix: np.ndarray) -> np.ndarray:
        """The trees' sum for each row of ``feature_matrix(..., self.names)``."""
        rows = len(matrix)
        if rows == 0 or not len(self.values):
            return np.zeros(rows)
        tests, which = np.unique(
            np.stack([self.features.ravel(), self.thresholds.ravel()]), axis=1, return_inverse=True
        )
        bits = matrix[:, tests[0].astype(np.int64)] > tests[1]
        # Pairs with the same outcome of every test score the same: evaluate each outcome once.
        first, row_outcome = _outcomes(bits)
        distinct = bits[first].astype(np.int64)
        depth = self.features.shape[1]
        leaf = (distinct[:, which.reshape(-1)].reshape(len(first), -1, depth) << np.arange(depth)).sum(axis=2)
        totals = self.values[np.arange(len(self.values)), leaf].sum(axis=1)
        return totals[row_outcome]

    def lift(self, evidence: PairEvidence, units: list[Unit]) -> np.ndarray:
        """Per linked pair: what the trees add to its affinity."""
        return self.score(feature_matrix(evidence, units, self.names)) - self.zero

    def to_dict(self) -> dict:
        return {
            "names": list(self.names),
            "features": self.features.tolist(),
            "thresholds": [[round(t, 6) for t in row] for row in self.thresholds.tolist()],
            "values": [[round(v, 6) for v in row] for row in self.values.tolist()],
            "zero": round(self.zero, 6),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Trees":
        depth = len(data["features"][0]) if data["features"] else 0
        return cls(
            list(data["names"]),
            np.array(data["features"], dtype=np.int64).reshape(-1, depth),
            np.array(data["thresholds"], dtype=np.float64).reshape(-1, depth),
            np.array(data["values"], dtype=np.float64).reshape(-1, 2**depth),
            float(data["zero"]),
        )


def _outcomes(bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a boolean matrix: the first row of each, and each row's.

    Rows are packed into 64-bit words and told apart word by word with 1-D
    ``np.unique`` (sorting whole rows as bytes is ten times slower)."""
    packed = np.packbits(bits, axis=1)
    width = -(-packed.shape[1] // 8) * 8
    words = np.zeros((len(bits), width), dtype=np.uint8)
    words[:, : packed.shape[1]] = packed
    words = words.view(np.uint64)
    group = np.zeros(len(bits), dtype=np.int64)
    for column in words.T:
        values, inverse = np.unique(column, return_inverse=True)
        group = group * len(values) + inverse.reshape(-1)
        _, group = np.unique(group, return_inverse=True)
        group = group.reshape(-1)
    _, first, inverse = np.unique(group, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)
