"""The definition a hunk edits inside, read from its file rather than from git's hunk header.

Git's function context (the text after a hunk's ``@@``) is, for a file no
``diff=`` attribute describes, the last unindented line above the hunk: for
a method of a Python or TypeScript class that is the class (``@@ class
Flask(Scaffold):``), so a message would say the class was fixed. The file
the diff was made from says which definition holds the hunk: the nearest
definition line above it that is indented less than the hunk's first line
(any block between them is stepped over, and the lines of a signature spread
over several). A hunk whose file is known gets that line as its section;
anything else keeps git's.

A docs hunk's section is the title of the section its first changed line is
in (``section_titles``), written as a Markdown heading (``# Installation``)
whatever the markup, so the message can say which part of a page changed.

A code hunk that only moves whitespace is marked ``in_string`` where the file's
lexer reads a changed line as starting inside a string literal (a Go raw string's
template, a SQL query in triple quotes): the hunk's lines lexed alone read as
code, and would claim formatting where the string's value changed.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from segmint_core.changes.markup import is_fence, section_titles
from segmint_core.changes.models import Change, Hunk
from segmint_core.changes.patch import hunk_header
from segmint_core.errors import SegmintError
from segmint_core.git import Git, ZERO_OID, read_blobs
from segmint_core.changes.texts import layers, split_lines
from segmint_core.planning.claims import lexer_for
from segmint_core.planning.facts import def_name, known_by_class

CODE_SUFFIXES = frozenset(
    {
        ".py",
        ".pyi",
        ".js",
        ".jsx",
        ".mjs",
        ".cjs",
        ".ts",
        ".tsx",
        ".mts",
        ".cts",
        ".go",
        ".rs",
        ".java",
        ".kt",
        ".cs",
        ".c",
        ".h",
        ".cc",
        ".cpp",
        ".hpp",
        ".rb",
        ".php",
        ".swift",
        ".scala",
    }
)
DOC_SUFFIXES = frozenset({".md", ".markdown", ".mdx", ".rst"})
MAX_SCAN = 5_000  # rows read upwards from a hunk, at most
MAX_LEXED = 1_000_000  # characters of a file lexed to find its strings, at most


class Sections:
    """The enclosing definitions of a change set's code hunks. The old texts they need are
    read when first asked for, all in one ``cat-file`` batch."""

    def __init__(self, changes: list[Change], git: Git | None) -> None:
        self._docs = {c.file_path for c in changes if _suffix(c.file_path) in DOC_SUFFIXES}
        self._code = {c.file_path for c in changes if _suffix(c.file_path) in CODE_SUFFIXES}
        wanted = self._docs | self._code
        self._git = git
        self._changes = changes
        self._layers = layers(changes, wanted) if git is not None else {}
        self._texts: dict[str, list[str]] | None = None  # old blob id -> its lines, once read
        self._titles: dict[str, list[str | None]] = {}  # old blob id of a docs file -> each line's section
        self._fences: dict[str, frozenset[int]] = {}  # old blob id of a docs file -> its rows a fence is open at
        self._in_strings: dict[str, frozenset[int]] = {}  # old blob id -> the rows starting inside a string
        self._layouts: dict[str, bool] = {}  # hunk id -> whether it only moves whitespace
        self._asked: set[str] = set()  # old blob ids read, or asked of git and not found

    def resolve(self, parts: list[tuple[Change, list[Hunk]]]) -> list[tuple[Change, list[Hunk]]]:
        """``parts`` with each code hunk's section set to the definition holding it, and each docs
        hunk's to the title of its section, where its file's text shows one; other hunks as they are."""
        found = {}
        for change, hunks in parts:
            doc = change.file_path in self._docs
            for hunk in hunks:
                layout = not doc and self._layout(change.file_path, hunk)
                old = self._old_text(hunk, doc or layout)
                if old is None:
                    continue
                line = self._section_title(hunk, old) if doc else enclosing_line(old, hunk)
                in_string = layout and self._in_string(change.file_path, hunk, old)
                in_fence = doc and self._in_fence(change.file_path, hunk, old)
                if line or in_string or in_fence:
                    found[hunk.id] = _resolved(hunk, line, in_string, in_fence)
        return [(change, [found.get(h.id, h) for h in hunks]) for change, hunks in parts]

    def _in_string(self, path: str, hunk: Hunk, old: list[str]) -> bool:
        """Whether a line the hunk removes, or the place it adds lines at, starts inside a string."""
        if hunk.old_lines and not _numbers(old, hunk):
            return False
        oid = self._old_oid(hunk)
        assert oid is not None  # asked only of a hunk whose old text was read
        if oid not in self._in_strings:
            self._in_strings[oid] = string_rows(path, old)
        return not _changed_rows(hunk).isdisjoint(self._in_strings[oid])

    def old_text(self, hunk: Hunk) -> list[str] | None:
        """The text of the file ``hunk`` changes as it was, from the batch; a file the batch did not
        ask for is read on its own (a plan that swaps a name asks whether its file still writes the
        old one)."""
        oid = self._old_oid(hunk)
        if oid is None or self._git is None:
            return None
        if self._texts is None:
            self._texts = self._read()
        if oid not in self._texts and oid not in self._asked:
            self._asked.add(oid)
            self._texts.update(self._blobs([oid]))
        return self._texts.get(oid)

    def _in_fence(self, path: str, hunk: Hunk, old: list[str]) -> bool:
        """Whether a fenced code block is open at the docs hunk's first line; in reStructuredText, a
        literal block open there that its changed lines are all in (none above them at the margin)."""
        oid = self._old_oid(hunk)
        assert oid is not None  # asked only of a hunk whose old text was read
        rst = _suffix(path) == ".rst"
        if oid not in self._fences:
            self._fences[oid] = literal_rows(old) if rst else fenced_rows(old)
        if rst and any(line[1:2].strip() for line in _to_last_change(hunk)):
            return False  # a line at the margin: the block ends before a line the hunk changes
        return hunk.old_start - 1 in self._fences[oid]

    def _section_title(self, hunk: Hunk, old: list[str]) -> str | None:
        oid = self._old_oid(hunk)
        assert oid is not None  # asked only of a hunk whose old text was read
        if oid not in self._titles:
            self._titles[oid] = section_titles(old)
        title = title_at(self._titles[oid], old, hunk)
        return f"# {title}" if title else None

    def _old_text(self, hunk: Hunk, whole: bool = False) -> list[str] | None:
        """``whole``: read whatever the hunk's indent (a docs hunk, a layout-only one)."""
        return self.old_text(hunk) if whole or _top_indent(hunk) else None

    def _layout(self, path: str, hunk: Hunk) -> bool:
        """Whether a code hunk only moves whitespace (``layout_only``), worked out once per hunk."""
        if hunk.id not in self._layouts:
            self._layouts[hunk.id] = path in self._code and layout_only(hunk)
        return self._layouts[hunk.id]

    def _old_oid(self, hunk: Hunk) -> str | None:
        """The blob the hunk's layer changes; None for a file it creates."""
        layer = self._layers.get(hunk.parent_id or hunk.id)
        oid = layer.old_oid if layer is not None else None
        return oid if oid is not None and oid != ZERO_OID else None

    def _read(self) -> dict[str, list[str]]:
        """The old texts of every docs hunk, every code hunk that may sit inside a definition
        (one indented) and every one that only moves whitespace."""
        self._asked = {
            oid
            for c in self._changes
            for h in c.hunks
            if (oid := self._old_oid(h)) is not None
            and (c.file_path in self._docs or _top_indent(h) or self._layout(c.file_path, h))
        }
        return self._blobs(sorted(self._asked))

    def _blobs(self, oids: list[str]) -> dict[str, list[str]]:
        """``oids``' texts as lines, in one ``cat-file`` batch; none where git cannot read them."""
        try:
            blobs = read_blobs(self._git, oids) if oids and self._git is not None else {}
        except SegmintError:
            blobs = {}
        return {oid: split_lines(blob.decode("utf-8", "surrogateescape")) for oid, blob in blobs.items()}


