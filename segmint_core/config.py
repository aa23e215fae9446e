"""Settings for the optional remote model (any OpenAI-compatible endpoint).

Everything works offline by default. A chat model (commit messages, group
summaries, PR prose) is used only when ``SEGMINT_CHAT_MODEL`` is set; remote
embeddings only when asked for (``--provider openai`` or
``SEGMINT_EMBEDDINGS=openai``). Values come from the environment, then from
``$XDG_CONFIG_HOME/segmint/config.toml`` (keys in lower case, same names
without the ``SEGMINT_`` prefix). Errors name the setting to fix.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields
from typing import Any
from pathlib import Path

from segmint_core.errors import SegmintError

ENV_PREFIX = "SEGMINT_"
# Keys of config.toml read by ``segmint check`` (``checking.command``), not by these settings.
CHECK_KEYS = ("check", "check_timeout")
SWITCHES = ("record_saves", "prefer_one_commit")  # the on/off settings
MAX_TIMEOUT = 3600.0  # seconds: an hour for one answer is already past waiting for it


@dataclass(frozen=True)
class Settings:
    base_url: str | None = None  # SEGMINT_BASE_URL, else OPENAI_BASE_URL
    api_key: str | None = None  # SEGMINT_API_KEY, else OPENAI_API_KEY
    chat_model: str | None = None  # SEGMINT_CHAT_MODEL: turns on model-written text
    embedding_model: str = "text-embedding-3-small"  # SEGMINT_EMBEDDING_MODEL
    embeddings: str = "local"  # SEGMINT_EMBEDDINGS: local | openai | sentence-transformers
    timeout: float = 30.0  # SEGMINT_TIMEOUT, seconds per request
    record_saves: bool = True  # SEGMINT_RECORD_SAVES: the terminal UI records saves as provenance
    prefer_one_commit: bool = True  # SEGMINT_PREFER_ONE_COMMIT: the offline engine asks the one-intent gate

    @property
    def chat_enabled(self) -> bool:
        return bool(self.chat_model)

    def require_key(self) -> str:
        """The API key, or a clear error naming where to set it.

        Local servers (Ollama, vLLM, LM Studio) accept any key, so a base URL
        without a key gets a placeholder instead of an error.
        """
        if self.api_key:
            return self.api_key
        if self.base_url:
            return "not-needed"
        raise SegmintError(
            "No API key for the remote model: set OPENAI_API_KEY (or SEGMINT_API_KEY), "
            "or SEGMINT_BASE_URL for a local OpenAI-compatible server"
        )


def load_settings(env: dict[str, str] | None = None) -> Settings:
    # A value of spaces alone is unset, and a value's own spaces (a key pasted with a newline) go.
    env = {k: v.strip() for k, v in (os.environ if env is None else env).items()}
    values: dict[str, Any] = dict(_file_values(env))  # each checked by _file_values, _seconds or _switch
    for f in fields(Settings):
        key = ENV_PREFIX + f.name.upper()
        if env.get(key):
            values[f.name] = env[key]
    values.setdefault("base_url", env.get("OPENAI_BASE_URL") or None)
    values.setdefault("api_key", env.get("OPENAI_API_KEY") or None)
    if "timeout" in values:
        values["timeout"] = _seconds(values["timeout"])
    for name in SWITCHES:
        if name in values:
            values[name] = _switch(values[name], ENV_PREFIX + name.upper())
    return Settings(**values)


def _seconds(raw: object) -> float:
    """SEGMINT_TIMEOUT as seconds: positive and at most ``MAX_TIMEOUT`` (0, a negative, nan, inf or
    1e308 would only surface later as the HTTP client's own error, naming no setting)."""
    try:  # (nan is refused below: it compares false; a list or table in config.toml is no number)
        seconds = float(raw) if isinstance(raw, (str, int, float)) else float("nan")
    except ValueError:
        seconds = float("nan")
    if isinstance(raw, bool) or not 0 < seconds <= MAX_TIMEOUT:
        raise SegmintError(f"SEGMINT_TIMEOUT must be a positive number of seconds up to {MAX_TIMEOUT:g}, not {raw!r}")
    return seconds


def _switch(raw: object, name: str) -> bool:
    """An on/off setting: true or false in config.toml; 1, 0, true, false, yes, no, on or off in the environment."""
    if isinstance(raw, bool):
        return raw
    word = str(raw).strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise SegmintError(f"{name} must be on or off (1/0, true/false, yes/no), not {raw!r}")


def _file_values(env: dict[str, str]) -> dict[str, object]:
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME", "~"), ".config")
    path = Path(base).expanduser() / "segmint" / "config.toml"
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SegmintError(f"Cannot read {path}: {exc}") from None
    data = {key: value for key, value in data.items() if key not in CHECK_KEYS}
    known = {f.name for f in fields(Settings)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise SegmintError(f"Unknown settings in {path}: {', '.join(unknown)}")
    for key, value in data.items():  # (a number where a name goes would fail far from here)
        if key not in ("timeout", *SWITCHES) and not isinstance(value, str):
            raise SegmintError(f"{key} in {path} must be a string in quotes, not {value!r}")
    return {
        key: value.strip() if isinstance(value, str) else value
        for key, value in data.items()
        if not (isinstance(value, str) and not value.strip())
    }
