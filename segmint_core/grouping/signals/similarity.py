"""Embedding similarity: each unit linked to its nearest neighbours.

Cosine similarity is calibrated per provider (``similarity_floor``: what
unrelated text scores) so the same weight works for TF-IDF and neural models.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from segmint_core.grouping.candidates import Candidates, candidate_pairs, holder_pairs
from segmint_core.grouping.embeddings.sparse import SparseRows
from segmint_core.grouping.links import Link, link
from segmint_core.grouping.signals.base import Context

SIMILAR = "similar"
SPARSE_MAX = 64  # a token in more units than this is multiplied as a dense column
BLOCK_ROWS = 256  # rows read at a time (their nonzeros, their nearest neighbours)
DENSE_SHARE = 0.25  # vectors with more nonzero entries than this share are multiplied as they are
# Up to this many units every pair's cosine is taken (the products are FULL_UNITS**2 floats, 128 MB);
# above it the units come as their nonzeros and only candidate pairs are weighed.
FULL_UNITS = 4096
CANDIDATES_PER_UNIT = 48  # pairs of word holders made per unit, at most, when finding candidates
CROWDED_CHUNK = 1 << 21  # crowded entries read at a time


def links(ctx: Context) -> Iterator[Link]:
    vectors = ctx.embeddings
    n = len(ctx.units)
    if vectors is None or n < 2:
        return
    k = min(ctx.model.similarity_neighbours, n - 1)
    if isinstance(vectors, SparseRows):
        rows, cols, values = _sparse_nearest(vectors, k)
    else:
        products = _products(vectors) if n <= FULL_UNITS else _BlockProducts(np.asarray(vectors, dtype=np.float32))
        nearest, similarities = _nearest(products, k)
        rows, cols, values = np.repeat(np.arange(n), k), nearest.ravel(), similarities.ravel()
    # Each row's neighbours in order, a pair kept where it first comes up.
    first, second = np.minimum(rows, cols), np.maximum(rows, cols)
    _, at = np.unique(first * n + second, return_index=True)
    at.sort()
    values = values[at].astype(np.float64)
    floor = ctx.similarity_floor
    strengths = (values - floor) / (1.0 - floor)
    for i, j, value, strength in zip(rows[at].tolist(), cols[at].tolist(), values.tolist(), strengths.tolist()):
        if strength > 0:
            yield link(i, j, strength, SIMILAR, f"{value:.2f}")


def coarse(units: int) -> bool:
    """Whether the links of this many units are found through the candidate index (``_sparse_nearest``)."""
    return units > FULL_UNITS


class _BlockProducts:
    """The rows of ``vectors @ vectors.T`` a block at a time, never the whole matrix."""

    def __init__(self, vectors: np.ndarray) -> None:
        self.vectors = vectors

    def __len__(self) -> int:
        return len(self.vectors)

    def __getitem__(self, rows: slice) -> np.ndarray:
        return self.vectors[rows] @ self.vectors.T


def _sparse_nearest(vectors: SparseRows, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's up to ``k`` most similar other rows among its candidates, as ``(row, neighbour,
    cosine)`` ordered by row then neighbour: the candidates are the rows sharing a word few rows
    hold (``candidates.py``), and their cosine is the whole one, common words included."""
    n = len(vectors)
    row = vectors.row_of_entries()
    found = candidate_pairs(row, vectors.indices, n, CANDIDATES_PER_UNIT, SPARSE_MAX, vectors.data)
    cosine = found.shared + _crowded_products(vectors, row, found)
    cosine = cosine.astype(np.float32)
    source = np.concatenate([found.first, found.second])
    other = np.concatenate([found.second, found.first])
    value = np.concatenate([cosine, cosine])
    order = np.lexsort((other, -value, source))  # best first, ties to the lower row
    source, other, value = source[order], other[order], value[order]
    starts = np.searchsorted(source, np.arange(n))
    rank = np.arange(len(source)) - starts[source]
    keep = rank < k
    source, other, value = source[keep], other[keep], value[keep]
    order = np.lexsort((other, source))
    return source[order], other[order], value[order]


