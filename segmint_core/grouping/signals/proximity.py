"""Same-file proximity: atoms of one hunk, nearby hunks, the same definition.

Kinds carry the file's kind (``same_hunk:changelog``...): two neighbouring
code atoms and two neighbouring changelog entries are different evidence, and
entries of a release block (a hunk adding a version heading) are one intent
far more often than two entries added under an existing heading.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from segmint_core.changes.kinds import CHANGELOG
from segmint_core.grouping.model import Model
from segmint_core.grouping.links import Link
from segmint_core.grouping.signals.base import Context
from segmint_core.grouping.units import Unit

SAME_HUNK = "same_hunk"
SAME_FILE = "same_file"
NEARBY = "nearby"
SAME_SCOPE = "same_scope"

_new_tuple = tuple.__new__  # a Link made as ``base.link`` makes it


def links(ctx: Context) -> Iterator[Link]:
    by_file: dict[str, list[Unit]] = defaultdict(list)
    for unit in ctx.units:
        if unit.hunk is not None:
            by_file[unit.change.id].append(unit)
    for units in by_file.values():
        yield from _file_links(ctx.model, units)


def _file_links(model: Model, units: list[Unit]) -> list[Link]:
    """The links between one file's units, each paired with the ``file_window`` after it
    (a large file makes 10^5 pairs: each kind is named once per flavour, not per pair,
    and each link made as ``link`` makes it, without a call)."""
    out: list[Link] = []
    append = out.append
    kinds: dict[str, tuple[str, str, str]] = {}
    window, near_window, scale = model.file_window, model.near_window, model.same_file_scale
    for x, a in enumerate(units):
        i, path, scope, hunk, end, position = a.index, a.path, a.scope, a.hunk, a.end, a.position
        # the flavour is a's own unless a is a changelog entry outside a release
        fixed = None if a.kind == CHANGELOG and not a.release else _named(kinds, _flavour(a, a))
        for y in range(x + 1, min(len(units), x + 1 + window)):
            b = units[y]
            same_file, same_hunk, nearby = fixed or _named(kinds, _flavour(a, b))
            j = b.index
            first, second = (i, j) if i < j else (j, i)
            append(_new_tuple(Link, (first, second, 1.0, same_file, path)))
            if hunk is b.hunk and end == b.start:
                append(_new_tuple(Link, (first, second, 1.0, same_hunk, path)))
            elif y - x <= near_window:
                distance = abs(b.position - position)
                append(_new_tuple(Link, (first, second, 0.5 ** (distance / scale), nearby, path)))
            if scope and scope == b.scope:
                append(_new_tuple(Link, (first, second, 1.0, SAME_SCOPE, scope)))
    return out


def _named(kinds: dict[str, tuple[str, str, str]], flavour: str) -> tuple[str, str, str]:
    """The three kinds of a flavour (same file, same hunk, nearby), named once."""
    named = kinds.get(flavour)
    if named is None:
        named = kinds[flavour] = (f"{SAME_FILE}:{flavour}", f"{SAME_HUNK}:{flavour}", f"{NEARBY}:{flavour}")
    return named


def _flavour(a: Unit, b: Unit) -> str:
    return "changelog-release" if a.kind == CHANGELOG and (a.release or b.release) else a.kind
