"""A dependency manifest and its lock file: one intent.

``pyproject.toml`` and ``uv.lock``, ``package.json`` and ``package-lock.json``,
``go.mod`` and ``go.sum``, ``Cargo.toml`` and ``Cargo.lock`` change together
when a dependency does; the lock file is generated, so nothing in its lines
is read. Each lock unit is linked to every unit of its manifests (and to the
other lock files of the same project), and ``together`` makes those pairs
start in one group whatever their other evidence.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from segmint_core.changes.generated import LOCK, dependency_file, same_dependencies
from segmint_core.grouping.links import Link, link
from segmint_core.grouping.signals.base import Context
from segmint_core.grouping.units import Unit

DEPENDENCIES = "dependencies"


def links(ctx: Context) -> Iterator[Link]:
    files: dict[str, list[Unit]] = defaultdict(list)
    roles: dict[str, str] = {}
    for unit in ctx.units:
        found = dependency_file(unit.path)
        if found is not None:
            files[unit.path].append(unit)
            roles[unit.path] = found.role
    locks = sorted(p for p in files if roles[p] == LOCK)
    for lock in locks:
        for other in sorted(files):
            if other != lock and same_dependencies(lock, other) and (other not in locks or other > lock):
                detail = f"{other} and {lock}" if other not in locks else f"{lock} and {other}"
                for a in files[lock]:
                    for b in files[other]:
                        yield link(a.index, b.index, 1.0, DEPENDENCIES, detail)


def together(links: list[Link]) -> list[tuple[int, int]]:
    """The pairs of units that must start in one group: a lock file with its manifests."""
    return sorted({(item.a, item.b) for item in links if item.kind == DEPENDENCIES})
