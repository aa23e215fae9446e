"""Embedding similarity: each unit linked to its nearest neighbours.

Cosine similarity is calibrated per provider (``similarity_floor``: what
unrelated text scores) so the same weight works for TF-IDF and neural models.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from segmint_core.grouping.signals.base import Context, Link, link

SIMILAR = "similar"
SPARSE_MAX = 64      # a token in more units than this is multiplied as a dense column
BLOCK_ROWS = 256    # rows read at a time (their nonzeros, their nearest neighbours)
DENSE_SHARE = 0.25   # vectors with more nonzero entries than this share are multiplied as they are


def links(ctx: Context) -> Iterator[Link]:
    vectors = ctx.embeddings
    n = len(ctx.units)
    if vectors is None or n < 2:
        return
    k = min(ctx.model.similarity_neighbours, n - 1)
    nearest, similarities = _nearest(_products(vectors), k)
    # Each row's neighbours in order, a pair kept where it first comes up.
    rows = np.repeat(np.arange(n), k)
    cols = nearest.ravel()
    first, second = np.minimum(rows, cols), np.maximum(rows, cols)
    _, at = np.unique(first * n + second, return_index=True)
    at.sort()
    values = similarities.ravel()[at].astype(np.float64)
    floor = ctx.similarity_floor
    strengths = (values - floor) / (1.0 - floor)
    for i, j, value, strength in zip(rows[at].tolist(), cols[at].tolist(), values.tolist(), strengths.tolist()):
        if strength > 0:
            yield link(i, j, strength, SIMILAR, f"{value:.2f}")


def _nearest(products: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's ``k`` most similar other rows, ascending, and their cosines (float32).

    A block of rows at a time, each rounded to float32 and partitioned on its own
    as the whole matrix would be: a whole float32 copy and its temporaries were
    another 100 MB for 3,000 units, and their fresh pages cost more than the sort.
    """
    n = len(products)
    nearest = np.empty((n, k), dtype=np.intp)
    similarities = np.empty((n, k), dtype=np.float32)
    for start in range(0, n, BLOCK_ROWS):
        block = products[start:start + BLOCK_ROWS].astype(np.float32)
        own = np.arange(len(block))
        block[own, start + own] = -1.0   # never one's own neighbour
        chosen = np.argpartition(-block, k - 1, axis=1)[:, :k]
        chosen.sort(axis=1)
        nearest[start:start + len(block)] = chosen
        similarities[start:start + len(block)] = np.take_along_axis(block, chosen, axis=1)
    return nearest, similarities


def cosines(vectors: np.ndarray) -> np.ndarray:
    """Every pair's dot product of these unit-norm rows, as float32 (the diagonal is not read)."""
    return np.asarray(_products(vectors), dtype=np.float32)


def _products(vectors: np.ndarray) -> np.ndarray:
    """Every pair's dot product of these unit-norm rows: float64 sums for sparse rows (round
    them to float32), float32 for dense ones.

    TF-IDF rows are sparse: a unit holds a few dozen of thousands of tokens, and
    most tokens are in a few units. A token in one unit adds nothing to any pair,
    so it is left out; one in a few units adds to those pairs alone, so its
    products are summed pair by pair; only tokens in many units are multiplied
    as dense columns. Sums are taken in float64, so the result is the exact
    cosine rounded once, whatever the order. Dense embeddings (a neural
    provider's) are multiplied as they are.
    """
    vectors = np.asarray(vectors, dtype=np.float32)
    n = len(vectors)
    if np.count_nonzero(vectors) > DENSE_SHARE * vectors.size:
        return np.asarray(vectors @ vectors.T, dtype=np.float32)
    row, col = _nonzeros(vectors)
    df = np.bincount(col, minlength=vectors.shape[1])
    heavy = vectors[:, df > SPARSE_MAX].astype(np.float64)
    sims = heavy @ heavy.T if heavy.shape[1] else np.zeros((n, n))
    pairs = _pair_products(vectors, row, col, (df >= 2) & (df <= SPARSE_MAX))
    if pairs is not None:
        (first, second), products = pairs
        flat = sims.reshape(-1)
        np.add.at(flat, first * n + second, products)
        np.add.at(flat, second * n + first, products)
    return sims


def _nonzeros(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero(vectors)``, read through a boolean mask (several times faster than
    floats) a block of rows at a time (not one mask the size of the matrix), each mask
    read flat: ``np.nonzero`` of a flat mask is many times faster than of a 2-D one."""
    width = vectors.shape[1]
    rows, cols = [], []
    for start in range(0, len(vectors) if width else 0, BLOCK_ROWS):
        at = np.flatnonzero(vectors[start:start + BLOCK_ROWS] != 0)
        rows.append(at // width + start)
        cols.append(at % width)
    if not rows:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    return np.concatenate(rows), np.concatenate(cols)


def _pair_products(vectors: np.ndarray, row: np.ndarray, col: np.ndarray,
                   wanted: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray] | None:
    """For every pair of rows sharing a nonzero in a ``wanted`` column: the rows
    (a < b) and the product of their two values, once per column they share.
    ``row`` and ``col`` are the nonzeros, in ``np.nonzero``'s order."""
    keep = wanted[col]
    row, col = row[keep], col[keep]
    order = np.argsort(col, kind="stable")      # by column, rows ascending within each
    row, col = row[order], col[order]
    if not len(col):
        return None
    values = vectors[row, col].astype(np.float64)
    starts = np.flatnonzero(np.r_[True, col[1:] != col[:-1]])
    ends = np.repeat(np.r_[starts[1:], len(col)], np.diff(np.r_[starts, len(col)]))
    later = ends - np.arange(len(col)) - 1     # entries after each one in its column
    total = int(later.sum())
    if not total:
        return None
    left = np.repeat(np.arange(len(col)), later)
    right = left + 1 + np.arange(total) - np.repeat(np.cumsum(later) - later, later)
    return (row[left], row[right]), values[left] * values[right]
