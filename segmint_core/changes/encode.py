"""``{"changes": [...]}`` as JSON text, fast, identical to ``json.dumps(to_dict())``.

A 100,000-line listing spends most of its time escaping hunk lines, yet most
hunks need no escaping at all. A hunk whose text holds no quote, backslash,
control character or undecodable byte (checked with one ``bytes.translate``) is
written as ``'["' + '", "'.join(lines) + '"]'``; any other goes through
``json.dumps``.
"""

from __future__ import annotations

import json

from segmint_core.changes.capture import ChangeSet
from segmint_core.changes.models import Change, Hunk, wire_lines

_dumps = json.JSONEncoder(ensure_ascii=False).encode
_NEEDS_ESCAPE = bytes(range(32)) + b'"\\'
# surrogateescape maps undecodable bytes to U+DC80..U+DCFF, which "surrogatepass"
# encodes as ED B2 xx or ED B3 xx; valid UTF-8 never holds those pairs.
_UNDECODABLE = (b"\xed\xb2", b"\xed\xb3")


def encode_changes(changes: ChangeSet) -> str:
    parts = ['{"changes": [']
    for n, change in enumerate(changes.changes):
        if n:
            parts.append(", ")
        parts.append(_change(change))
    parts.append("]}")
    return "".join(parts)


def _change(change: Change) -> str:
    text = _dumps(change.summary_dict())
    # Keep to_dict()'s key order: "hunks" sits between "binary" and "old_mode".
    cut = text.index(', "old_mode": ')
    hunks = ", ".join(_hunk(h) for h in change.hunks)
    return f'{text[:cut]}, "hunks": [{hunks}]{text[cut:]}'


def _hunk(h: Hunk) -> str:
    text = (
        f'{{"id": {_dumps(h.id)}, "old_start": {h.old_start}, "old_lines": {h.old_lines}, '
        f'"new_start": {h.new_start}, "new_lines": {h.new_lines}, "header": {_dumps(h.header)}, '
        f'"lines": {_lines(h)}, "staged": {"true" if h.staged else "false"}'
    )
    if h.parent_id is not None:
        text += f', "parent_id": {_dumps(h.parent_id)}'
    return text + "}"


def _lines(h: Hunk) -> str:
    # A hunk straight from the parser still holds its unsplit body: use it.
    text = "".join(h.lines) if h.body is None else h.body
    if h.body is None and not h.lines:
        return "[]"
    if _plain(text):
        if h.body is not None:
            return '["' + text.replace("\n", '", "') + '"]'
        return '["' + '", "'.join(h.lines) + '"]'
    return _dumps(wire_lines(h.lines))


def _plain(text: str) -> bool:
    """No quote, backslash, control character (but the "\\n" between body lines)
    or undecodable byte: the text can go into JSON as it is."""
    ascii_only = text.isascii()
    raw = text.encode("ascii") if ascii_only else text.encode("utf-8", "surrogatepass")
    if len(raw.translate(None, _NEEDS_ESCAPE)) != len(raw) - raw.count(b"\n"):
        return False
    return ascii_only or not any(marker in raw for marker in _UNDECODABLE)
