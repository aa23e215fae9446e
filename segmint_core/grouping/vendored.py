"""Vendored packages kept whole: a committed ``node_modules/foo`` (or ``vendor/github.com/x/y``,
``third_party/zlib``) is one group, whatever its files' evidence says.

A vendored package is added, updated or removed as one thing; its files are
generated (never read line by line), so the little evidence between them
(file names, folders) would scatter a package over many groups, or join two
packages. Clustering runs as usual, then each package's units are taken out
into a cluster of their own.
"""

from __future__ import annotations

from segmint_core.changes.generated import vendored_package
from segmint_core.grouping.units import Unit


def kept_whole(units: list[Unit], labels: list[int]) -> list[int]:
    """``labels`` with each vendored package's units in one new cluster of their own;
    unchanged when no unit is in a package."""
    packages = [vendored_package(u.path) for u in units]
    if not any(packages):
        return labels
    fresh: dict[str, int] = {}
    top = max(labels) + 1
    return [
        label if package is None else fresh.setdefault(package, top + len(fresh))
        for label, package in zip(labels, packages)
    ]


def package_of(units: list[Unit]) -> str | None:
    """The vendored package all of ``units`` are in, or None."""
    found = {vendored_package(u.path) for u in units}
    return found.pop() if len(found) == 1 and None not in found else None


def reason(package: str) -> str:
    return f"vendored package {package}, kept whole"
