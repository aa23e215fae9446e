"""Signals between units. Each module yields ``Link``s from a ``Context``."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from segmint_core.grouping.signals import (
    cochange,
    dependencies,
    docs,
    exercises,
    files,
    identifiers,
    proximity,
    release,
    repeated,
    similarity,
    timeline,
)
from segmint_core.grouping.links import Link
from segmint_core.grouping.signals.base import Context

SIGNALS: dict[str, Callable[[Context], Iterator[Link]]] = {
    "identifiers": identifiers.links,
    "proximity": proximity.links,
    "files": files.links,
    "docs": docs.links,
    "dependencies": dependencies.links,
    "release": release.links,
    "exercises": exercises.links,
    "repeated": repeated.links,
    "timeline": timeline.links,
    "similarity": similarity.links,
    "cochange": cochange.links,
}


def collect(ctx: Context) -> list[Link]:
    out: list[Link] = []
    for produce in SIGNALS.values():
        out.extend(produce(ctx))
    return out


__all__ = ["Context", "Link", "SIGNALS", "collect"]
