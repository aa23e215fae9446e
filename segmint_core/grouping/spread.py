"""One change spread over several places stays together: a release, a tool raised in two files,
a file and the lines naming it, a language version CI tests on.

A group of nothing but version bumps (lines that change nothing but a
version) joins the group whose docs or changelog heading names that version:
the release signal ties a changelog's heading to its bump, this ties a
README's (``### 18.4a2 (unreleased)`` -> ``### 18.4a2`` beside
``__version__ = "18.4a2"``). So does a docs group whose every changed line
only writes the bump's new version where its old one was
(``sudo dpkg -i fd_7.4.0_amd64.deb`` -> ``fd_7.5.0_amd64.deb``), or the new
version or its series where any other was (httpx's README pinning ``0.17.*``
-> ``0.18.*`` for 0.18.0), whether or not the bump's group holds the
release's changelog block. Two groups of
nothing but bumps that set one full version are one tool raised in two places
(``"mypy == 1.11.2"`` in ``pyproject.toml``, ``rev: v1.11.2`` of its
pre-commit hook).

A group whose every changed line names a file another group adds, deletes or
moves joins that group: black's new ``release_process.md`` and the two lines
of ``docs/contributing/index.rst`` listing it, click's deleted
``upgrading.rst`` and its table of contents' entry, fd's screencast moved to
``doc/`` and the README's image link to it.

Groups of CI files alone that change the versions of one language the project
is tested on join (click's workflow matrix and tox's environments moved to
Python 3.9), and so does a matrix's new version entry, whose key its hunk may
not show, with the group of its file that changes tested versions (cobra's
``go-version: '^1.22'`` and ``- 22``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from segmint_core.changes.kinds import CHANGELOG, DOCS
from segmint_core.changes.models import ADDED, DELETED, MODIFIED, RENAMED
from segmint_core.changes.tested_versions import tested_moves, tests_versions, version_items
from segmint_core.grouping.signals.release import bumped_versions, headed_versions, version_moves
from segmint_core.grouping.unions import sharing
from segmint_core.grouping.units import Unit

_WORDS = re.compile(r"[\w.-]+")
# A version written anywhere, inside a word too (``fd_8.2.1_amd64.deb``, ``0.18.*``).
_NUMBERED = re.compile(r"(?<![\d.])\d+(?:\.\d+)+(?!\d)")


def pairs(members: dict[int, list[Unit]]) -> list[tuple[int, int]]:
    """Pairs of groups (by label) that are one change made in several places."""
    return (
        _release_pairs(members)
        + _version_mention_pairs(members)
        + _same_bump_pairs(members)
        + _named_file_pairs(members)
        + _tested_pairs(members)
    )


def _release_pairs(members: dict[int, list[Unit]]) -> list[tuple[int, int]]:
    """(bump's group, heading's group) where a docs or changelog heading names the version a bump sets."""
    headings = {
        label: named
        for label, group in members.items()
        if (
            named := set().union(
                *(headed_versions(u) for u in group if u.kind in (DOCS, CHANGELOG) and u.hunk is not None)
            )
        )
    }
    if not headings:
        return []
    pairs: list[tuple[int, int]] = []
    for label, group in members.items():
        if not (bumped := _bumps_only(group)):
            continue  # a group holding more than version bumps is tied to more than the release
        pairs.extend((label, other) for other, named in headings.items() if other != label and bumped & named)
    return pairs


def _same_bump_pairs(members: dict[int, list[Unit]]) -> list[tuple[int, int]]:
    """Pairs of groups of nothing but version bumps that set one full version (``1.11.2``, never
    ``3`` or ``3.1``, which unrelated bumps share by chance): one tool raised in two files."""
    return sharing(
        (label, sorted(v for v in _bumps_only(group) if v.count(".") >= 2)) for label, group in sorted(members.items())
    )


def _bumps_only(group: list[Unit]) -> set[str]:
    """The versions a group sets if it holds nothing but version bumps outside docs and changelogs."""
    if any(u.kind in (DOCS, CHANGELOG) or u.hunk is None or not bumped_versions(u) for u in group):
        return set()
    return set().union(*(bumped_versions(u) for u in group))


def _named_file_pairs(members: dict[int, list[Unit]]) -> list[tuple[int, int]]:
    """(group, file's group) where every line the group changes names one file another group
    adds, deletes or moves: a page and its table of contents' entry, a moved image and its link."""
    files: dict[str, int] = {}
    for label, group in members.items():
        for unit in group:
            if unit.change.status in (ADDED, DELETED, RENAMED):
                files.setdefault(unit.path, label)
                if unit.change.old_path:
                    files.setdefault(unit.change.old_path, label)
    if not files:
        return []
    by_name: dict[str, list[str]] = {}  # a file's name, or its stem, to the files so named
    for path in sorted(files):
        for name in _names(path):
            by_name.setdefault(name, []).append(path)
    pairs: list[tuple[int, int]] = []
    for label, group in members.items():
        if any(u.hunk is None or u.change.status in (ADDED, DELETED) for u in group):
            continue  # a group adding or deleting a file is more than lines naming one
        lines = [line for u in group for line in u.added + u.removed if line.strip()]
        if not lines:
            continue
        # Only the files the first line names can be named by every line (thousands of files added stay cheap).
        named = {p for word in _WORDS.findall(lines[0]) for key in _prefixes(word) for p in by_name.get(key, ())}
        for path in sorted(named):
            if files[path] != label and all(_naming(path).search(line) for line in lines):
                pairs.append((label, files[path]))
                break
    return pairs


def _prefixes(word: str) -> list[str]:
    """``a.b.c`` -> ``a``, ``a.b``, ``a.b.c``: each name a word of a line may start with."""
    parts = word.split(".")
    return [".".join(parts[: n + 1]) for n in range(len(parts))]


def _names(path: str) -> list[str]:
    """A file's name, and (where it is long enough not to be a common word) its name without the
    extension, as a table of contents or an import writes it."""
    name = path.rsplit("/", 1)[-1]
    stem = name.split(".", 1)[0]
    return [name] + ([stem] if len(stem) >= 5 and stem != name else [])


@lru_cache(maxsize=4096)
def _naming(path: str) -> re.Pattern[str]:
    """A line naming the file by one of its ``_names``."""
    return re.compile(r"(?<![\w.-])(?:" + "|".join(re.escape(n) for n in _names(path)) + r")(?![\w-])")


def _tested_pairs(members: dict[int, list[Unit]]) -> list[tuple[int, int]]:
    """Pairs of groups of CI files alone that each change the versions of one language CI tests
    on (a workflow's Python and tox's), and a group of one CI file that only adds or removes
    versions as list items, with a group changing tested versions in that file (the matrix's new
    entry, under a key its hunk does not show, and the setup step's ``go-version``)."""
    tested: list[tuple[int, list[str]]] = []  # a group and the languages whose tested versions it changes
    by_file: dict[str, int] = {}  # a file and the first such group in it
    items: list[tuple[int, str]] = []  # a group of one file's version list items alone
    for label, group in sorted(members.items()):
        if any(u.hunk is None or u.change.status != MODIFIED or not tests_versions(u.path) for u in group):
            continue
        paths = {u.path for u in group}
        if len(paths) == 1 and all(version_items(u.added + u.removed) for u in group):
            items.append((label, paths.pop()))
        elif languages := list(tested_moves([(u.path, *_sides(u)) for u in group])):
            tested.append((label, languages))
            for path in paths:
                by_file.setdefault(path, label)
    return sharing(tested) + [(by_file[path], label) for label, path in items if path in by_file]


def _sides(unit: Unit) -> tuple[list[str], list[str]]:
    """The unit's hunk before and after the unit alone (the hunk's other edits left undone)."""
    old, new = [], []
    for n, line in enumerate(unit.hunk.lines if unit.hunk is not None else []):
        mine = unit.start <= n < unit.end
        if line[:1] in (" ", "-"):
            old.append(line[1:])
        if line[:1] == " " or (line[:1] == "-" and not mine) or (line[:1] == "+" and mine):
            new.append(line[1:])
    return old, new


def _version_mention_pairs(members: dict[int, list[Unit]]) -> list[tuple[int, int]]:
    """(docs group, bump's group) where every line the docs group changes is its old line with
    a version the bump moves written as the version it moves to, or with another version
    written as the one the bump sets or its series (``0.17.*`` -> ``0.18.*`` in the README of
    0.18.0, a download named for the new version). The bump's group may hold the release's
    changelog block; a lock file regenerated beside the bump, shown without lines, is part of it."""
    moves = {label: found for label, group in members.items() if (found := _bump(group)) is not None}
    pairs: list[tuple[int, int]] = []
    for label, group in members.items():
        if label in moves or not all(u.kind == DOCS and u.removed for u in group):
            continue
        for other, (moved, versions) in moves.items():
            if all(_mentions_moved(u, moved) or _names_version(u, versions) for u in group):
                pairs.append((label, other))
                break
    return pairs


def _bump(group: list[Unit]) -> tuple[set[tuple[str, str]], set[str]] | None:
    """The (old, new) versions a group moves and the versions it sets, where it holds nothing but
    version bumps, a release's changelog block and lock files shown without lines."""
    if any(u.kind == DOCS or u.kind != CHANGELOG and u.hunk is not None and not bumped_versions(u) for u in group):
        return None
    moved = set().union(*(version_moves(u) for u in group if u.kind != CHANGELOG))
    return (moved, set().union(*(bumped_versions(u) for u in group if u.hunk is not None))) if moved else None


def _mentions_moved(unit: Unit, moved: set[tuple[str, str]]) -> bool:
    if len(unit.added) != len(unit.removed):
        return False
    return all(
        any(old in before and before.replace(old, new) == after for old, new in moved)
        for before, after in zip(unit.removed, unit.added)
    )


def _names_version(unit: Unit, versions: set[str]) -> bool:
    """Whether every line the unit changes writes only other numbers, each the start of one of
    ``versions`` (``0.18`` of ``0.18.0``) or one of them, where its old line had others."""
    if not unit.added or len(unit.added) != len(unit.removed):
        return False
    for before, after in zip(unit.removed, unit.added):
        written = _NUMBERED.findall(after)
        if not written or written == _NUMBERED.findall(before) or _NUMBERED.sub("", after) != _NUMBERED.sub("", before):
            return False
        if not all(any(v == w or v.startswith(w + ".") for v in versions) for w in written):
            return False
    return True
