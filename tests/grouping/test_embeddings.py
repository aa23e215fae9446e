"""Embedding providers: the offline default, and the OpenAI-compatible one against a
local stand-in server (tests/grouping/standin.py, not a real model)."""

from __future__ import annotations

import importlib.util
import socket

import numpy as np
import pytest

from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.grouping.embeddings import embedding_text, get_provider
from segmint_core.grouping.embeddings.local import LocalProvider
from tests.grouping.standin import StandIn

TEXTS = [
    "src/auth.py\n@@ -1 +1 @@\n-def check_token(token):\n+def check_token(token, strict=False):",
    "tests/test_auth.py\n@@ -1 +1 @@\n+    check_token('', strict=True)",
    "docs/index.md\n@@ -1 +1 @@\n+Install with pip.",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_local_provider_is_deterministic_and_unit_norm() -> None:
    first = LocalProvider().embed(TEXTS)
    second = LocalProvider().embed(TEXTS)
    assert np.array_equal(first, second)
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0)
    sims = first @ first.T
    assert sims[0, 1] > sims[0, 2]  # check_token/strict shared; docs text is not


def test_embedding_text_is_path_header_and_capped_lines() -> None:
    text = embedding_text("a.py", "@@ -1 +1 @@", [f"+{n}" for n in range(500)])
    lines = text.split("\n")
    assert lines[:2] == ["a.py", "@@ -1 +1 @@"] and len(lines) == 202


def test_openai_compatible_provider_against_the_stand_in() -> None:
    with StandIn() as server:
        provider = get_provider("openai", Settings(base_url=server.base_url, api_key="k", embedding_model="m"))
        vectors = provider.embed(TEXTS)
    assert vectors.shape == (3, 16)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    path, body = server.requests[0]
    assert path == "/v1/embeddings" and body["model"] == "m" and body["input"] == TEXTS


def test_secrets_are_masked_before_they_leave() -> None:
    text = "config.py\n@@ -1 +1 @@\n+API_KEY = 'sk-abcdefghijklmnopqrstuvwxyz123456'\n+timeout = 3"
    with StandIn() as server:
        get_provider("openai", Settings(base_url=server.base_url, api_key="k")).embed([text])
    sent = server.requests[0][1]["input"][0]
    assert "sk-abc" not in sent and "timeout = 3" in sent


def test_missing_key_names_the_setting() -> None:
    with pytest.raises(SegmintError, match="OPENAI_API_KEY"):
        get_provider("openai", Settings())


def test_unreachable_endpoint_names_it() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    provider = get_provider("openai", Settings(base_url=url, api_key="k", timeout=2))
    with pytest.raises(SegmintError, match="Cannot reach the model endpoint .*SEGMINT_BASE_URL"):
        provider.embed(TEXTS)


@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is not None, reason="sentence-transformers is installed here"
)
def test_sentence_transformers_missing_is_a_clear_error() -> None:
    with pytest.raises(SegmintError, match="pip install 'segmint\\[embeddings\\]'"):
        get_provider("sentence-transformers", Settings())
