"""Masking what looks like a secret before text goes to a remote model.

Invariant 6 of the design: nothing that looks like a secret is sent out. A
line is masked whole when it holds a known key shape (cloud keys, tokens,
private key blocks) or assigns a long opaque value to a name like
``password``/``token``/``api_key``.
"""

from __future__ import annotations

import re

_KEY_SHAPES = re.compile(
    r"AKIA[0-9A-Z]{16}"                       # AWS access key id
    r"|sk-[A-Za-z0-9_-]{20,}"                  # OpenAI-style secret keys
    r"|gh[pousr]_[A-Za-z0-9]{30,}"             # GitHub tokens
    r"|xox[baprs]-[A-Za-z0-9-]{10,}"           # Slack tokens
    r"|AIza[0-9A-Za-z_-]{35}"                  # Google API keys
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----"
    r"|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"  # JWT
)
_SECRET_ASSIGNMENT = re.compile(
    r"(?i)(pass(word|wd)?|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth)[\w.-]*"
    r"\s*[:=]\s*['\"]?[^\s'\"]{8,}"
)
MASK = "[line hidden: looks like a secret]"


def redact(text: str) -> str:
    """``text`` with every secret-looking line replaced by a marker (keeping its diff sign)."""
    if not (_KEY_SHAPES.search(text) or _SECRET_ASSIGNMENT.search(text)):
        return text
    out = []
    for line in text.split("\n"):
        if _KEY_SHAPES.search(line) or _SECRET_ASSIGNMENT.search(line):
            sign = line[:1] if line[:1] in "+- " else ""
            out.append(sign + MASK)
        else:
            out.append(line)
    return "\n".join(out)