def enclosing_line(old: list[str], hunk: Hunk) -> str | None:
    """The definition line above ``hunk`` in ``old`` (the text its old side numbers) whose
    body holds the hunk's first line, as indented there (a method is known by it); None
    where that line is not indented, the text is not the hunk's, or no definition comes
    before a line indented less than the hunk. A constructor's or special method's hunk is its
    class's."""
    if not hunk.old_lines or not _numbers(old, hunk):
        return None
    first = hunk.old_start - 1
    bound = _top_indent(hunk)
    for row in range(first - 1, max(-1, first - 1 - MAX_SCAN), -1):
        if bound == 0:
            return None
        text = old[row]
        # a line opening with a closing bracket ends a signature or call spread over lines: no block
        if not text.strip() or _indent(text) >= bound or text.lstrip().startswith((")", "]")):
            continue
        if (name := def_name(text)) and not known_by_class(name):
            return text.rstrip()
        bound = _indent(text)  # a constructor is known by its class: ``FileResponse``, not ``__init__``
    return None


def title_at(titles: list[str | None], old: list[str], hunk: Hunk) -> str | None:
    """The section title of the hunk's first changed line in ``old`` (the text its old side
    numbers; for lines only added, of the line above them); None where the text is not the hunk's."""
    context = 0
    for line in hunk.lines:
        if line[:1] != " ":
            break
        context += 1
    else:
        return None
    if hunk.old_lines and not _numbers(old, hunk):
        return None
    first = hunk.old_start - 1
    row = first + context if hunk.lines[context][:1] == "-" else first + context - (1 if hunk.old_lines else 0)
    return titles[row] if 0 <= row < len(titles) else None


