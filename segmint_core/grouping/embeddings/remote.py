"""An OpenAI-compatible embedding endpoint (OpenAI, Ollama, vLLM, LM Studio).

Used only when chosen (``--provider openai`` or ``SEGMINT_EMBEDDINGS=openai``).
Model and base URL come from the settings; errors name the setting to fix.
Lines that look like secrets are masked before anything leaves the machine.
"""

from __future__ import annotations

import numpy as np

from segmint_core.config import Settings
from segmint_core.grouping.embeddings.base import Progress, normalize
from segmint_core.llm import embed

BATCH = 64


class OpenAIProvider:
    name = "openai"
    similarity_floor = 0.3

    def __init__(self, settings: Settings) -> None:
        settings.require_key()  # fail before any work, naming the setting
        self.settings = settings

    def embed(self, texts: list[str], progress: Progress | None = None) -> np.ndarray:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), BATCH):
            if progress:
                progress(start, len(texts), f"embedding with {self.settings.embedding_model}")
            vectors.extend(embed(self.settings, texts[start : start + BATCH]))
        if progress:
            progress(len(texts), len(texts), f"embedding with {self.settings.embedding_model}")
        return normalize(np.array(vectors, dtype=np.float32))
