"""The ``EmbeddingProvider`` interface and the text each unit is embedded as."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

Progress = Callable[[int, int, str], None]

MAX_LINES = 200  # the seed's cap on embedded diff lines


class EmbeddingProvider(Protocol):
    """Turns texts into unit-norm vectors (one row per text, same order)."""

    name: str
    # Cosine similarity that unrelated texts reach with this provider; the
    # similarity signal counts only what lies above it.
    similarity_floor: float

    def embed(self, texts: list[str], progress: Progress | None = None) -> np.ndarray: ...


def embedding_text(path: str, header: str, lines: list[str]) -> str:
    """As in the seed: the file path, the hunk header, the diff lines (capped)."""
    return "\n".join([path, header, *lines[:MAX_LINES]])


def normalize(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim != 2:
        return matrix.reshape(len(matrix), -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms
