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
from segmint_core.grouping.lexicon import IDENTIFIER, STOP_WORDS, subtokens


class LocalProvider:
    name = "local"
    similarity_floor = 0.1

    def embed(self, texts: list[str], progress: Progress | None = None) -> np.ndarray:
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
        matrix = np.zeros((n, max(len(vocabulary), 1)), dtype=np.float32)
        matrix[rows, cols] = weights   # rounded to float32 as one by one
        if progress:
            progress(len(texts), len(texts), "embedding (local TF-IDF)")
        return normalize(matrix)


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
