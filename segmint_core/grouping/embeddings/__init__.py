"""Embedding providers behind one interface; the default is local and offline."""

from __future__ import annotations

from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.grouping.embeddings.base import EmbeddingProvider, embedding_text

PROVIDERS = ("local", "openai", "sentence-transformers")


def get_provider(name: str, settings: Settings | None = None) -> EmbeddingProvider:
    """The provider called ``name``; a remote one checks its settings first."""
    if name == "local":
        from segmint_core.grouping.embeddings.local import LocalProvider

        return LocalProvider()
    if name not in PROVIDERS:
        raise SegmintError(f"Unknown embedding provider: {name} (choose one of {', '.join(PROVIDERS)})")
    if settings is None:
        from segmint_core.config import load_settings

        settings = load_settings()
    if name == "openai":
        from segmint_core.grouping.embeddings.remote import OpenAIProvider

        return OpenAIProvider(settings)
    from segmint_core.grouping.embeddings.sentence import SentenceTransformersProvider

    return SentenceTransformersProvider(settings)


__all__ = ["PROVIDERS", "EmbeddingProvider", "embedding_text", "get_provider"]
