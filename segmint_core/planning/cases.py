"""The test cases a change adds, changes or removes, each named in words.

A test's name is often the best sentence a change has about its behaviour:
``test_empty_config_gives_the_defaults`` says "empty config gives the
defaults", ``it("rejects a negative limit")`` says it outright. Read from the
diff alone: a case is added where its opening line is added (``def test_``,
``func TestX``, ``it("...")``, ``test("...")``, a Rust ``fn`` under
``#[test]``), changed where lines inside it change (git's hunk header or the
hunk's own lines name the case), removed where its opening line goes.
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
        if not is_test_path(path):
            continue
        for hunk in hunks:
            for name, status in _hunk_cases(hunk):
                key = (path, name)
                before = found.get(key)
                if before is None:
                    found[key] = status
                elif {before, status} == {ADDED, REMOVED}:
                    found[key] = CHANGED  # a case moved or rewritten whole
                elif before == CHANGED and status != CHANGED:
                    found[key] = status
    return [Case(path, name, status) for (path, name), status in found.items()]


def _hunk_cases(hunk: Hunk) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    header = _HEADER.match(hunk.header or "")
    current = _opened(header.group(1)) if header else None
    depth = _indent(header.group(1)) if header else 0  # the indentation of the current case's opening line
    rust_test = False
    for line in hunk.lines:
        sign, text = line[:1], line[1:]
        if sign not in "+- ":
            continue
        name = _opened(text)
        if name is None and rust_test and (m := _RUST_FN.match(text)):
            name = m.group(1)
        rust_test = bool(_RUST_ATTRIBUTE.match(text)) or (rust_test and text.strip().startswith("#["))
        if name is None and _OTHER_DEF.match(text) and (current is None or _indent(text) <= depth):
            current = None  # a helper or another definition beside the case: its lines are no case's
        if name is not None:
            current, depth = name, _indent(text)
            if sign in "+-":
                out.append((name, ADDED if sign == "+" else REMOVED))
                continue
        if sign in "+-" and current is not None and text.strip():
            out.append((current, CHANGED))
    return out


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
