"""The language versions a project's CI and tox test on, changed: ``test on Python 3.9``.

Read from the CI files' version keys (``python-version: ['3.8', '3.9']``, a matrix
entry's ``{python: '3.9', ...}``, Travis's ``node_js:`` list, ``go-version``) and
from tox's environments (``py{39,38}``, ``py37``), on each hunk's old side (its
unchanged and removed lines) and its new side (unchanged and added), so a version
both sides name stays tested: click's matrix moving its main rows from 3.8 to 3.9
and keeping a row of 3.8 tests on Python 3.9, and drops nothing. Only files edited
count: a workflow added or deleted whole is no change of what the project tests on.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from segmint_core.changes.kinds import is_ci_path
from segmint_core.changes.models import Change, Hunk
from segmint_core.changes.versions import numbers
from segmint_core.wording import series

LANGUAGES = {
    "python": "Python",
    "python-version": "Python",
    "python_version": "Python",
    "node": "Node.js",
    "node-version": "Node.js",
    "node_js": "Node.js",
    "go": "Go",
    "go-version": "Go",
    "ruby": "Ruby",
    "ruby-version": "Ruby",
}
# A key of ``LANGUAGES`` and its value (the longer keys tried first: ``python-version`` before ``python``).
_KEYED = re.compile(
    rf"""(?:^|[\s{{,])["']?(?P<key>{"|".join(sorted(LANGUAGES, key=len, reverse=True))})["']?\s*:(?:\s+|$)(?P<value>.*)"""
)
_VERSION = re.compile(
    r"""\s*["']?(?:[~^]|>=)?(?P<version>(?:pypy-?)?\d+(?:\.(?:\d+|x)){0,2}(?:-?(?:dev|rc\d*|beta\d*))?)["']?\s*"""
)
_TOX_ENVS = re.compile(r"\bpy(\d*)\{([\w,]+)\}|\bpy(\d)(\d+)\b")  # py{39,38}, py3{7,8} (attrs), py37


def tested_change(changes: list[tuple[Change, list[Hunk]]]) -> str | None:
    """``test on Python 3.9``, ``stop testing on Go 1.12 and 1.13``, ``test on Go 1.4.2 instead
    of 1.4``: where the CI files or tox.ini among ``changes`` test other versions; else None."""
    sides = [
        (change.file_path, _side(hunk, "-"), _side(hunk, "+"))
        for change, hunks in changes
        if change.status == "modified"  # a workflow added whole is titled as one (``add publish.yml``)
        for hunk in hunks
    ]
    for language, (came, gone) in tested_moves(sides).items():
        if came and gone:
            return f"test on {language} {series(came)} instead of {series(gone)}"
        if came:
            return f"test on {language} {series(came)}"
        return f"stop testing on {language} {series(gone)}"
    return None


def tested_moves(sides: list[tuple[str, list[str], list[str]]]) -> dict[str, tuple[list[str], list[str]]]:
    """Per language (in order), the versions CI came to test and those it stopped testing on,
    read from each edited file's (path, old side, new side); languages whose versions stay out."""
    before: dict[str, set[str]] = {}
    after: dict[str, set[str]] = {}
    for path, old, new in sides:
        if not tests_versions(path):
            continue
        read = _tox_versions if PurePosixPath(path).name == "tox.ini" else _keyed_versions
        for language, found in read(old).items():
            before.setdefault(language, set()).update(found)
        for language, found in read(new).items():
            after.setdefault(language, set()).update(found)
    moves = {}
    for language in sorted(set(before) | set(after)):
        came = _releases(after.get(language, set()) - before.get(language, set()))
        gone = _releases(before.get(language, set()) - after.get(language, set()))
        if came or gone:
            moves[language] = (came, gone)
    return moves


def _releases(versions: set[str]) -> list[str]:
    """The versions in order, each once: ``3.10`` (tox's ``py310``) is the ``3.10-dev`` a workflow
    names beside it."""
    return sorted((v for v in versions if not any(_pre_release_of(w, v) for w in versions)), key=numbers)


def _pre_release_of(w: str, v: str) -> bool:
    """``3.10-dev`` and ``3.10rc1`` are of ``3.10``; ``3.10`` and ``3.1.2`` are not of ``3.1``."""
    return len(w) > len(v) and w.startswith(v) and not (w[len(v)].isdigit() or w[len(v)] == ".")


def tests_versions(path: str) -> bool:
    """A file that says which versions the project is tested on: a CI file, or tox's."""
    return is_ci_path(path) or PurePosixPath(path).name == "tox.ini"


def version_items(lines: list[str]) -> bool:
    """Every line is a list item naming a version (a matrix's ``- 22``, ``- "3.12"``)."""
    return bool(lines) and all(line.strip().startswith("- ") and _VERSION.fullmatch(line.strip()[2:]) for line in lines)


def _side(hunk: Hunk, sign: str) -> list[str]:
    return [line[1:] for line in hunk.lines if line[:1] in (" ", sign)]


def _keyed_versions(lines: list[str]) -> dict[str, set[str]]:
    """The versions each language's keys name: inline (``python: '3.9'``, ``[3.8, 3.9]``) or as
    the items of the list the key opens (Travis's ``node_js:`` then ``- "0.11"``)."""
    found: dict[str, set[str]] = {}
    open_key: tuple[str, int] | None = None  # the language whose list the lines below may hold, its indent
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if open_key and stripped.startswith("- ") and indent >= open_key[1]:
            if m := _VERSION.fullmatch(stripped[2:]):
                found.setdefault(open_key[0], set()).add(m.group("version"))
            continue
        open_key = None
        for m in _KEYED.finditer(line):
            language, value = LANGUAGES[m.group("key")], m.group("value").split("#")[0].strip()
            if not value:
                open_key = (language, indent)
            elif value.startswith("["):
                items = value[1 : value.find("]")].split(",") if "]" in value else []
                found.setdefault(language, set()).update(
                    v.group("version") for i in items if (v := _VERSION.fullmatch(i))
                )
            elif v := _VERSION.fullmatch(re.split(r"[,}]", value)[0]):
                found.setdefault(language, set()).add(v.group("version"))
    return found


def _tox_versions(lines: list[str]) -> dict[str, set[str]]:
    """tox's ``py{39,38,py3}``, ``py3{7,10}`` and ``py37``: Python 3.9, 3.8, 3.7 and 3.10."""
    found: set[str] = set()
    for line in lines:
        for m in _TOX_ENVS.finditer(line):
            head, alternatives = m.group(1) or "", m.group(2)
            digits = [head + a for a in alternatives.split(",")] if alternatives else [m.group(3) + m.group(4)]
            found.update(f"{d[0]}.{d[1:]}" for d in digits if d.isdigit() and len(d) >= 2)
    return {"Python": found} if found else {}
