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
from segmint_core.grouping.model import Model
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
    for units in by_file.values():
        yield from _file_links(ctx.model, units)


def _file_links(model: Model, units: list[Unit]) -> list[Link]:
    """The links between one file's units, each paired with the ``file_window`` after it
    (a large file makes 10^5 pairs: each kind is named once per flavour, not per pair)."""
    out: list[Link] = []
    kinds: dict[str, tuple[str, str, str]] = {}
    window, near_window, scale = model.file_window, model.near_window, model.same_file_scale
    for x, a in enumerate(units):
        i, path, scope = a.index, a.path, a.scope
        for y in range(x + 1, min(len(units), x + 1 + window)):
            b = units[y]
            flavour = _flavour(a, b)
            named = kinds.get(flavour)
            if named is None:
                named = kinds[flavour] = (f"{SAME_FILE}:{flavour}", f"{SAME_HUNK}:{flavour}", f"{NEARBY}:{flavour}")
            out.append(link(i, b.index, 1.0, named[0], path))
            if a.hunk is b.hunk and a.end == b.start:
                out.append(link(i, b.index, 1.0, named[1], path))
            elif y - x <= near_window:
                distance = abs(b.position - a.position)
                out.append(link(i, b.index, 0.5 ** (distance / scale), named[2], path))
            if scope and scope == b.scope:
                out.append(link(i, b.index, 1.0, SAME_SCOPE, scope))
    return out


def _flavour(a: Unit, b: Unit) -> str:
    return "changelog-release" if a.kind == CHANGELOG and (a.release or b.release) else a.kind
