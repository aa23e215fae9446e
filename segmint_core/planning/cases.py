"""The test cases a change adds, changes or removes, each named in words.

A test's name is often the best sentence a change has about its behaviour:
``test_empty_config_gives_the_defaults`` says "empty config gives the
defaults", ``it("rejects a negative limit")`` says it outright. Read from the
diff alone: a case is added where its opening line is added (``def test_``,
``func TestX``, ``it("...")``, ``test("...")`` in a test file, a Rust ``fn``
under ``#[test]`` in any file), changed where lines inside it change (git's
hunk header or the hunk's own lines name the case), removed where its opening
line goes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from segmint_core.changes.kinds import is_test_path
from segmint_core.changes.models import Hunk

ADDED = "added"
CHANGED = "changed"
REMOVED = "removed"

_PY = re.compile(r"^\s*(?:async\s+)?def\s+(test_?\w*)\s*\(")
_GO = re.compile(r"^func\s+(Test\w+)\s*\(")
_JS = re.compile(r"""^\s*(?:it|test)(?:\.only|\.skip|\.each\([^)]*\))?\s*\(\s*(["'`])(.+?)\1""")
_RUST_ATTRIBUTE = re.compile(r"^\s*#\[(?:\w+::)?test\]")
_RUST_FN = re.compile(r"^\s*(?:pub\s+)?(?:async\s+)?fn\s+(\w+)\s*\(")
_OTHER_DEF = re.compile(r"^(?:class\s|func\s|(?:pub\s+)?fn\s|(?:async\s+)?def\s)|^\s+(?:async\s+)?def\s")
_CLOSING = (")", "]", "}")
_DECORATOR = re.compile(r"^\s*@\w")
_HEADER = re.compile(r"^@@[^@]*@@\s?(.*)$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


@dataclass(frozen=True)
class Case:
    path: str
    name: str  # as written: ``test_empty_config``, ``TestEmptyConfig``, ``rejects a negative limit``
    status: str  # ADDED, CHANGED or REMOVED

    @property
    def words(self) -> str:
        return words(self.name)


def words(name: str) -> str:
    """A test's name as words: ``test_empty_config`` and ``TestEmptyConfig`` read "empty config"."""
    if " " in name.strip():
        return " ".join(name.split())
    text = re.sub(r"^(?:test_?|Test_?)", "", name) or name
    text = _CAMEL.sub(" ", text).replace("_", " ")
    parts = text.split()
    return " ".join(p if p.isupper() and len(p) > 1 else p.lower() for p in parts)


def cases(parts: list[tuple[str, list[Hunk]]]) -> list[Case]:
    """The cases of the test files among ``parts`` (a path and its hunks), in the order they appear."""
    found: dict[tuple[str, str], str] = {}
    for path, hunks in parts:
        if not is_test_path(path) and not path.endswith(".rs"):  # Rust's unit tests live beside the code
            continue
        for hunk in hunks:
            for name, status in _hunk_cases(hunk, path.endswith((".py", ".pyi"))):
                key = (path, name)
                before = found.get(key)
                if before is None:
                    found[key] = status
                elif {before, status} == {ADDED, REMOVED}:
                    found[key] = CHANGED  # a case moved or rewritten whole
                elif before == CHANGED and status != CHANGED:
                    found[key] = status
    return [Case(path, name, status) for (path, name), status in found.items()]


def _hunk_cases(hunk: Hunk, python: bool) -> list[tuple[str, str]]:
    """The cases a hunk adds, removes or changes. In Python a bracket closed at a case's own
    indentation ends an expression above the next definition (a parametrize list), which git's
    hunk header does not show: the lines before it are that definition's, not the case's."""
    out: list[tuple[str, str]] = []
    header = _HEADER.match(hunk.header or "")
    current = _opened(header.group(1)) if header else None
    depth = _indent(header.group(1)) if header else 0  # the indentation of the current case's opening line
    rust_test = False
    decorating = False  # inside decorators: their lines are the next definition's
    decorated = False  # a decorator's line changed: the case it decorates changed
    level = _Level(len(out))
    signature = 0  # brackets a case's own signature left open (``def test_x(`` over its parameters)
    for line in hunk.lines:
        sign, text = line[:1], line[1:]
        if sign not in "+- ":
            continue
        if signature > 0:  # its parameters and the ``) -> None:`` closing them are the case's
            signature = _still_open(text, signature)
            if sign in "+-" and current is not None:
                out.append((current, CHANGED))  # (a case added whole stays added: ``cases`` keeps that)
            continue
        name = _opened(text)
        if name is None and rust_test and (m := _RUST_FN.match(text)):
            name = m.group(1)
        rust_test = bool(_RUST_ATTRIBUTE.match(text)) or (rust_test and text.strip().startswith("#["))
        if python and name is None and text.strip() and _indent(text) <= depth:
            if text.lstrip()[:1] in _CLOSING:  # the lines since were an expression above, not the case's body
                decorated = decorated or level.changed or sign in "+-"
                del out[level.credited :]
                current, decorating = None, True
            level = _Level(len(out))
        if name is None and _DECORATOR.match(text) and (current is None or _indent(text) <= depth):
            current, decorating = None, True  # a parametrize list above a case is that case's
        if name is None and _OTHER_DEF.match(text) and (current is None or _indent(text) <= depth):
            current, decorating, decorated = None, False, False  # a helper beside the case: its lines are no case's
        if name is not None:
            current, depth = name, _indent(text)
            signature = _still_open(text, 0) if python else 0
            if decorated and sign == " ":
                out.append((name, CHANGED))
            decorating = decorated = False
            level = _Level(len(out))
            if sign in "+-":
                out.append((name, ADDED if sign == "+" else REMOVED))
                continue
        if sign in "+-" and text.strip():
            level.changed = True
            if current is not None:
                out.append((current, CHANGED))
            decorated = decorated or decorating
    return out


@dataclass
class _Level:
    """Since the last line at or left of the case's own indentation: where its credits start, and
    whether a line changed (a closing bracket there shows they were not the case's body)."""

    credited: int
    changed: bool = False


def _still_open(text: str, open_before: int) -> int:
    """The brackets of a signature left open after its line ``text``: none once a line ends the
    header with its colon (a bracket in a default's string, ``s="("``, leaves none open)."""
    if text.split("#", 1)[0].rstrip().endswith(":"):
        return 0
    return max(0, open_before + sum(map(text.count, "([{")) - sum(map(text.count, ")]}")))


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _opened(text: str) -> str | None:
    """The case a line opens, if it opens one."""
    for pattern in (_PY, _GO):
        if m := pattern.match(text):
            return m.group(1)
    if m := _JS.match(text):
        return m.group(2)
    return None
