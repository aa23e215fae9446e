"""Secret-looking lines never reach a remote model."""

from __future__ import annotations

from segmint_core.redact import MASK, redact


def test_key_shapes_and_secret_assignments_are_masked() -> None:
    text = "\n".join([
        "+aws = 'AKIAABCDEFGHIJKLMNOP'",
        "+password = 'hunter2hunter2'",
        " -----BEGIN RSA PRIVATE KEY-----",
        "+timeout = 30",
    ])
    assert redact(text).split("\n") == [f"+{MASK}", f"+{MASK}", f" {MASK}", "+timeout = 30"]


def test_plain_text_is_untouched() -> None:
    text = "+def check_token(token):\n+    return token == expected"
    assert redact(text) is text
