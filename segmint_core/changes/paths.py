"""Git's C-style path quoting, both ways.

Git quotes a path that holds a double quote, backslash, control character or (with
``core.quotePath``) a non-ASCII byte: ``"dir/caf\\303\\251 \\"x\\".txt"``.
"""

from __future__ import annotations

_ESCAPES = {
    "a": 7,
    "b": 8,
    "t": 9,
    "n": 10,
    "v": 11,
    "f": 12,
    "r": 13,
    '"': 34,
    "\\": 92,
}
_REVERSE = {v: k for k, v in _ESCAPES.items()}


def unquote(text: str) -> str:
    """The path inside a git-quoted string (``"..."``), or ``text`` if unquoted."""
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        return text
    body = text[1:-1]
    if "\\" not in body:
        return body
    out = bytearray()
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out += ch.encode("utf-8", "surrogateescape")
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif i + 3 < n and all(c in "01234567" for c in body[i + 1 : i + 4]):
            out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            out += ("\\" + nxt).encode("utf-8", "surrogateescape")
            i += 2
    return out.decode("utf-8", "surrogateescape")


def quote(path: str) -> str:
    """Quote ``path`` the way git does with ``core.quotePath=true``."""
    raw = path.encode("utf-8", "surrogateescape")
    if all(0x20 <= b < 0x7F and b not in (0x22, 0x5C) for b in raw):
        return path
    parts = ['"']
    for b in raw:
        if b in _REVERSE:
            parts.append("\\" + _REVERSE[b])
        elif 0x20 <= b < 0x7F:
            parts.append(chr(b))
        else:
            parts.append(f"\\{b:03o}")
    parts.append('"')
    return "".join(parts)


def split_two_paths(rest: str) -> tuple[str, str] | None:
    """Split the ``a/x b/y`` tail of a ``diff --git`` line into its two paths.

    Quoted halves are unambiguous. Unquoted paths may hold spaces: when both
    names are equal (the common case), the line is ``a/N b/N``, so split in the
    middle; otherwise split at the last `` b/``.
    """
    if rest.startswith('"'):
        end = closing_quote(rest, 0)
        if end < 0:
            return None
        first = rest[: end + 1]
        second = rest[end + 2 :]
        return unquote(first), unquote(second)
    if rest.endswith('"'):
        start = rest.rfind(' "')
        if start < 0:
            return None
        return rest[:start], unquote(rest[start + 1 :])
    n = len(rest)
    if n % 2 == 1:
        half = (n - 1) // 2
        left, right = rest[:half], rest[half + 1 :]
        if rest[half] == " " and left[2:] == right[2:]:
            return left, right
    idx = rest.rfind(" b/")
    if idx < 0:
        idx = rest.find(" ")
        if idx < 0:
            return None
    return rest[:idx], rest[idx + 1 :]


def closing_quote(text: str, start: int) -> int:
    """The index of the quote that closes the one at ``start`` (escapes skipped), or -1."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i
        i += 1
    return -1


def strip_prefix(path: str, prefix: str) -> str:
    return path[len(prefix) :] if path.startswith(prefix) else path
