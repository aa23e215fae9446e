"""``SparseRows``: unit-norm vectors kept as their nonzero entries (CSR layout).

The local provider's TF-IDF rows are a few dozen nonzeros among tens of
thousands of words; for a very large change set (``similarity.FULL_UNITS``)
the dense matrix alone grows with units times words, which both grow with
the tree, so the rows are handed over as their nonzeros instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SparseRows:
    """Row ``r``'s nonzeros are ``data[indptr[r]:indptr[r + 1]]`` in columns ``indices[...]`` (ascending)."""

    indptr: np.ndarray  # int64, one more than the rows
    indices: np.ndarray  # int64 column of each nonzero
    data: np.ndarray  # float32 value of each nonzero
    width: int  # columns

    def __len__(self) -> int:
        return len(self.indptr) - 1

    def row_of_entries(self) -> np.ndarray:
        """The row of each nonzero."""
        return np.repeat(np.arange(len(self), dtype=np.int64), np.diff(self.indptr))


def sparse_rows(rows: list[int], cols: list[int], weights: list[float], n: int, width: int) -> SparseRows:
    """Unit-norm rows from ``(row, col, weight)`` entries given row by row (zero rows kept).

    Each value is rounded to float32 as the dense matrix holds it; norms are summed in float64.
    """
    row = np.asarray(rows, dtype=np.int64)
    col = np.asarray(cols, dtype=np.int64)
    data = np.asarray(weights, dtype=np.float32)
    order = np.lexsort((col, row))
    row, col, data = row[order], col[order], data[order]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(row, minlength=n), out=indptr[1:])
    squares = np.bincount(row, weights=data.astype(np.float64) ** 2, minlength=n)
    norms = np.sqrt(squares)
    norms[norms == 0] = 1.0
    data = (data / norms[row]).astype(np.float32)
    return SparseRows(indptr, col, data, width)
