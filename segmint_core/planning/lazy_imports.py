"""Imports moved from a module's top into the code that needs them: "lazily import netrc".

httpx's "Lazily import 'netrc' module", click's "Properly lazily import
shutil", black's "Lazily import parallelized format modules": a module a
Python file imported at its top is imported inside a function instead, so
loading the file no longer loads it. Where that is all a change does (its
other changed lines imports, comments or blank), it is titled so; the file
alone said nothing ("update _auth.py"). An import under ``if TYPE_CHECKING:``
is for the type checker, not deferred.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

# (path, added lines, removed lines) of each hunk
HunkLines = list[tuple[str, list[str], list[str]]]

_IMPORT = re.compile(r"^(\s*)(?:import\s+([\w.]+)|from\s+([\w.]+)\s+import\b)")
_TYPE_CHECKING = re.compile(r"^(\s*)if\s+(?:typing\.)?TYPE_CHECKING\s*:")
_CONTINUED = re.compile(r"^\s*(?:[\w.]+(?:\s+as\s+\w+)?\s*,|\))\s*$")  # a name of ``from x import (``


def lazy_imports(hunks: HunkLines) -> list[str]:
    """The modules ``hunks`` take out of a Python file's top and import inside its code, where
    every other line they change is an import, a comment or blank; else none."""
    top: dict[str, set[str]] = {}  # path -> modules imported at its top, taken out
    inner: dict[str, list[str]] = {}  # path -> modules imported inside code, added
    for path, added, removed in hunks:
        if PurePosixPath(path).suffix != ".py":
            if added or removed:
                return []
            continue
        if not all(map(_quiet, added + removed)):
            return []
        top.setdefault(path, set()).update(module for indent, module in _imports(removed) if not indent)
        inner.setdefault(path, []).extend(module for indent, module in _imports(added) if indent)
    found = [module for path, modules in inner.items() for module in modules if module in top.get(path, ())]
    return list(dict.fromkeys(found))


def _imports(lines: list[str]) -> list[tuple[str, str]]:
    """(indentation, module) of each import, those under ``if TYPE_CHECKING:`` left out."""
    out: list[tuple[str, str]] = []
    typing_block: int | None = None  # the indentation of the ``if TYPE_CHECKING:`` being read
    for line in lines:
        if not line.strip():
            typing_block = None  # the block's end, as far as the added lines show (they skip context)
            continue
        indent = len(line) - len(line.lstrip())
        if typing_block is not None and indent <= typing_block:
            typing_block = None
        if m := _TYPE_CHECKING.match(line):
            typing_block = len(m.group(1))
        elif typing_block is None and (m := _IMPORT.match(line)):
            out.append((m.group(1), m.group(2) or m.group(3)))
    return out


def _quiet(line: str) -> bool:
    """An import (or a name it lists), a comment, a blank line, or ``if TYPE_CHECKING:``."""
    text = line.strip()
    return (
        not text
        or text.startswith("#")
        or _IMPORT.match(line) is not None
        or _TYPE_CHECKING.match(line) is not None
        or _CONTINUED.match(line) is not None
    )