def layout_only(hunk: Hunk) -> bool:
    """Whether the hunk changes whitespace alone: its lines' other characters as they were."""
    removed = "\n".join(line[1:] for line in hunk.lines if line[:1] == "-")
    added = "\n".join(line[1:] for line in hunk.lines if line[:1] == "+")
    return removed != added and "".join(removed.split()) == "".join(added.split())


def fenced_rows(old: list[str]) -> frozenset[int]:
    """The rows (from 0) of a docs file a fenced code block is open at: the fences above them leave
    one open (a block's closing fence is such a row, its opening one is not)."""
    rows, inside = set(), False
    for row, line in enumerate(old):
        if inside:
            rows.add(row)
        inside ^= is_fence(line)
    return frozenset(rows)


# A directive whose body is code (``.. code-block:: python``, click's ``.. click:example::``).
_CODE_DIRECTIVE = re.compile(
    r"\s*\.\.\s+[\w:-]*(?:code|example|doctest|testcode|ipython|parsed-literal)[\w:-]*::", re.I
)


def literal_rows(old: list[str]) -> frozenset[int]:
    """The rows (from 0) of a reStructuredText file inside a literal block: those below a paragraph
    ending in ``::`` or a directive of code, blank or indented more than it, until one that is not."""
    rows: set[int] = set()
    opener: int | None = None  # the indent of the line that opened the block being read
    for row, line in enumerate(old):
        if opener is not None and (not line.strip() or _indent(line) > opener):
            rows.add(row)
            continue
        opener = None
        stripped = line.strip()
        directive = stripped.startswith("..")
        if directive and _CODE_DIRECTIVE.match(line) or not directive and stripped.endswith("::"):
            opener = _indent(line)
    return frozenset(rows)


def string_rows(path: str, old: list[str]) -> frozenset[int]:
    """The rows of ``old`` that start inside a string literal, as the file's lexer reads it: the
    line break before them is a string's. None are known of a file without a lexer or too long."""
    text = "\n".join(old)
    lexer = lexer_for(path)
    if lexer is None or len(text) > MAX_LEXED:
        return frozenset()
    from pygments.token import String

    rows: set[int] = set()
    row = 0
    for kind, value in lexer.get_tokens(text):
        breaks = value.count("\n")
        if breaks and kind in String:
            rows.update(range(row + 1, row + breaks + 1))
        row += breaks
    return frozenset(rows)


def _changed_rows(hunk: Hunk) -> set[int]:
    """The old rows (from 0) the hunk removes, and those it adds lines before."""
    rows, row = set(), hunk.old_start - 1 if hunk.old_lines else hunk.old_start
    for line in hunk.lines:
        mark = line[:1]
        if mark in ("-", "+"):
            rows.add(row)
        if mark in (" ", "-"):
            row += 1
    return rows


def _to_last_change(hunk: Hunk) -> list[str]:
    """The hunk's lines from its first to the last it adds or removes."""
    last = max((at for at, line in enumerate(hunk.lines) if line[:1] in "+-"), default=-1)
    return [line for line in hunk.lines[: last + 1] if line[:1] in " +-"]


def _numbers(old: list[str], hunk: Hunk) -> bool:
    """Whether ``old`` is the text the hunk's old side numbers: its first old line is there."""
    kept = next((line[1:] for line in hunk.lines if line[:1] in (" ", "-")), None)
    first = hunk.old_start - 1
    return kept is not None and first < len(old) and old[first] == kept


def _suffix(path: str) -> str:
    return PurePosixPath(path).suffix.lower()


def _top_indent(hunk: Hunk) -> int:
    """How far the hunk's first line that is not blank is indented (0: none is)."""
    top = next((line[1:] for line in hunk.lines if line[:1] in (" ", "+", "-") and line[1:].strip()), None)
    return _indent(top) if top is not None else 0


def _indent(line: str) -> int:
    expanded = line.expandtabs(8)
    return len(expanded) - len(expanded.lstrip())


def _resolved(hunk: Hunk, line: str | None, in_string: bool, in_fence: bool) -> Hunk:
    """``hunk`` with ``line`` as its section (where one was found), marked ``in_string`` and ``in_fence``."""
    header = (
        hunk_header(hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines, " " + line) if line else hunk.header
    )
    return Hunk(
        hunk.id,
        hunk.old_start,
        hunk.old_lines,
        hunk.new_start,
        hunk.new_lines,
        header,
        hunk.lines,
        staged=hunk.staged,
        parent_id=hunk.parent_id,
        in_string=in_string,
        in_fence=in_fence,
    )
