"""``{"changes": [...]}`` as JSON bytes, fast, identical to ``json.dumps(to_dict())``.

A 100,000-line listing spends most of its time on hunk lines. A hunk still
holding the raw bytes git wrote is escaped at the byte level, never decoded
or split: a few ``bytes.replace`` calls for the backslash, the quote, tab
and carriage return, then ``'["' + lines joined by '", "' + '"]'``. A hunk
with bytes that are not UTF-8 or with another control character (rare in
code) goes through ``json.dumps`` line by line.

A ``ListingEncoder`` can also encode the hunks of each file patch ahead of
time, as ``capture`` parses them (its ``on_patch``): then most of the work
happens while git is still writing the rest of the diff.
"""

from __future__ import annotations

import json

from segmint_core.changes.capture import ChangeSet
from segmint_core.changes.models import Change, FilePatch, Hunk, wire_lines

_dumps = json.JSONEncoder(ensure_ascii=False).encode

# What json.dumps(ensure_ascii=False) escapes in a string, bar the control
# characters that code seldom holds; the backslash comes first.
_ESCAPES = ((b"\\", b"\\\\"), (b'"', b'\\"'), (b"\t", b"\\t"), (b"\r", b"\\r"))
# Every byte but those rare control characters ("\n" only separates lines).
_NOT_RARE_CONTROL = bytes(b for b in range(256) if b >= 0x20 or b in b"\t\n\r")


def encode_changes(changes: ChangeSet) -> bytes:
    return b"".join(ListingEncoder().parts(changes))


class ListingEncoder:
    """Encodes a listing; ``prepare`` encodes a file patch's hunk lines early."""

    def __init__(self) -> None:
        # id(hunk) -> (hunk, its lines as JSON array pieces); the hunk is held
        # so that its id cannot be reused by another object meanwhile.
        self._lines: dict[int, tuple[Hunk, tuple[bytes, ...]]] = {}

    def prepare(self, patch: FilePatch) -> None:
        for hunk in patch.hunks:
            self._lines[id(hunk)] = (hunk, _lines_json(hunk))

    def parts(self, changes: ChangeSet) -> list[bytes]:
        """The JSON as pieces, for writing out without joining them first."""
        parts = [b'{"changes": [']
        for n, change in enumerate(changes.changes):
            if n:
                parts.append(b", ")
            self._change(change, parts)
        parts.append(b"]}")
        return parts

    def _change(self, change: Change, parts: list[bytes]) -> None:
        text = _dumps(change.summary_dict()).encode("utf-8")
        # Keep to_dict()'s key order: "hunks" sits between "binary" and "old_mode".
        cut = text.index(b', "old_mode": ')
        parts.append(text[:cut] + b', "hunks": [')
        for n, hunk in enumerate(change.hunks):
            if n:
                parts.append(b", ")
            self._hunk(hunk, parts)
        parts.append(b"]" + text[cut:])

    def _hunk(self, h: Hunk, parts: list[bytes]) -> None:
        prepared = self._lines.pop(id(h), None)
        lines = prepared[1] if prepared is not None and prepared[0] is h else _lines_json(h)
        tail = f', "staged": {"true" if h.staged else "false"}'
        if h.parent_id is not None:
            tail += f', "parent_id": {_dumps(h.parent_id)}'
        parts += (
            f'{{"id": {_dumps(h.id)}, "old_start": {h.old_start}, "old_lines": {h.old_lines}, '
            f'"new_start": {h.new_start}, "new_lines": {h.new_lines}, "header": {_dumps(h.header)}, "lines": '.encode(
                "utf-8"
            ),
            *lines,
            (tail + "}").encode("utf-8"),
        )


def _lines_json(h: Hunk) -> tuple[bytes, ...]:
    """The hunk's ``lines`` as a JSON array, in pieces."""
    if h.body is not None:
        inside = _escaped_body(h.body)
        if inside is not None:
            return b'["', inside, b'"]'
    return (_dumps(wire_lines(h.lines)).encode("utf-8"),)


def _escaped_body(body: bytes) -> bytes | None:
    """The strings of the array, escaped as json.dumps would, straight from the
    bytes git wrote; None for a body that needs json.dumps line by line (bytes
    that are not UTF-8, or a rare control character)."""
    if body.translate(None, _NOT_RARE_CONTROL):
        return None
    if not body.isascii():
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return None  # undecodable bytes: wire_lines shows them as \xNN
    for raw, escaped in _ESCAPES:
        if raw in body:
            body = body.replace(raw, escaped)
    return body.replace(b"\n", b'", "')
