"""A release: the changelog's block for a version and the version bump it names, one intent.

A release sets the project's version in a manifest or a source file
(``"version": "15.11.0"`` -> ``"15.12.0"``, ``__version__ = "8.1.3.dev"`` ->
``"8.1.3"``) and opens the changelog's block for that version (a heading
naming it), or dates one (``Unreleased`` -> ``Released 2026-06-24`` under its
heading). The two share little else a signal reads, so average linkage left
most releases in two groups; ``together`` makes them start as one, as a
manifest and its lock file do. A bump line is one whose text is the same
but for its version; the version it sets must be the one the changelog names.

A dependency's bump and its changelog entry are one intent the same way
(``* deps: qs@^6.14.0`` under ``"qs": "^6.13.0"`` -> ``"^6.14.0"`` in
``package.json``): an entry the changelog adds that names both the package a
manifest bumps and the version it bumps it to is linked to that bump
(``ENTRY``), and starts in its group.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from segmint_core.changes.generated import MANIFEST, dependency_file
from segmint_core.changes.kinds import CHANGELOG
from segmint_core.grouping.links import Link, link
from segmint_core.grouping.signals.base import Context
from segmint_core.grouping.units import HEADING, Unit

RELEASE = "release"
ENTRY = "changelog_entry"
# The version's core (``8.4.2`` of ``8.4.2.dev``), what a changelog heading names; units' own
# pattern keeps the suffix, as it ties a heading to the exact string a bump writes.
_VERSION = re.compile(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)*)(?:[-.]?(?:a|b|rc|dev|post|alpha|beta)\.?\d*)?(?![\w.])")
_RELEASED = re.compile(r"^\s*(?:released|release date)\b", re.I)
# A package's name as a changelog or a manifest line writes it (``@types/node``, ``pytest-cov``, ``golang.org/x/net``).
_PACKAGE = re.compile(r"[@A-Za-z][\w.\-/@]*\w")
_NOT_PACKAGES = {"version", "v"}


def links(ctx: Context) -> Iterator[Link]:
    yield from _entries(ctx)
    blocks = {u.index: found for u in ctx.units if u.kind == CHANGELOG and (found := headed_versions(u))}
    if not blocks:
        return
    for unit in ctx.units:
        if unit.kind == CHANGELOG or unit.hunk is None:
            continue
        bumped = bumped_versions(unit)
        for block, versions in blocks.items():
            for version in sorted(versions & bumped):
                yield link(block, unit.index, 1.0, RELEASE, version)


def released(units: list[Unit]) -> str | None:
    """The version these units release (a changelog block names it and another unit sets it), if any."""
    named = set().union(*(headed_versions(u) for u in units if u.kind == CHANGELOG))
    found = named & set().union(*(bumped_versions(u) for u in units if u.kind != CHANGELOG and u.hunk is not None))
    return max(found, key=lambda v: tuple(int(part) for part in v.split("."))) if found else None


def together(links: list[Link]) -> list[tuple[int, int]]:
    """The pairs of units that must start in one group: a release's changelog block and its
    version bump, a dependency's changelog entry and its bump."""
    return sorted({(item.a, item.b) for item in links if item.kind in (RELEASE, ENTRY)})


def _entries(ctx: Context) -> Iterator[Link]:
    """Changelog entries naming a package and the version a manifest unit bumps it to."""
    bumps = {
        u.index: found
        for u in ctx.units
        if (f := dependency_file(u.path)) is not None and f.role == MANIFEST and (found := _package_bumps(u))
    }
    if not bumps:
        return
    for unit in ctx.units:
        if unit.kind != CHANGELOG:
            continue
        named = {(word, version) for line in unit.added for version in _versions(line) for word in _packages(line)}
        for other, found in bumps.items():
            for package, version in sorted(found & named):
                yield link(unit.index, other, 1.0, ENTRY, f"{package} {version}")
                break


def _package_bumps(unit: Unit) -> set[tuple[str, str]]:
    """The (package, version) pairs a manifest unit's version-only line changes set."""
    out: set[tuple[str, str]] = set()
    for new, old in zip(unit.added, unit.removed):
        if _VERSION.sub("", new) == _VERSION.sub("", old) and _full(new) != _full(old):
            out |= {(word, version) for word in _packages(_VERSION.sub(" ", new)) for version in _versions(new)}
    return out


def _packages(text: str) -> set[str]:
    return {word.lower() for word in _PACKAGE.findall(text)} - _NOT_PACKAGES


def headed_versions(unit: Unit) -> set[str]:
    """The versions a changelog unit opens a block for, or dates the block of."""
    found = {v for line in unit.added if HEADING.match(line) for v in _versions(line)}
    if not found and unit.hunk is not None and any(_RELEASED.match(line) for line in unit.added):
        found = {
            v
            for line in unit.hunk.lines[: unit.start]
            if line[:1] == " " and HEADING.match(line[1:])
            for v in _versions(line[1:])
        }
    return found


def bumped_versions(unit: Unit) -> set[str]:
    """The versions a unit sets on lines that change nothing else."""
    out: set[str] = set()
    for new, old in zip(unit.added, unit.removed):
        if _VERSION.sub("", new) == _VERSION.sub("", old) and _full(new) != _full(old):
            out |= _versions(new)  # "8.4.2.dev" -> "8.4.2" sets 8.4.2, as "8.4.1" -> "8.4.2" does
    return out


def version_moves(unit: Unit) -> set[tuple[str, str]]:
    """The (old, new) versions a unit's version-only line changes move between."""
    out: set[tuple[str, str]] = set()
    for new, old in zip(unit.added, unit.removed):
        if _VERSION.sub("", new) == _VERSION.sub("", old):
            out |= {(a, b) for a, b in zip(_full(old), _full(new)) if a != b}
    return out


def _versions(text: str) -> set[str]:
    return set(_VERSION.findall(text))


def _full(text: str) -> list[str]:
    return [m.group(0) for m in _VERSION.finditer(text)]
