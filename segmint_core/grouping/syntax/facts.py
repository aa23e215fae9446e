"""One parsed text, and what it says about given rows: names, definitions, the enclosing ones.

Every question is a tree-sitter query limited to the rows asked about, so a
large file with a small edit costs its parse and little more.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from segmint_core.grouping.syntax.languages import Grammar, loaded


@dataclass(frozen=True)
class Definition:
    name: str
    name_row: int  # the row its name is on
    start: int  # first and last row of the whole definition
    end: int
    scope: bool  # a function, method, class... (encloses code), not a field or constant


class Parsed:
    """A text, parsed with its grammar on first use."""

    def __init__(self, grammar: Grammar, lines: list[str]) -> None:
        self.grammar = grammar
        self.lines = lines
        self.source = "\n".join(lines).encode("utf-8", "surrogateescape")
        self._within: dict[tuple[int, int], list[str]] = {}
        self._used: dict[tuple[int, int], frozenset[str]] = {}

    @cached_property
    def tree(self) -> Any:
        return _TREES.tree(self.grammar.name, self.source)

    def definitions(self, first: int, last: int) -> list[Definition]:
        """The definitions touching rows ``first..last``: those named there and those enclosing them."""
        import tree_sitter

        _, query, _ = _loaded(self.grammar.name)
        cursor = tree_sitter.QueryCursor(query)
        cursor.set_point_range((first, 0), (last + 1, 0))
        root = self.tree.root_node
        found = []
        for _, captures in cursor.matches(root):
            top = captures.get("top")
            if top is not None and not self._at_top(top[0], root):
                continue  # a local, not the top-level statement the pattern names
            name, node = captures["name"][0], captures["def"][0]
            found.append(
                Definition(
                    _text(name),
                    name.start_point[0],
                    node.start_point[0],
                    node.end_point[0],
                    node.type in self.grammar.scopes,
                )
            )
        return found

    def _at_top(self, node: Any, root: Any) -> bool:
        """Whether ``node`` is a statement of the file's top level or of a class body."""
        parent = node.parent
        if parent == root:
            return True
        owner = parent.parent if parent is not None else None
        return owner is not None and owner.type in self.grammar.members_of

    def defined_and_enclosing(self, rows: set[int], at: int | None) -> tuple[set[str], Definition | None]:
        """Names defined on ``rows``, and the innermost scope whose body holds row ``at``
        (one query over the rows between them)."""
        wanted = rows | ({at} if at is not None else set())
        if not wanted:
            return set(), None
        defined: set[str] = set()
        best = None
        for d in self.definitions(min(wanted), max(wanted)):
            if d.name_row in rows:
                defined.add(d.name)
            if (
                at is not None
                and d.scope
                and d.start < at <= d.end
                and (best is None or (d.start, -d.end) > (best.start, -best.end))
            ):
                best = d
        return defined, best

    def function_rows(self, row: int) -> tuple[int, int] | None:
        """The first and last row of the innermost function (a named one, a method, a
        closure or callback such as a test's) holding ``row``, or None."""
        line = self.lines[row] if row < len(self.lines) else ""
        column = len(line[: len(line) - len(line.lstrip())].encode("utf-8", "surrogateescape"))
        node = self.tree.root_node.named_descendant_for_point_range((row, column), (row, column))
        while node is not None:
            if node.type in self.grammar.functions:
                return node.start_point[0], node.end_point[0]
            node = node.parent
        return None

    def names_on(self, rows: set[int]) -> list[str]:
        """The names (identifier leaves: never words of strings or comments) on ``rows``, in order."""
        if not rows:
            return []
        return [name for row, name in self._names_between(min(rows), max(rows)) if row in rows]

    def names_within(self, first: int, last: int) -> list[str]:
        """The names on rows ``first..last``, in order: read once per range, as the units
        of one test function each ask for its names."""
        names = self._within.get((first, last))
        if names is None:
            names = self._within[first, last] = [name for _, name in self._names_between(first, last)]
        return list(names)

    def names_used_within(self, first: int, last: int) -> frozenset[str]:
        """The distinct names on rows ``first..last``, kept per range: every unit of a
        long test function (a ``describe`` block) asks, and each reading them all again
        made such a file quadratic."""
        used = self._used.get((first, last))
        if used is None:
            used = self._used[first, last] = frozenset(self.names_within(first, last))
        return used

    def _names_between(self, first: int, last: int) -> list[tuple[int, str]]:
        """The names on rows ``first..last`` with their rows, in order: a query over those rows
        alone, since a unit's rows are a few of a file's (reading every name cost more)."""
        import tree_sitter

        _, _, query = _loaded(self.grammar.name)
        cursor = tree_sitter.QueryCursor(query)
        cursor.set_point_range((first, 0), (last + 1, 0))
        found = []
        for node in sorted(cursor.captures(self._holding(first, last)).get("name", []), key=lambda n: n.start_byte):
            row = node.start_point[0]
            if first <= row <= last:
                found.append((row, _text(node)))
        return found

    def _holding(self, first: int, last: int) -> Any:
        """The smallest node holding rows ``first..last``. A name is a leaf of one row, so
        every name on those rows is below it, and a query from it does not walk the rest
        of the tree (the statements before them, at every level) to reach them."""
        width = len(self.lines[last].encode("utf-8", "surrogateescape")) if last < len(self.lines) else 0
        return self.tree.root_node.descendant_for_point_range((first, 0), (last, width))


class _Trees:
    """The trees of the texts parsed last, by grammar and text, up to ``budget`` bytes of text.

    Grouping the same files again (a session regrouping after an edit elsewhere, a
    benchmark's repeats) parses only the texts that changed; a parse is most of
    what a file costs. A tree takes about 25 times its text in memory, hence the
    budget. Trees are only read (queries, node lookups), never edited, so one
    tree serves every ``Parsed`` of its text.
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._trees: OrderedDict[tuple[str, bytes], Any] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def tree(self, grammar: str, source: bytes) -> Any:
        key = (grammar, source)
        with self._lock:
            tree = self._trees.get(key)
            if tree is not None:
                self._trees.move_to_end(key)
                return tree
        parser, _, _ = _loaded(grammar)
        tree = parser.parse(source)
        if len(source) <= self.budget:
            with self._lock:
                if key not in self._trees:
                    self._trees[key] = tree
                    self._size += len(source)
                while self._size > self.budget:
                    (_, old), _ = self._trees.popitem(last=False)
                    self._size -= len(old)
        return tree

    def clear(self) -> None:
        with self._lock:
            self._trees.clear()
            self._size = 0


_TREES = _Trees(budget=2_000_000)


def forget_parses() -> None:
    """Drop the kept trees: the next grouping parses every file, as a first one does."""
    _TREES.clear()


def _text(node: Any) -> str:
    """A node's source text (a node of a tree parsed from bytes always has it)."""
    return (node.text or b"").decode("utf-8", "surrogateescape")


def _loaded(name: str) -> tuple[Any, Any, Any]:
    """The grammar's parser and queries: a grammar is only given (``grammar_for``) once they loaded."""
    found = loaded(name)
    assert found is not None
    return found
