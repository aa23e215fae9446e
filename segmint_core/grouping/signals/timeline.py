"""The edit timeline from the trajectory recorder, when one exists.

Hunks edited in the same burst (snapshots close in time) or recorded under the
same intent most likely belong together; two hunks whose edits never shared a
burst lean apart. Atoms of one hunk share their hunk's history.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from segmint_core.grouping.signals.base import Context, Link, link

SAME_INTENT = "same_intent"
SAME_BURST = "same_burst"
DIFFERENT_BURST = "different_burst"


def links(ctx: Context) -> Iterator[Link]:
    if not ctx.timeline:
        return
    histories = {}
    for unit in ctx.units:
        if unit.hunk is not None:
            history = ctx.timeline.get(unit.hunk.id) or ctx.timeline.get(unit.hunk.parent_id or "")
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
    for burst, members in sorted(by_burst.items()):
        yield from _all_pairs(members, 1.0, SAME_BURST, str(burst))
    if ctx.model.coefficient(DIFFERENT_BURST):
        indexes = sorted(histories)
        for x, i in enumerate(indexes):
            bursts = set(histories[i].bursts)
            for j in indexes[x + 1 :]:
                if bursts and histories[j].bursts and not bursts & set(histories[j].bursts):
                    yield link(i, j, 1.0, DIFFERENT_BURST)


def _all_pairs(members: list[int], weight: float, kind: str, detail: str) -> Iterator[Link]:
    for x, i in enumerate(members):
        for j in members[x + 1 :]:
            yield link(i, j, weight, kind, detail)
