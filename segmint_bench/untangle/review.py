"""``--review N``: what a reviewer who settles only the least certain decisions gets.

The engine groups a case; its confidence (``grouping/confidence.py``) ranks
the decisions it is least sure of. An oracle reviewer takes those a person
is shown (at least ``LISTED`` likely), in their order, one at a time, the
list worked out again after each (as the TUI's next-uncertain key does), and
does what a person shown the decision would: accepts the offered move, split
or merge when the history says it is right, leaves it otherwise. Either
way it counts as one reviewed decision. The ARI after 0, 1, 3, ... decisions
is how few looks a person needs to a clean history.

``best_first``: a reviewer shown, at each look, the listed decision that
helps most (known only from the history): the ceiling of any order of the
list the engine offers, so the distance to it is what the order loses.

A block is what a person moves: the atoms of one hunk that share a group
(a part of a split hunk), or a whole hunkless change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from segmint_bench.untangle.features import Sample
from segmint_bench.untangle.methods import unit_line_labels
from segmint_bench.untangle.metrics import adjusted_rand_index
from segmint_core.grouping.confidence import LISTED, MERGE, MOVE, SPLIT, Calibration, Decision, assess
from segmint_core.grouping.engine import cluster
from segmint_core.grouping.model import Model
from segmint_core.grouping.probability import pair_probabilities

STEPS = (0, 1, 3, 5)


def steps_up_to(n: int) -> list[int]:
    return sorted({s for s in STEPS if s <= n} | {n})


def decision_rows(sample: Sample, model: Model, calibration: Calibration) -> list[tuple[str, float, bool]]:
    """Every decision of the engine's grouping of a case: its kind, its probability and
    whether the reviewer finds it right (for fitting the decisions' calibration)."""
    labels = cluster(sample.units, sample.links, model, sample.files)
    pairs = pair_probabilities(sample.units, sample.links, model, sample.files)
    blocks = _blocks(sample, labels)
    owners = sample.owners()
    return [
        (d.kind, d.probability, _settle(d, labels, blocks, owners) is not labels)
        for d in assess(pairs, labels, blocks, calibration).decisions
    ]


def review_curve(
    sample: Sample, model: Model, steps: list[int], calibration: Calibration | None = None, best_first: bool = False
) -> list[float]:
    """ARI after each number of reviewed decisions in ``steps`` (ascending); ``best_first``:
    each look at the listed decision that raises the ARI most rather than the first listed."""
    units = sample.units
    labels = cluster(units, sample.links, model, sample.files)
    pairs = pair_probabilities(units, sample.links, model, sample.files)
    blocks = _blocks(sample, labels)
    owners = sample.owners()
    truth = [sample.tangle.truth[key] for key in sample.tangle.keys]

    def ari(labels: list[int]) -> float:
        return adjusted_rand_index(truth, unit_line_labels(sample, units, labels))

    seen: set[tuple] = set()
    out: list[float] = []
    done = 0
    for step in steps:
        while done < step:
            decisions = assess(pairs, labels, blocks, calibration).decisions
            if best_first:
                now = ari(labels)
                decisions = _by_gain(decisions, seen, lambda d: _answered(d, labels, blocks, owners, now, ari))
            decision = _next(decisions, seen)
            if decision is None:
                break
            labels = _settle(decision, labels, blocks, owners)
            done += 1
        out.append(ari(labels))
    return out


def _blocks(sample: Sample, labels: list[int]) -> list[int]:
    """Each unit's block: its hunk (or hunkless change) and its cluster."""
    ids: dict[tuple[str, int], int] = {}
    out = []
    for unit, label in zip(sample.units, labels):
        key = (unit.hunk.id if unit.hunk is not None else unit.change.id, label)
        out.append(ids.setdefault(key, len(ids)))
    return out


def _next(decisions: list[Decision], seen: set[tuple]) -> Decision | None:
    """The first decision not reviewed yet among those a person is shown (likely enough wrong)."""
    for decision in (d for d in decisions if d.probability >= LISTED):
        key = _key(decision)
        if key not in seen:
            seen.add(key)
            return decision
    return None


def _by_gain(decisions: list[Decision], seen: set[tuple], after: Callable[[Decision], float]) -> list[Decision]:
    """The decisions a person is shown, the one whose answer leaves the best ARI first (then in list order)."""
    shown = [d for d in decisions if d.probability >= LISTED and _key(d) not in seen]
    score = {id(d): after(d) for d in shown}
    return sorted(shown, key=lambda d: -score[id(d)])


def _answered(
    decision: Decision,
    labels: list[int],
    blocks: list[int],
    owners: list[tuple[int, int] | None],
    now: float,
    ari: Callable[[list[int]], float],
) -> float:
    """The ARI after the oracle's answer to ``decision`` (``now`` when it declines it)."""
    settled = _settle(decision, labels, blocks, owners)
    return now if settled is labels else ari(settled)


def _key(decision: Decision) -> tuple:
    return (decision.kind, decision.block, decision.source, decision.target, decision.blocks)


def _settle(
    decision: Decision, labels: list[int], blocks: list[int], owners: list[tuple[int, int] | None]
) -> list[int]:
    """The labels after the oracle's answer to ``decision``."""
    if decision.kind == MERGE:
        a, b = decision.source, decision.target
        if _majority(labels, owners, lambda u: labels[u] == a) == _majority(labels, owners, lambda u: labels[u] == b):
            return [a if label == b else label for label in labels]
        return labels
    if decision.kind == SPLIT:
        side = set(decision.blocks)
        out = _majority(labels, owners, lambda u: blocks[u] in side)
        rest = _majority(labels, owners, lambda u: labels[u] == decision.source and blocks[u] not in side)
        if out is not None and out != rest:
            fresh = max(labels) + 1
            return [fresh if blocks[u] in side else label for u, label in enumerate(labels)]
        return labels
    assert decision.kind == MOVE
    block = decision.block
    inside = [u for u, b in enumerate(blocks) if b == block]
    own = labels[inside[0]]
    commit = _majority(labels, owners, lambda u: blocks[u] == block)
    target = _majority(labels, owners, lambda u: labels[u] == decision.target)
    home = _majority(labels, owners, lambda u: labels[u] == own and blocks[u] != block)
    if commit is not None and commit == target and commit != home:
        moved = list(labels)
        for u in inside:
            moved[u] = decision.target
        return moved
    return labels


def _majority(labels: list[int], owners: list[tuple[int, int] | None], member: Callable[[int], bool]) -> int | None:
    """The commit owning most scored lines among the units ``member`` picks."""
    votes: Counter = Counter()
    for unit, owner in enumerate(owners):
        if owner is not None and member(unit):
            votes[owner[0]] += owner[1]
    return min(votes, key=lambda c: (-votes[c], c)) if votes else None
