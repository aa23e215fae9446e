"""Docs and changelog entries <-> the code they name.

A changelog entry that cites ``custom_version_option`` belongs with the hunk
that defines it; one that names ``termui`` with the edits to termui.py.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from segmint_core.grouping import lexicon
from segmint_core.changes.kinds import CHANGELOG, DOCS
from segmint_core.grouping.links import Link, link
from segmint_core.grouping.signals.base import Context

MENTION = "mention"
MENTION_USE = "mention_use"
FILE_MENTION = "file_mention"


def links(ctx: Context) -> Iterator[Link]:
    limit = ctx.model.max_shared_units
    prose = [u for u in ctx.units if u.kind in (CHANGELOG, DOCS) and u.mentions]
    if not prose:
        return
    editors: dict[str, list[int]] = defaultdict(list)
    users: dict[str, list[int]] = defaultdict(list)
    by_stem: dict[str, list[int]] = defaultdict(list)
    for unit in ctx.units:
        if unit.kind in (CHANGELOG, DOCS):
            continue
        for name in unit.changes_names:
            editors[name].append(unit.index)
        for name in unit.idents:
            users[name].append(unit.index)
        by_stem[lexicon.stem(unit.path)].append(unit.index)
    for unit in prose:
        for name in sorted(unit.mentions):
            rarity = ctx.rarity(name)
            edited = editors.get(name, [])
            for other in edited:
                yield link(unit.index, other, rarity, MENTION, name)
            used = [i for i in users.get(name, []) if i not in edited]
            if len(used) <= limit:
                for other in used:
                    yield link(unit.index, other, rarity, MENTION_USE, name)
            for other in by_stem.get(name.lower(), [])[:limit]:
                yield link(unit.index, other, 1.0, FILE_MENTION, ctx.units[other].path)