def _crowded_products(vectors: SparseRows, row: np.ndarray, found: Candidates) -> np.ndarray:
    """Per candidate pair, the sum of products over the words too common to have made pairs.

    Each pair reads the crowded words of the row holding fewer and looks the other row's
    value up among the crowded entries, sorted by (row, word); a chunk of pairs at a time."""
    holders = np.bincount(vectors.indices, minlength=vectors.width)
    crowded = holders[vectors.indices] > found.cap
    out = np.zeros(len(found.first), dtype=np.float64)
    if not crowded.any():
        return out
    c_row, c_col = row[crowded], vectors.indices[crowded]
    c_value = vectors.data[crowded].astype(np.float64)
    c_key = c_row * vectors.width + c_col  # ascending: entries are row-major
    c_start = np.searchsorted(c_row, np.arange(len(vectors) + 1))
    c_count = np.diff(c_start)
    a, b = found.first, found.second
    swap = c_count[a] > c_count[b]
    a, b = np.where(swap, b, a), np.where(swap, a, b)
    step = max(1, CROWDED_CHUNK // max(1, int(c_count.max())))
    for begin in range(0, len(a), step):
        pa, pb = a[begin : begin + step], b[begin : begin + step]
        counts = c_count[pa]
        pair = np.repeat(np.arange(len(pa)), counts)
        offset = np.arange(len(pair)) - np.repeat(np.cumsum(counts) - counts, counts)
        entry = c_start[pa][pair] + offset
        wanted = pb[pair] * vectors.width + c_col[entry]
        at = np.minimum(np.searchsorted(c_key, wanted), len(c_key) - 1)
        hit = c_key[at] == wanted
        products = np.where(hit, c_value[entry] * c_value[at], 0.0)
        out[begin : begin + step] = np.bincount(pair, weights=products, minlength=len(pa))
    return out


def _nearest(products: np.ndarray | _BlockProducts, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's ``k`` most similar other rows, ascending, and their cosines (float32).

    A block of rows at a time, each rounded to float32 and partitioned on its own
    as the whole matrix would be: a whole float32 copy and its temporaries were
    another 100 MB for 3,000 units, and their fresh pages cost more than the sort.
    """
    n = len(products)
    nearest = np.empty((n, k), dtype=np.intp)
    similarities = np.empty((n, k), dtype=np.float32)
    for start in range(0, n, BLOCK_ROWS):
        block = products[start : start + BLOCK_ROWS].astype(np.float32)
        own = np.arange(len(block))
        block[own, start + own] = -1.0  # never one's own neighbour
        chosen = np.argpartition(-block, k - 1, axis=1)[:, :k]
        chosen.sort(axis=1)
        nearest[start : start + len(block)] = chosen
        similarities[start : start + len(block)] = np.take_along_axis(block, chosen, axis=1)
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
        at = np.flatnonzero(vectors[start : start + BLOCK_ROWS] != 0)
        rows.append(at // width + start)
        cols.append(at % width)
    if not rows:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    return np.concatenate(rows), np.concatenate(cols)


def _pair_products(
    vectors: np.ndarray, row: np.ndarray, col: np.ndarray, wanted: np.ndarray
) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray] | None:
    """For every pair of rows sharing a nonzero in a ``wanted`` column: the rows
    (a < b) and the product of their two values, once per column they share.
    ``row`` and ``col`` are the nonzeros, in ``np.nonzero``'s order."""
    keep = wanted[col]
    row, col = row[keep], col[keep]
    order, left, right = holder_pairs(col)  # by column, rows ascending within each
    if not len(left):
        return None
    row, col = row[order], col[order]
    values = vectors[row, col].astype(np.float64)
    return (row[left], row[right]), values[left] * values[right]
