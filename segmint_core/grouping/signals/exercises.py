"""A test edit follows the source edit it exercises.

An edit inside a test function links to the code units that define or edit a
name the test function calls (anywhere in its body, not only on the changed
lines): the assertion changed in ``test_parse_config`` goes with the change to
``parse_config``. This needs the test's file parsed (``grouping/syntax``);
unparsed tests have no ``calls`` and emit nothing here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from segmint_core.changes.kinds import CODE
from segmint_core.grouping.links import Link, link
from segmint_core.grouping.signals.base import Context

EXERCISES = "exercises"


def links(ctx: Context) -> Iterator[Link]:
    editors: dict[str, list[int]] = defaultdict(list)
    for unit in ctx.units:
        if unit.kind == CODE:
            for name in unit.changes_names:
                editors[name].append(unit.index)
    if not editors:
        return
    limit = ctx.model.max_shared_units
    for unit in ctx.units:
        for name in sorted(unit.calls & editors.keys()):
            edited = editors[name]
            if len(edited) <= limit:
                weight = ctx.rarity(name)
                for other in edited:
                    yield link(unit.index, other, weight, EXERCISES, name)
