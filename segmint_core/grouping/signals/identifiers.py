"""Shared identifiers and def-use links.

A name defined, renamed or edited in one unit (a ``def``, a class, an
assignment, or the function whose body changed) and used on another unit's
changed lines is the strongest code link. Names both units merely use count
less, and less the more units use them. Short one-word names (``show``,
``cmd``) are a separate, weaker kind than compound ones (``help_option_names``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from segmint_core.grouping.lexicon import specificity
from segmint_core.grouping.links import Link, link
from segmint_core.grouping.signals.base import Context

DEF_USE = "def_use"
DEF_USE_CONTEXT = "def_use_context"
SHARED = "shared"
GENERIC_USERS = 4  # a generic name used by more units than this is no def-use evidence


def links(ctx: Context) -> Iterator[Link]:
    yield from _def_use(ctx)
    yield from _shared(ctx)


def _def_use(ctx: Context) -> Iterator[Link]:
    limit = ctx.model.max_shared_units
    users: dict[str, list[int]] = defaultdict(list)
    context_users: dict[str, list[int]] = defaultdict(list)
    for unit in ctx.units:
        for name in unit.idents:
            users[name].append(unit.index)
        for name in unit.context_idents:
            context_users[name].append(unit.index)
    for unit in ctx.units:
        for name in sorted(unit.changes_names):
            if name.startswith("__") or len(users.get(name, ())) > limit * 2:
                continue  # dunder methods are everywhere; so is a name every unit uses
            suffix = specificity(name)
            if suffix and len(users.get(name, ())) > GENERIC_USERS:
                continue  # "log" or "register" used all over ties nothing together
            rarity = ctx.rarity(name)
            for other in users.get(name, ()):
                if other != unit.index:
                    yield link(unit.index, other, rarity, DEF_USE + suffix, name)
            for other in context_users.get(name, ())[:limit]:
                if other != unit.index:
                    yield link(unit.index, other, rarity, DEF_USE_CONTEXT + suffix, name)


def _shared(ctx: Context) -> Iterator[Link]:
    limit = ctx.model.max_shared_units
    holders: dict[str, list[int]] = defaultdict(list)
    for unit in ctx.units:
        for name in unit.idents:
            holders[name].append(unit.index)
    for name in sorted(holders):
        members = holders[name]
        suffix = specificity(name)
        if not 2 <= len(members) <= (GENERIC_USERS if suffix else limit):
            continue
        weight = ctx.rarity(name)
        kind = SHARED + suffix
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                yield link(members[x], members[y], weight, kind, name)
