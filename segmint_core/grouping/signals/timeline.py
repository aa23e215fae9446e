"""The edit timeline from the trajectory recorder, when one exists.

Hunks recorded under the same intent, or edited in the same burst (snapshots
close in time), most likely belong together. Two hunks that both carry
recorded intents and share none were written under intents the person named
apart: they repel, strongly enough to split a file. Only where the intents do
not decide (one of the two has none recorded) do two hunks whose edits never
shared a burst lean apart, weakly. Atoms of one hunk share their hunk's history.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from segmint_core.grouping.links import Link, link
from segmint_core.grouping.signals.base import Context

if TYPE_CHECKING:
    from segmint_core.trajectory.timeline import HunkHistory

SAME_INTENT = "same_intent"
SAME_BURST = "same_burst"
DIFFERENT_INTENT = "different_intent"
DIFFERENT_BURST = "different_burst"


def links(ctx: Context) -> Iterator[Link]:
    if not ctx.timeline:
        return
    histories = {}
    for unit in ctx.units:
        if unit.hunk is not None:
            history = ctx.timeline.get(unit.hunk.id) or ctx.timeline.get(unit.hunk.parent_id or "")
            if history is not None:
                history = _of_lines(history, unit.start, unit.end)
            if history is not None and (history.bursts or history.intents):
                histories[unit.index] = history
    by_intent: dict[str, list[int]] = defaultdict(list)
    by_burst: dict[int, list[int]] = defaultdict(list)
    for index, history in sorted(histories.items()):
        for intent in sorted(set(history.intents)):
            by_intent[intent].append(index)
        for burst in sorted(set(history.bursts)):
            by_burst[burst].append(index)
    for intent, members in sorted(by_intent.items()):
        yield from _all_pairs(members, 1.0, SAME_INTENT, intent)
    named = {b: h.labels[b] for h in histories.values() for b in h.bursts if b < len(h.labels)}
    for burst, members in sorted(by_burst.items()):
        yield from _all_pairs(members, 1.0, SAME_BURST, named.get(burst, str(burst)))
    yield from _apart(ctx, histories)


def _of_lines(history: HunkHistory, start: int, end: int) -> HunkHistory:
    """A unit's history: its own lines' bursts where the history knows them line by line (a split
    range's commits); lines of several bursts say nothing, as a hunk of several commits does."""
    if not history.line_bursts:
        return history
    bursts = history.bursts_of(start, end)
    return replace(history, bursts=bursts if len(bursts) == 1 else ())


def _apart(ctx: Context, histories: dict) -> Iterator[Link]:
    """Repelling links: different recorded intents, else (weakly) bursts never shared."""
    by_burst = ctx.model.coefficient(DIFFERENT_BURST) != 0
    by_intent = ctx.model.coefficient(DIFFERENT_INTENT) != 0
    indexes = sorted(histories)
    for x, i in enumerate(indexes):
        intents, bursts = set(histories[i].intents), set(histories[i].bursts)
        for j in indexes[x + 1 :]:
            theirs = histories[j]
            if intents and theirs.intents:
                if by_intent and not intents & set(theirs.intents):
                    yield Link(i, j, 1.0, DIFFERENT_INTENT, apart_detail(histories[i].intents, theirs.intents))
            elif by_burst and bursts and theirs.bursts and not bursts & set(theirs.bursts):
                yield link(i, j, 1.0, DIFFERENT_BURST)


def apart_detail(mine: tuple[str, ...], theirs: tuple[str, ...]) -> str:
    """A different-intent link's detail: unit ``a``'s intents, then unit ``b``'s."""
    return "\n".join((" + ".join(mine), " + ".join(theirs)))


def split_detail(detail: str) -> tuple[str, str]:
    mine, _, theirs = detail.partition("\n")
    return mine, theirs


def _all_pairs(members: list[int], weight: float, kind: str, detail: str) -> Iterator[Link]:
    for x, i in enumerate(members):
        for j in members[x + 1 :]:
            yield link(i, j, weight, kind, detail)
