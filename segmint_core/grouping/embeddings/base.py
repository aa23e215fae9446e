"""The ``EmbeddingProvider`` interface and the text each unit is embedded as."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

Progress = Callable[[int, int, str], None]

MAX_LINES = 200  # embedded diff lines at most, per unit
NORM_ROWS = 256  # rows normalized at a time


class EmbeddingProvider(Protocol):
    """Turns texts into unit-norm vectors (one row per text, same order)."""

    name: str
    # Cosine similarity that unrelated texts reach with this provider; the
    # similarity signal counts only what lies above it.
    similarity_floor: float

    def embed(self, texts: list[str], progress: Progress | None = None) -> np.ndarray: ...


def embedding_text(path: str, header: str, lines: list[str]) -> str:
    """The file path, the hunk header, the diff lines (capped)."""
    return "\n".join([path, header, *lines[:MAX_LINES]])


def normalize(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit norm (zero rows kept); a float32 matrix is scaled in place.

    A block of rows at a time: a TF-IDF matrix of 3,000 units is 60 MB, and
    squaring it whole made a temporary as large (each row's norm is the same).
    """
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim != 2:
        return matrix.reshape(len(matrix), -1)
    for start in range(0, len(matrix), NORM_ROWS):
        block = matrix[start : start + NORM_ROWS]
        norms = np.linalg.norm(block, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        block /= norms
    return matrix
