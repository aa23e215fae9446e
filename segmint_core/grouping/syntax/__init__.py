"""Definitions and uses from a real parse, for Python, Go, Rust, JavaScript and TypeScript.

A hunk is a fragment; its file is not. Each changed file with a grammar has
its new text parsed whole, once, when a unit first asks, and a unit's lines
are mapped onto the parse: the names on its added lines (identifiers, never
words in strings or comments), the names they define, the definition whose
body it edits, and, for a test, the names the test function holding it uses.
Removed lines are no longer in the new text; they are read as text
(``units.py``), as are files without a grammar or whose text cannot be had.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from segmint_core.changes.models import Change, Hunk
from segmint_core.git import Git
from segmint_core.grouping.syntax.facts import Parsed
from segmint_core.grouping.syntax.languages import grammar_for
from segmint_core.changes.texts import Layer, fill, layers


MAX_PARSED = 1_000_000


@dataclass(frozen=True)
class UnitSyntax:
    """What the new text's parse says of a unit (its removed lines are read as text)."""

    names: list[str]  # names on the added lines, in order
    defines: set[str]  # names defined on the added lines
    scope: str | None  # the definition whose body holds the first changed line
    function_names: frozenset[str]  # names used in the function holding the first added line


class SyntaxIndex:
    """Parses of the changed files, made on first use."""

    def __init__(self, changes: list[Change], git: Git | None, skip: AbstractSet[str] = frozenset()) -> None:
        wanted = {c.file_path for c in changes if c.file_path not in skip and grammar_for(c.file_path) is not None}
        self._git = git
        self._layers = layers(changes, wanted)
        self._filled = False
        self._parsed: dict[int, Parsed | None] = {}

    def unit(self, hunk: Hunk, start: int, end: int, *, function: bool = False) -> UnitSyntax | None:
        """What the parse says of the hunk's lines ``[start, end)``; None without a parse.
        ``function``: also the names used in the function holding them (read for tests)."""
        layer = self._layers.get(hunk.id)
        if layer is None:
            return None
        if not self._filled:
            fill(list({id(la): la for la in self._layers.values()}.values()), self._git)
            self._filled = True
        if layer.new is None or hunk.id not in layer.rows:
            return None
        old_rows, new_rows = layer.rows[hunk.id]
        lines = hunk.lines
        changed = [i for i in range(start, end) if lines[i][:1] in ("+", "-")]
        if not changed:
            return None
        parsed = self._parsed_new(layer)
        if parsed is None:
            return None
        added = {new_rows[i] for i in changed if lines[i][:1] == "+"}
        # A removed line is no longer in the new text: its names and definitions are
        # read from the line (``units.py``); where it was, the new text says.
        at = new_rows[changed[0]] if lines[changed[0]][:1] == "+" else _new_row_at(new_rows, changed[0])
        defined, found = parsed.defined_and_enclosing(added, at)
        function_names: frozenset[str] = frozenset()
        if function and at is not None:
            rows = parsed.function_rows(min(added) if added else at)
            function_names = parsed.names_used_within(*rows) if rows else frozenset()
        return UnitSyntax(parsed.names_on(added), defined, found.name if found else None, function_names)

    def _parsed_new(self, layer: Layer) -> Parsed | None:
        """The layer's new text, parsed once (not beyond ``MAX_PARSED`` characters: a
        file that large is read as text, so one bundle cannot hold grouping up)."""
        if id(layer) not in self._parsed:
            grammar, new = grammar_for(layer.path), layer.new
            fits = grammar is not None and new is not None and sum(map(len, new)) <= MAX_PARSED
            self._parsed[id(layer)] = Parsed(grammar, new) if fits and grammar and new is not None else None
        return self._parsed[id(layer)]


def _new_row_at(new_rows: list[int], index: int) -> int | None:
    """The new-text row where a removed line was: the next line kept (or added), else the one before."""
    for i in range(index + 1, len(new_rows)):
        if new_rows[i] >= 0:
            return new_rows[i]
    for i in range(index - 1, -1, -1):
        if new_rows[i] >= 0:
            return new_rows[i]
    return None
