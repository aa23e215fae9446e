"""Embedding similarity: each unit linked to its nearest neighbours.

Cosine similarity is calibrated per provider (``similarity_floor``: what
unrelated text scores) so the same weight works for TF-IDF and neural models.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from segmint_core.grouping.signals.base import Context, Link, link

SIMILAR = "similar"


def links(ctx: Context) -> Iterator[Link]:
    vectors = ctx.embeddings
    n = len(ctx.units)
    if vectors is None or n < 2:
        return
    sims = np.asarray(vectors @ vectors.T, dtype=np.float32)
    np.fill_diagonal(sims, -1.0)
    k = min(ctx.model.similarity_neighbours, n - 1)
    nearest = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    floor = ctx.similarity_floor
    seen: set[tuple[int, int]] = set()
    for i in range(n):
        for j in sorted(int(x) for x in nearest[i]):
            pair = (i, j) if i < j else (j, i)
            if pair in seen:
                continue
            seen.add(pair)
            strength = (float(sims[i, j]) - floor) / (1.0 - floor)
            if strength > 0:
                yield link(i, j, strength, SIMILAR, f"{float(sims[i, j]):.2f}")
