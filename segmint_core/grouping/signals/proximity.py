"""Same-file proximity: atoms of one hunk, nearby hunks, the same definition.

Kinds carry the file's kind (``same_hunk:changelog``...): two neighbouring
code atoms and two neighbouring changelog entries are different evidence, and
entries of a release block (a hunk adding a version heading) are one intent
far more often than two entries added under an existing heading.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from segmint_core.grouping.lexicon import CHANGELOG
from segmint_core.grouping.signals.base import Context, Link, link
from segmint_core.grouping.units import Unit

SAME_HUNK = "same_hunk"
SAME_FILE = "same_file"
NEARBY = "nearby"
SAME_SCOPE = "same_scope"


def links(ctx: Context) -> Iterator[Link]:
    by_file: dict[str, list[Unit]] = defaultdict(list)
    for unit in ctx.units:
        if unit.hunk is not None:
            by_file[unit.change.id].append(unit)
    model = ctx.model
    for units in by_file.values():
        for x, unit in enumerate(units):
            for y in range(x + 1, min(len(units), x + 1 + model.file_window)):
                yield from _pair(ctx, unit, units[y], near=y - x <= model.near_window)


def _pair(ctx: Context, a: Unit, b: Unit, *, near: bool) -> Iterator[Link]:
    flavour = _flavour(a, b)
    yield link(a.index, b.index, 1.0, f"{SAME_FILE}:{flavour}", a.path)
    if a.hunk is b.hunk and a.end == b.start:
        yield link(a.index, b.index, 1.0, f"{SAME_HUNK}:{flavour}", a.path)
    elif near:
        distance = abs(b.position - a.position)
        yield link(a.index, b.index, 0.5 ** (distance / ctx.model.same_file_scale), f"{NEARBY}:{flavour}", a.path)
    if a.scope and a.scope == b.scope:
        yield link(a.index, b.index, 1.0, SAME_SCOPE, a.scope)


def _flavour(a: Unit, b: Unit) -> str:
    return "changelog-release" if a.kind == CHANGELOG and (a.release or b.release) else a.kind
