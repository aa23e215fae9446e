"""``{"changes": [...]}`` as JSON bytes, fast, identical to ``json.dumps(to_dict())``.

A 100,000-line listing spends most of its time on hunk lines, yet most hunks
need no escaping at all. A hunk still holding the raw bytes git wrote, with no
quote, backslash, control character or non-ASCII byte (one ``bytes.translate``
tells), is written straight from those bytes: ``'["' + lines joined by '", "'
+ '"]'``, never decoded. Any other hunk goes through ``json.dumps``.
"""

from __future__ import annotations

import json

from segmint_core.changes.capture import ChangeSet
from segmint_core.changes.models import Change, Hunk, wire_lines

_dumps = json.JSONEncoder(ensure_ascii=False).encode
# Bytes JSON would escape; "\n" is absent: it only separates the lines.
_NEEDS_ESCAPE = bytes(b for b in range(32) if b != 0x0A) + b'"\\'


def encode_changes(changes: ChangeSet) -> bytes:
    return b"".join(encode_parts(changes))


def encode_parts(changes: ChangeSet) -> list[bytes]:
    """The JSON as pieces, for writing out without joining them first."""
    parts = [b'{"changes": [']
    for n, change in enumerate(changes.changes):
        if n:
            parts.append(b", ")
        _change(change, parts)
    parts.append(b"]}")
    return parts


def _change(change: Change, parts: list[bytes]) -> None:
    text = _dumps(change.summary_dict()).encode("utf-8")
    # Keep to_dict()'s key order: "hunks" sits between "binary" and "old_mode".
    cut = text.index(b', "old_mode": ')
    parts.append(text[:cut] + b', "hunks": [')
    for n, hunk in enumerate(change.hunks):
        if n:
            parts.append(b", ")
        _hunk(hunk, parts)
    parts.append(b"]" + text[cut:])


def _hunk(h: Hunk, parts: list[bytes]) -> None:
    parts.append((
        f'{{"id": {_dumps(h.id)}, "old_start": {h.old_start}, "old_lines": {h.old_lines}, '
        f'"new_start": {h.new_start}, "new_lines": {h.new_lines}, "header": {_dumps(h.header)}, "lines": '
    ).encode("utf-8"))
    body = h.body
    if body is not None and _plain(body):
        parts += (b'["', body.replace(b"\n", b'", "'), b'"]')
    else:
        parts.append(_dumps(wire_lines(h.lines)).encode("utf-8"))
    tail = f', "staged": {"true" if h.staged else "false"}'
    if h.parent_id is not None:
        tail += f', "parent_id": {_dumps(h.parent_id)}'
    parts.append((tail + "}").encode("utf-8"))


def _plain(raw: bytes) -> bool:
    """ASCII with nothing to escape but the newlines between lines."""
    return raw.isascii() and len(raw.translate(None, _NEEDS_ESCAPE)) == len(raw)
