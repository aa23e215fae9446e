"""The default provider: TF-IDF over identifier sub-tokens, offline and deterministic.

The corpus is the texts of one call (the change set being grouped), so a
token every hunk uses weighs little and a token two hunks share weighs much.
Whole identifiers are features too, so ``parse_config`` matches itself more
than ``parse`` and ``config`` do apart.
"""

from __future__ import annotations

import math
from collections import Counter

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
        matrix = np.zeros((n, max(len(vocabulary), 1)), dtype=np.float32)
        for row, bag in enumerate(bags):
            for token, count in bag.items():
                matrix[row, vocabulary[token]] = (1.0 + math.log(count)) * idf[token]
        if progress:
            progress(len(texts), len(texts), "embedding (local TF-IDF)")
        return normalize(matrix)


def _features(text: str) -> Counter[str]:
    bag: Counter[str] = Counter()
    for word, count in Counter(IDENTIFIER.findall(text)).items():
        if len(word) < 3 or word.lower() in STOP_WORDS:
            continue
        parts = subtokens(word)
        for part in parts:
            bag[part] += count
        if len(parts) > 1:
            bag[word.lower()] += count
    return bag
