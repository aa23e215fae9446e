"""Masking what looks like a secret before text goes to a remote model.

Invariant 6 of the design: nothing that looks like a secret is sent out. A
line is masked whole when it holds a known key shape (cloud keys, tokens, a
bearer token, a password in a URL), lies in a private key block, or gives a
value shaped like a secret (a quoted literal, or a bare value ending the
line) to a name whose last word names one: ``password``, ``DB_PASS``,
``api_key``, ``authToken``, ``client_secret``. Names are read by their words
and keys by their shapes, never by a substring: ``tokenizer = Tokenizer()``,
``author = ...``, ``bypass_cache``, ``keyboard`` and ``desk-...`` stay, and
so does a secret's name given a call or a lookup (``os.environ["TOKEN"]``).
"""

from __future__ import annotations

import re

_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")
_KEY_SHAPES = re.compile(
    r"(?<![A-Za-z0-9_-])(?:AKIA[0-9A-Z]{16}(?![0-9A-Z])"  # AWS access key id
    r"|sk-[A-Za-z0-9_-]{20,}"  # OpenAI-style secret keys
    r"|gh[pousr]_[A-Za-z0-9]{30,}"  # GitHub tokens
    r"|xox[baprs]-[A-Za-z0-9-]{10,}"  # Slack tokens
    r"|AIza[0-9A-Za-z_-]{35}"  # Google API keys
    r"|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})"  # JWT
    rf"|{_KEY_BEGIN.pattern}"  # and its body, line by line up to END
    r"|\bBearer\s+[A-Za-z0-9._~+/-]{16,}"
    r"|\b[a-z][a-z0-9+.-]*://[^\s:/@'\"]+:[^\s/@'\"]+@"  # user:password@ in a URL
)
_KEY_END = re.compile(r"-----END [A-Z ]*PRIVATE KEY-----")
# A line of a private key's body: base64, a header (``Proc-Type: ...``) or its END; anything else ends it.
_KEY_BODY = re.compile(r"[+\- ]?\s*(?:[A-Za-z0-9+/=]*|[\w-]+: .*|-----END [A-Z ]*PRIVATE KEY-----.*)$")
# A name (maybe quoted, dotted or dashed) given or compared to a value: `name = `, `name: `, `"name": `,
# `name := `, `name => `, `name == `.
_ASSIGNED = re.compile(r"""(?<![\w$.])(['"]?)(?P<name>[A-Za-z_$][\w.$-]*)\1\s*(?:(?P<compared>[!=]==?)|:=|=>|:|=)\s*""")
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")  # snake_case, kebab-case, camelCase, UPPER_CASE
_QUOTED = re.compile(r"""(?:[\w.\[\]|, ]*=\s*)?(['"])([^'"]{8,})\1""")  # maybe after a type: `x: str = "..."`
_BARE = re.compile(r"""[^\s'"()\[\]{}<>,;]{8,}(?=[\s,;]|$)""")  # an .env, YAML or --flag value; not a call
SECRET_WORDS = {
    "password",
    "passwd",
    "pass",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "credential",
    "credentials",
    "auth",
    "authorization",
}
KEY_KINDS = {"api", "access", "private", "secret", "signing", "encryption", "client", "master", "session"}
MASK = "[line hidden: looks like a secret]"


def redact(text: str) -> str:
    """``text`` with every secret-looking line replaced by a marker (keeping its diff sign)."""
    if not (_KEY_SHAPES.search(text) or any(_secret_name(m["name"]) for m in _ASSIGNED.finditer(text))):
        return text
    out, in_key, masked = [], False, False
    for line in text.split("\n"):
        in_key = in_key and bool(_KEY_BODY.match(line))
        if in_key or _KEY_SHAPES.search(line) or _assigns_secret(line):
            sign = line[:1] if line[:1] in "+- " else ""
            out.append(sign + MASK)
            masked = True
            in_key = (in_key or bool(_KEY_BEGIN.search(line))) and not _KEY_END.search(line)
        else:
            out.append(line)
    return "\n".join(out) if masked else text


def _assigns_secret(line: str) -> bool:
    return any(
        _secret_name(m["name"]) and _secret_value(line[m.end() :], compared=bool(m["compared"]))
        for m in _ASSIGNED.finditer(line)
    )


def _secret_name(name: str) -> bool:
    """Whether the last word of ``name`` (its last dotted part) names a secret: ``db_password``,
    ``GITHUB_TOKEN``, ``authToken``, ``AWS_SECRET_ACCESS_KEY``; not ``tokenizer`` or ``token_count``."""
    words = [w.lower() for w in _WORDS.findall(name.rsplit(".", 1)[-1])]
    if not words:
        return False
    return words[-1] in SECRET_WORDS or (words[-1] == "key" and len(words) > 1 and words[-2] in KEY_KINDS)


def _secret_value(rest: str, *, compared: bool) -> bool:
    """A literal, or (given, not compared: ``token == expected`` names no secret) a bare value."""
    return bool(_QUOTED.match(rest) or (not compared and _BARE.match(rest)))
