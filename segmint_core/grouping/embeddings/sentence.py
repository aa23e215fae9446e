"""A local neural provider through sentence-transformers, when it is installed.

Optional (``pip install 'segmint[embeddings]'``): imported only when chosen.
The model is ``SEGMINT_EMBEDDING_MODEL`` unless that still names the OpenAI
default, in which case all-MiniLM-L6-v2 is used.
"""

from __future__ import annotations

import numpy as np

from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.grouping.embeddings.base import Progress, normalize

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
OPENAI_DEFAULT = Settings().embedding_model
BATCH = 64


class SentenceTransformersProvider:
    name = "sentence-transformers"
    similarity_floor = 0.35

    def __init__(self, settings: Settings) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise SegmintError(
                "The sentence-transformers provider needs the sentence-transformers package: "
                "pip install 'segmint[embeddings]' (or use --provider local)"
            ) from None
        model = settings.embedding_model if settings.embedding_model != OPENAI_DEFAULT else DEFAULT_MODEL
        try:
            self.model = SentenceTransformer(model, device="cpu")
        except Exception as exc:  # missing weights, no network for a download, ...
            raise SegmintError(
                f"Cannot load the sentence-transformers model {model} (check SEGMINT_EMBEDDING_MODEL): {exc}"
            ) from None

    def embed(self, texts: list[str], progress: Progress | None = None) -> np.ndarray:
        rows = []
        for start in range(0, len(texts), BATCH):
            if progress:
                progress(start, len(texts), "embedding with sentence-transformers")
            rows.append(np.asarray(self.model.encode(texts[start : start + BATCH], batch_size=BATCH)))
        if progress:
            progress(len(texts), len(texts), "embedding with sentence-transformers")
        return normalize(np.concatenate(rows) if rows else np.zeros((0, 1), dtype=np.float32))
