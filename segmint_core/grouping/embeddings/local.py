"""The default provider: TF-IDF over identifier sub-tokens, offline and deterministic.

The corpus is the texts of one call (the change set being grouped), so a
token every hunk uses weighs little and a token two hunks share weighs much.
Whole identifiers are features too, so ``parse_config`` matches itself more
than ``parse`` and ``config`` do apart.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache
from itertools import chain

import numpy as np

from segmint_core.grouping.embeddings.base import Progress, normalize
from segmint_core.grouping.embeddings.sparse import SparseRows, sparse_rows
from segmint_core.grouping.lexicon import IDENTIFIER, STOP_WORDS, subtokens


class LocalProvider:
    name = "local"
    similarity_floor = 0.1

    def embed(self, texts: list[str], progress: Progress | None = None) -> np.ndarray:
        n, width, (rows, cols, weights) = self._entries(texts, progress)
        matrix = np.zeros((n, width), dtype=np.float32)
        matrix[rows, cols] = weights  # rounded to float32 as one by one
        if progress:
            progress(len(texts), len(texts), "embedding (local TF-IDF)")
        return normalize(matrix)

    def embed_sparse(self, texts: list[str], progress: Progress | None = None) -> SparseRows:
        """The rows ``embed`` makes (up to float rounding of their norms), as their nonzeros."""
        n, width, (rows, cols, weights) = self._entries(texts, progress)
        if progress:
            progress(len(texts), len(texts), "embedding (local TF-IDF)")
        return sparse_rows(rows, cols, weights, n, width)

    def _entries(
        self, texts: list[str], progress: Progress | None
    ) -> tuple[int, int, tuple[list[int], list[int], list[float]]]:
        """Rows, columns and TF-IDF weights of the nonzeros, row by row; and the matrix's shape."""
        if progress:
            progress(0, len(texts), "embedding (local TF-IDF)")
        bags = [_features(text) for text in texts]
        vocabulary: dict[str, int] = {}
        frequency: Counter[str] = Counter()
        for bag in bags:
            frequency.update(bag.keys())
        for token in sorted(frequency):
            vocabulary[token] = len(vocabulary)
        n = len(texts)
        idf = {t: math.log((1 + n) / (1 + df)) + 1.0 for t, df in frequency.items()}
        rows: list[int] = []
        cols: list[int] = []
        weights: list[float] = []
        for row, bag in enumerate(bags):
            for token, count in bag.items():
                rows.append(row)
                cols.append(vocabulary[token])
                weights.append((1.0 + math.log(count)) * idf[token])
        return n, max(len(vocabulary), 1), (rows, cols, weights)


def _features(text: str) -> Counter[str]:
    """How many times each feature occurs in ``text`` (counted in C: no Python loop per word)."""
    return Counter(chain.from_iterable(map(_word_features, IDENTIFIER.findall(text))))


@lru_cache(maxsize=65536)
def _word_features(word: str) -> tuple[str, ...]:
    """A word's features: its sub-tokens, and itself (lower case) when it has several."""
    if len(word) < 3 or word.lower() in STOP_WORDS:
        return ()
    parts = subtokens(word)
    return (*parts, word.lower()) if len(parts) > 1 else parts
