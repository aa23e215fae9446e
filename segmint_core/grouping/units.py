"""Units: the pieces grouping clusters (hunk atoms, and hunkless changes).

A unit carries what the signals read, computed once from the diff text (no
file is read, so grouping depends only on the ChangeSet): Python names with
``tokenize``, other languages with a regex tokenizer that survives fragments;
identifiers on changed lines, the names it defines or edits, where it sits
in its file, the names its prose mentions.
"""

from __future__ import annotations

import io
import keyword
import re
import tokenize
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import lru_cache

from segmint_core.changes.changelog import RST_LINK
from segmint_core.changes.generated import is_generated
from segmint_core.changes.models import ADDED, DELETED, Change, Hunk
from segmint_core.changes.patch import section_of
from segmint_core.grouping import lexicon
from segmint_core.changes.kinds import CHANGELOG, CODE, DOCS, GENERATED, TEST, file_kind
from segmint_core.changes.split import part_ranges
from segmint_core.grouping.lexicon import identifiers
from segmint_core.grouping.splitting import atom_ranges
from segmint_core.grouping.syntax import SyntaxIndex

# A definition in most languages: def/class (Python), function/class/const
# (JS/TS), func (Go, with receiver), fn/struct/trait (Rust), shell functions.
_DEFINITION = re.compile(
    r"^\s*(?:(?:export|default|pub(?:\([^)]*\))?|public|private|protected|static|async|abstract|final|inline)\s+)*"
    r"(?:def|class|function\*?|func|fn|struct|enum|trait|interface|type|module|object|impl|const|let|var|macro_rules!)\s+"
    r"(?:\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)"
)
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]*)?=(?!=)")  # module-level NAME = ...
_ATTRIBUTE = re.compile(r"^\s*self\.([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]*)?=(?!=)")
_SHELL_FUNCTION = re.compile(r"^\s*(?:function\s+)?([A-Za-z_][A-Za-z0-9_-]*)\s*\(\)\s*\{")
_CODE_SPAN = re.compile(r"(?<!`)`+([^`]+?)`+|\b[a-z]+_[a-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b")
# Each starts only where its run of backticks or name characters starts: a long run (a hex string)
# is read once, not once per character.
_CALLABLE_HEAD = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)\s*\(")  # C-like "int foo(void) {"
_NOT_PLAIN_PYTHON = re.compile(r"[\"'#\\\x00-\x08\x0b-\x1f\x7f]|(?<![A-Za-z0-9_])\.?[0-9][0-9.]*[A-Za-z_]")
# Comments and string literals of C-like languages, within a line.
_C_LIKE = (
    ".go",
    ".rs",
    ".js",
    ".mjs",
    ".cjs",
    ".jsx",
    ".ts",
    ".mts",
    ".cts",
    ".tsx",
    ".c",
    ".h",
    ".cc",
    ".cpp",
    ".hpp",
    ".java",
    ".kt",
    ".swift",
    ".cs",
    ".scala",
)
_C_NOISE = re.compile(r"//.*|/\*.*?\*/|^\s*\*.*|\"(?:\\.|[^\"\\\n])*\"|`[^`\n]*`|'(?:\\.|[^'\\\n]){2,}'", re.M)
# A heading in a changelog: "## 0.12.0", "Version 8.1.3", an rst underline.
HEADING = re.compile(r"^\s*(?:#{1,6}\s|version\s|v?\d+\.\d+|[-=~^]{3,}\s*$)", re.I)
# Version numbers tie a release's changelog heading to its version bump.
_VERSION = re.compile(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)*(?:(?:a|b|rc|dev|post)\d*)?)(?![\w.])")


@dataclass(eq=False)
class Unit:
    """One atom of a hunk (``hunk`` set, lines ``[start, end)``), or a whole change
    (``hunk`` None): a hunkless one, or a generated file kept in one piece."""

    index: int
    change: Change
    hunk: Hunk | None
    start: int = 0
    end: int = 0
    kind: str = CODE
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    idents: set[str] = field(default_factory=set)  # identifiers on changed lines
    context_idents: set[str] = field(default_factory=set)
    defines: set[str] = field(default_factory=set)  # defined, renamed or removed here
    scope: str | None = None  # the enclosing definition it edits
    mentions: set[str] = field(default_factory=set)  # code names a prose unit cites
    position: int = 0  # old-side line of its first change
    release: bool = False  # a changelog hunk that adds a heading (a release block)
    calls: set[str] = field(default_factory=set)  # a test's: names its test function uses (parsed files)
    whole_lines: int = 0  # changed lines of a whole generated file (never read)

    @property
    def path(self) -> str:
        return self.change.file_path

    @property
    def size(self) -> int:
        return self.whole_lines or len(self.added) + len(self.removed)

    @property
    def generated(self) -> bool:
        return self.kind == GENERATED

    @property
    def lines(self) -> list[str]:
        return self.hunk.lines[self.start : self.end] if self.hunk is not None else []

    @property
    def flavour(self) -> str:
        """The file kind, with release blocks of a changelog told apart."""
        return "changelog-release" if self.release else self.kind

    @property
    def changes_names(self) -> set[str]:
        """Names whose definition or body this unit edits."""
        return self.defines | ({self.scope} if self.scope else set())

    def changes_name(self, name: str) -> bool:
        """Whether ``name`` is among ``changes_names``, without building them (a unit of a
        large file defines thousands, and reasons and summaries ask once per name)."""
        return name in self.defines or (bool(self.scope) and name == self.scope)


def build_units(
    changes: list[Change],
    generated: Collection[str] | None = None,
    syntax: SyntaxIndex | None = None,
    cuts: dict[str, list[int]] | None = None,
) -> list[Unit]:
    """The units of ``changes``. A file in ``generated`` (default: those generated by
    name, ``segmint_core.changes.generated``) is one unit whose lines are never read.
    With ``syntax``, names and definitions in files it parses come from the parse.
    ``cuts``: per hunk id, more places to cut its atoms (where the recorded intent changes)."""
    units: list[Unit] = []
    for change in changes:
        is_made = change.file_path in generated if generated is not None else is_generated(change.file_path)
        if is_made and change.hunks:
            units.append(_generated(len(units), change))
            continue
        kind = file_kind(change.file_path)
        if not change.hunks:
            units.append(_hunkless(len(units), change, kind))
            continue
        # Unstaged hunks stacked on staged ones in one file are kept whole: a
        # part of one would apply to the index, not to HEAD, so it could not be
        # committed on its own. A file added or deleted is one intent (a new or
        # deleted changelog would otherwise be cut at every entry, and go to as
        # many commits each adding or removing it).
        # A new file written under two recorded tasks is cut where the task changes, and only there.
        stacked = change.staged_patch is not None and change.unstaged_patch is not None
        whole = stacked or change.status in (ADDED, DELETED)
        for hunk in change.hunks:
            wanted = (cuts or {}).get(hunk.id, ())
            if whole:
                ranges = (
                    part_ranges(hunk.lines, list(wanted))
                    if wanted and change.status == ADDED and not stacked
                    else [(0, len(hunk.lines))]
                )
            else:
                ranges = atom_ranges(hunk, kind, wanted)
            old_lines = _old_lines_before(hunk.lines) if len(ranges) > 1 else None
            for start, end in ranges:
                units.append(_atom(len(units), change, hunk, start, end, kind, syntax, old_lines))
    return units


def _old_lines_before(lines: list[str]) -> list[int]:
    """For each line of a hunk, how many old-side lines (context and removed) come before it:
    read once per hunk, not once per atom (a hunk of 40,000 lines has thousands)."""
    counts = [0] * (len(lines) + 1)
    for i, line in enumerate(lines):
        counts[i + 1] = counts[i] + (line[:1] in (" ", "-"))
    return counts


def _hunkless(index: int, change: Change, kind: str) -> Unit:
    unit = Unit(index, change, None, kind=kind)
    names = {lexicon.stem(change.file_path)}
    if change.old_path:
        names.add(lexicon.stem(change.old_path))
    unit.idents = {n for n in names if n}
    return unit


def _generated(index: int, change: Change) -> Unit:
    unit = _hunkless(index, change, GENERATED)
    unit.whole_lines = sum(changed_lines(h) for h in change.hunks)
    return unit


def changed_lines(hunk: Hunk) -> int:
    """How many lines ``hunk`` adds or removes, counted on its raw text when it was
    never split into lines (a generated file's hunk of 100,000 lines stays bytes)."""
    if hunk.body is not None:
        body = hunk.body
        return body.count(b"\n+") + body.count(b"\n-") + (body[:1] in (b"+", b"-"))
    return sum(1 for line in hunk.lines if line[:1] in ("+", "-"))


def _atom(
    index: int,
    change: Change,
    hunk: Hunk,
    start: int,
    end: int,
    kind: str,
    syntax: SyntaxIndex | None = None,
    old_lines: list[int] | None = None,
) -> Unit:
    """``old_lines``: the hunk's ``_old_lines_before``, where it has several atoms."""
    unit = Unit(index, change, hunk, start, end, kind)
    lines = hunk.lines
    old = hunk.old_start if hunk.old_lines else hunk.old_start + 1
    first_change = None
    old += (old_lines or _old_lines_before(lines[:start]))[start]
    context: list[str] = []
    for i in range(start, end):
        line = lines[i]
        sign, text = line[:1], line[1:]
        if sign == "+":
            unit.added.append(text)
        elif sign == "-":
            unit.removed.append(text)
        elif sign == " ":
            context.append(text)
        if sign in ("+", "-") and first_change is None:
            first_change = i
    unit.position = old + sum(1 for line in lines[start : first_change or start] if line[:1] in (" ", "-"))
    changed_text = "\n".join(unit.added + unit.removed)
    if kind == CHANGELOG:
        unit.release = any(line[:1] == "+" and HEADING.match(line[1:]) for line in lines)
    if kind in (CHANGELOG, DOCS):
        # Prose: only code-like words count as names (not "state" or "shared").
        unit.mentions = _mentions(changed_text) | versions(changed_text)
        unit.idents = set(unit.mentions)
        unit.context_idents = _mentions("\n".join(context)) - unit.idents
        unit.scope = _scope(lines, first_change if first_change is not None else start, section_of(hunk.header))
        return unit
    parsed = syntax.unit(hunk, start, end, function=kind == TEST) if syntax is not None else None
    if parsed is not None:  # added lines from the parse, removed ones read as text
        unit.idents = {n for n in parsed.names if _is_name(n)} | _names(change.file_path, unit.removed)
        unit.defines = {n for n in parsed.defines if _is_name(n)} | definitions(unit.removed)
        unit.scope = parsed.scope if parsed.scope and _is_name(parsed.scope) else None
        unit.calls = set(_called(parsed.function_names) - unit.defines - {unit.scope})
    else:
        unit.idents = _names(change.file_path, unit.added + unit.removed)
        unit.defines = definitions(unit.added) | definitions(unit.removed)
        unit.scope = _scope(lines, first_change if first_change is not None else start, section_of(hunk.header))
    unit.idents |= versions(changed_text)
    unit.context_idents = set(identifiers("\n".join(context))) - unit.idents
    return unit


def _names(path: str, lines: list[str]) -> set[str]:
    """Names on code lines: Python's read with ``tokenize`` where the fragment allows, else by
    regex (without the comments and string literals of C-like languages)."""
    if not lines:
        return set()
    text = "\n".join(lines)
    if path.endswith((".py", ".pyi")) and not _plain_python(text):
        names = python_names(lines)
        if names is not None:
            return names
    if path.endswith(_C_LIKE):
        text = _C_NOISE.sub(" ", text)
    return set(identifiers(text))


def _plain_python(text: str) -> bool:
    """No string, comment, backslash, control or non-ASCII character, nor a number
    holding a letter (``1e10``, ``0x1f``, ``1_000``): ``tokenize`` would read
    the very names the regex does, ten times slower."""
    return text.isascii() and _NOT_PLAIN_PYTHON.search(text) is None


@lru_cache(maxsize=32)
def _called(function_names: frozenset[str]) -> frozenset[str]:
    """The names a test function uses, sifted once for all the units inside it (a long
    ``describe`` block holds hundreds; sifting its names for each was quadratic)."""
    return frozenset(n for n in function_names if _is_name(n))


def _is_name(name: str) -> bool:
    return len(name) > 2 and name.lower() not in lexicon.STOP_WORDS


def python_names(lines: list[str]) -> set[str] | None:
    """Names in Python code lines, read with ``tokenize`` (so words inside strings
    and comments do not count); None when the fragment does not tokenize."""
    source = "\n".join(line.strip() for line in lines) + "\n"
    names: set[str] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME and len(token.string) > 2 and not keyword.iskeyword(token.string):
                if token.string.lower() not in lexicon.STOP_WORDS:
                    names.add(token.string)
    except (tokenize.TokenError, SyntaxError):  # an unclosed bracket or string in a fragment
        return None
    return names


def versions(text: str) -> set[str]:
    """Version numbers in ``text``, as pseudo-identifiers (``version 1.2.0``)."""
    return {f"version {m}" for m in _VERSION.findall(text)} if "." in text else set()


def definitions(lines: list[str]) -> set[str]:
    """Names defined (def, class, function, assignment...) on these lines."""
    names = set()
    for line in lines:
        m = _DEFINITION.match(line) or _ASSIGNMENT.match(line) or _ATTRIBUTE.match(line) or _SHELL_FUNCTION.match(line)
        if m and len(m.group(1)) > 2 and m.group(1).lower() not in lexicon.STOP_WORDS:
            names.add(m.group(1))
    return names


def _scope(lines: list[str], index: int, section: str) -> str | None:
    """The innermost definition enclosing line ``index``: a definition line above
    it in the hunk (context or added) with less indentation, else git's section
    heading for the hunk."""
    target = _indent(lines[index][1:]) if index < len(lines) else 0
    if target == 0:
        return None
    for i in range(index - 1, -1, -1):
        line = lines[i]
        if line[:1] == "-" or not line[1:].strip():
            continue
        text = line[1:]
        m = _DEFINITION.match(text)
        if m and _indent(text) < target:
            return m.group(1)
        if _indent(text) == 0:
            return _head_name(text)  # a top-level line that is no definition we know
    return _head_name(section.strip()) if section.strip() else None


def _head_name(text: str) -> str | None:
    m = _DEFINITION.match(text)
    if m is None and text.rstrip().endswith(("{", ")")):
        m = _CALLABLE_HEAD.search(text)
    name = m.group(1) if m else None
    return name if name and len(name) > 2 and name.lower() not in lexicon.STOP_WORDS else None


def _indent(text: str) -> int:
    return len(text[: len(text) - len(text.lstrip(" \t"))].expandtabs(4))


def _mentions(text: str) -> set[str]:
    """Code names cited in prose: code spans (``name``, `name`, {func}`name`) and
    snake_case or camelCase words. A reStructuredText link's address is no code span: pluggy's
    ```#178 <https://github.com/pytest-dev/pluggy/issues/178>`_`` names no ``github`` nor ``pluggy``."""
    names: set[str] = set()
    for m in _CODE_SPAN.finditer(RST_LINK.sub(r"\1", text)):
        span = m.group(1) if m.group(1) is not None else m.group(0)
        names.update(identifiers(span))
    return names
