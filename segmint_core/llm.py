"""The one door to a remote model: chat and embeddings through ``openai``.

Works with any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio).
Every failure becomes a ``SegmintError`` that names the setting involved, so
callers can fall back to the offline path and say why. Every text sent is
masked here first (``redact``): whatever calls a model, nothing that looks
like a secret leaves the machine.

``SEGMINT_TIMEOUT`` bounds each call here in total, every attempt included:
a passing failure (a dropped connection, a busy or failing server) is tried
once more within the time left, and an attempt that ran out of time is not
tried again, so a slow endpoint costs the timeout once, never twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.redact import redact


RETRY_PAUSE = 0.5  # seconds before trying a passing failure again
PASSING_STATUSES = (408, 409, 429)  # and 500 up: what the openai client itself would try again


class ModelError(SegmintError):
    """The remote model could not be reached or refused the request."""


@dataclass(frozen=True)
class _Deadline:
    """SEGMINT_TIMEOUT for one call, however many attempts it takes."""

    settings: Settings
    at: float

    @classmethod
    def start(cls, settings: Settings) -> "_Deadline":
        return cls(settings, time.monotonic() + settings.timeout)

    def left(self) -> float:
        left = self.at - time.monotonic()
        if left <= 0:
            raise ModelError(_timed_out(self.settings))
        return left

    def attempt(self, call: Callable[[float], Any]) -> Any:
        """``call(seconds_left)``, and once more after a passing failure if time is left for it."""
        try:
            return call(self.left())
        except Exception as exc:
            if not _passing(exc) or self.at - time.monotonic() <= RETRY_PAUSE:
                raise
        time.sleep(RETRY_PAUSE)
        return call(self.left())


def _passing(exc: Exception) -> bool:
    status = getattr(exc, "status_code", None)
    return type(exc).__name__ == "APIConnectionError" or status in PASSING_STATUSES or (status or 0) >= 500


def _client(settings: Settings) -> Any:
    from openai import OpenAI  # imported here: only the remote path pays for it

    _check_base_url(settings.base_url)
    return OpenAI(
        api_key=settings.require_key(),
        base_url=settings.base_url,
        timeout=settings.timeout,
        max_retries=0,  # tried again by _Deadline, within the timeout
    )


def chat(
    settings: Settings, system: str, user: str, *, max_tokens: int = 600, response_format: dict | None = None
) -> str:
    """The model's reply to one system + user message.

    ``response_format`` (structured output, a JSON schema) is asked for where
    given; an endpoint that refuses it is asked once more without it.
    """
    if not settings.chat_model:
        raise ModelError("No chat model configured: set SEGMINT_CHAT_MODEL")
    request = {
        "model": settings.chat_model,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": redact(user)}],
        "max_tokens": max_tokens,
        "temperature": 0,
    }
    try:
        client, deadline = _client(settings), _Deadline.start(settings)

        def ask(**extra: Any) -> Any:
            return deadline.attempt(lambda left: client.chat.completions.create(**request, **extra, timeout=left))

        try:
            reply = ask(**({"response_format": response_format} if response_format else {}))
        except Exception as exc:
            if not response_format or type(exc).__name__ != "BadRequestError":
                raise
            reply = ask()
    except SegmintError:
        raise
    except Exception as exc:  # openai raises many types; all mean "no reply"
        raise ModelError(_describe(settings, exc)) from None
    choices = _field(settings, reply, "choices")
    first = choices[0] if choices else None
    content = getattr(getattr(first, "message", None), "content", None)
    if content is not None and not isinstance(content, str):
        raise _not_the_api(settings)
    text = (content or "").strip()
    if not text:
        raise ModelError(f"The chat model {settings.chat_model} returned no text")
    if response_format and getattr(first, "finish_reason", None) == "length":  # structured output cut: not JSON
        raise ModelError(f"The chat model {settings.chat_model}'s answer was cut at {max_tokens:,} tokens")
    return text


def embed(settings: Settings, texts: list[str]) -> list[list[float]]:
    """One embedding per text, in order."""
    try:
        client, texts_sent = _client(settings), [redact(t) for t in texts]
        reply = _Deadline.start(settings).attempt(
            lambda left: client.embeddings.create(model=settings.embedding_model, input=texts_sent, timeout=left)
        )
    except SegmintError:
        raise
    except Exception as exc:
        raise ModelError(_describe(settings, exc)) from None
    vectors = [item.embedding for item in sorted(_field(settings, reply, "data"), key=lambda d: d.index)]
    if len(vectors) != len(texts):
        raise ModelError(f"The embedding model returned {len(vectors)} vectors for {len(texts)} texts")
    return vectors


def _field(settings: Settings, reply: Any, name: str) -> Any:
    """``reply.<name>``; a reply that is not the API's object (the client hands back the text of an HTML
    page, a proxy's login say, or of JSON of another shape) is a ``ModelError`` naming the setting."""
    value = getattr(reply, name, None)
    if not isinstance(value, list):
        raise _not_the_api(settings)
    return value


def _not_the_api(settings: Settings) -> ModelError:
    return ModelError(
        f"The model endpoint {_endpoint(settings)} did not answer as an OpenAI-compatible API "
        "(check SEGMINT_BASE_URL / OPENAI_BASE_URL)"
    )


def _check_base_url(url: str | None) -> None:
    """An address the HTTP client can use, or an error naming the setting (not the client's "Invalid port")."""
    if url is None:
        return
    try:
        parts = urlsplit(url)
        _ = parts.port  # (raises on a port that is not a number)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ModelError(
            f"SEGMINT_BASE_URL (or OPENAI_BASE_URL) must be an http:// or https:// address such as "
            f"http://localhost:11434/v1, not {url!r}"
        )


def _describe(settings: Settings, exc: Exception) -> str:
    name = type(exc).__name__
    where = _endpoint(settings)
    if name == "APITimeoutError":  # reached, but slow: the URL is not what to check
        return _timed_out(settings)
    if name in ("APIConnectionError", "ConnectError"):
        return f"Cannot reach the model endpoint {where} (check SEGMINT_BASE_URL / OPENAI_BASE_URL)"
    if name == "AuthenticationError":
        return f"The model endpoint {where} rejected the API key (check OPENAI_API_KEY / SEGMINT_API_KEY)"
    if name == "NotFoundError":
        return f"The model endpoint {where} does not know the requested model (check SEGMINT_CHAT_MODEL / SEGMINT_EMBEDDING_MODEL)"
    message = str(exc).splitlines()[0] if str(exc) else name
    return f"The model endpoint {where} failed: {message}"


def _timed_out(settings: Settings) -> str:
    return (
        f"The model endpoint {_endpoint(settings)} did not answer within {settings.timeout:g} s (raise SEGMINT_TIMEOUT)"
    )


def _endpoint(settings: Settings) -> str:
    return settings.base_url or "https://api.openai.com/v1"
