"""The session's confidence: per hunk, per group, and the decisions worth settling first.

Worked out from the session's current groups (``grouping.confidence``), so it
follows every move, merge and regroup, and the TUI, the CLI and agents read
the same figures for the same saved state. The evidence (units and links)
depends only on the changes and their splits: it is kept per process and
made again when they change. A hunk someone moved by hand is settled: no
decision offers to move it again, nor to merge the group it went to.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from segmint_core.changes.generated import vendored_package
from segmint_core.session.core import SessionCore

KEEP = 2  # decimals of the probabilities shown
FOLLOW_UP_DOUBT = 0.5  # a prompt joined to the task before it by its wording: as likely a task of its own


class DoubtKind(StrEnum):
    """What settling a doubt would do (the grouping engine's decision kinds, as the session shows them)."""

    MOVE = "move"  # move its hunks to another group
    MERGE = "merge"  # merge two groups
    SPLIT = "split"  # take its hunks out into a group of their own


@dataclass(frozen=True)
class Uncertain:
    """One decision the engine is unsure of, and what settling it would do."""

    kind: DoubtKind
    probability: float  # P(the offered alternative is right)
    text: str  # "change-3:2 could belong to group-1 (both change `parse_config`)"
    hunk_ids: list[str] = field(default_factory=list)  # move, split: the hunks to move
    group_id: str | None = None  # the group they are in (merge: the first group)
    to_group_id: str | None = None  # move, merge: the other group; split: None (a new group)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "p": round(self.probability, KEEP), "text": self.text}
        if self.hunk_ids:
            data["hunk_ids"] = list(self.hunk_ids)
        data["group_id"] = self.group_id
        if self.to_group_id is not None:
            data["to_group_id"] = self.to_group_id
        return data


@dataclass
class Confidence:
    revision: int
    hunks: dict[str, float] = field(default_factory=dict)  # hunk (or hunkless change) id -> P(in its group)
    groups: dict[str, float] = field(default_factory=dict)  # group id -> confidence
    uncertain: list[Uncertain] = field(default_factory=list)

    def doubt(self, hunk_id: str) -> Uncertain | None:
        """The listed decision about moving this hunk, if there is one."""
        return next((u for u in self.uncertain if hunk_id in u.hunk_ids), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "groups": {g: round(p, KEEP) for g, p in self.groups.items()},
            "hunks": {h: round(p, KEEP) for h, p in self.hunks.items()},
            "uncertain": [u.to_dict() for u in self.uncertain],
        }


def confidence(session: SessionCore) -> Confidence:
    """The confidence of the session's current groups, worked out again only when what it
    reads changed: a rename or a new commit message bumps the revision and keeps it (on a
    large tree the work holds the session's lock for a tenth of a second or more)."""
    with session.lock:
        key = _confidence_key(session)
        cached = session.confidence_cache
        if cached is not None and cached[0] == key:
            found = cached[1]
            return found if found.revision == session.revision else replace(found, revision=session.revision)
        result = _work_out(session)
        session.confidence_cache = (key, result)
        return result


def _confidence_key(session: SessionCore) -> tuple:
    """All ``_work_out`` reads: the evidence, each group's id and members, what was settled by hand."""
    groups = tuple((g.id, tuple(g.hunk_ids), tuple(g.change_ids)) for g in session.groups)
    evidence = _evidence_key(session) if session.units_read else None
    return evidence, groups, tuple(session.state.settled)


def remember_evidence(session: SessionCore, changes: list, evidence: tuple[list, list] | None) -> None:
    """Keep the units and links grouping just made of ``changes`` as the session's evidence,
    when they are what ``_evidence`` would make: of the session's changes as they are now."""
    if evidence is not None and session.units.changes == changes:
        session.evidence_cache = (_evidence_key(session), *evidence)


def _evidence_key(session: SessionCore) -> tuple:
    return (
        session.units.changeset.fingerprint,
        session.units.changeset.head,
        tuple(sorted((k, str(v)) for k, v in session.units.splits.items())),
    )


def _evidence(session: SessionCore):
    from segmint_core.grouping.engine import evidence
    from segmint_core.grouping.repository import Repository

    key = _evidence_key(session)
    cached = session.evidence_cache
    if cached is not None and cached[0] == key:
        return cached[1], cached[2]
    units = Repository(session.git).units(session.units.changes)
    links = evidence(units)
    session.evidence_cache = (key, units, links)
    return units, links


def _work_out(session: SessionCore) -> Confidence:
    from segmint_core.grouping import confidence as engine
    from segmint_core.grouping.model import DEFAULT
    from segmint_core.grouping.probability import pair_probabilities

    out = Confidence(session.revision)
    if not session.groups:
        return out
    units, links = _evidence(session)
    group_of: dict[str, int] = {}
    for n, group in enumerate(session.groups):
        group_of.update((h, n) for h in group.hunk_ids)
        group_of.update((c, n) for c in group.change_ids if c not in group_of)
    names: list[str] = []  # block -> hunk or change id
    block_of: dict[str, int] = {}
    labels: list[int] = []
    blocks: list[int] = []
    for unit in units:
        name = unit.hunk.id if unit.hunk is not None else unit.change.id
        if unit.hunk is None and unit.change.hunks:  # a generated file kept whole: its first hunk's group
            label = group_of.get(unit.change.hunks[0].id, group_of.get(name))
        else:
            label = group_of.get(name)
        if label is None:
            label = len(session.groups) + len(names)  # in no group: a group of its own
        if name not in block_of:
            block_of[name] = len(names)
            names.append(name)
        labels.append(label)
        blocks.append(block_of[name])
    pairs = pair_probabilities(units, links, DEFAULT, len(session.units.changes))
    found = engine.assess(pairs, labels, blocks, engine.shipped())
    ids = [g.id for g in session.groups]
    for fit in found.blocks:
        for hunk in _hunks_of(session, names[fit.block]):
            out.hunks[hunk] = fit.confidence
    out.groups = {ids[label]: p for label, p in found.groups.items() if label < len(ids)}
    settled = set(session.state.settled)
    members = _members(labels, blocks)
    for decision in found.decisions:
        if len(out.uncertain) >= engine.MAX_DECISIONS or decision.probability < engine.LISTED:
            break
        item = _describe(decision, session, units, links, names, members, labels, blocks, ids, settled)
        if item is not None:
            out.uncertain.append(item)
    from segmint_core.session.intents import recorded_tasks

    recorded = recorded_tasks(session.units, session.git)
    return with_provenance(out, session, recorded) if recorded is not None else out


def with_provenance(out: Confidence, session: SessionCore, recorded) -> Confidence:
    """Lines grouped by their recorded task are certain; what stays in doubt is the unrecorded lines
    and the prompts taken as follow-ups of a task (each could be a task of its own)."""
    from segmint_core.grouping.provenance import quoted

    certain: set[str] = set()
    task_of_group: dict[str, set[str]] = {}
    for group in session.groups:
        tasks: set[str] = set()
        for hunk in group.hunk_ids:
            votes, total = recorded.owners([hunk])
            if total and sum(votes.values()) == total:
                certain.add(hunk)
            tasks |= {recorded.tasks.task_of.get(i, i) for i in votes}
        task_of_group[group.id] = tasks
        if group.hunk_ids and set(group.hunk_ids) <= certain and len(tasks) == 1:
            out.groups[group.id] = 1.0
    out.hunks.update((h, 1.0) for h in certain)
    kept = []
    for item in out.uncertain:
        if item.hunk_ids and set(item.hunk_ids) <= certain:
            continue  # recorded under their task: not a guess
        first, second = task_of_group.get(item.group_id or "", set()), task_of_group.get(item.to_group_id or "", set())
        if item.kind == DoubtKind.MERGE and first and second and not first & second:
            continue  # two tasks: never one commit unless someone merges them
        kept.append(item)
    follow_ups = []
    for group in session.groups:
        for intent in recorded.intents_of(group.hunk_ids):
            before = recorded.tasks.follows.get(intent)
            if before is None or intent not in recorded.provenance.intents:
                continue
            prompt = recorded.provenance.intents[intent]
            hunks = [h for h in group.hunk_ids if intent in recorded.owners([h])[0]]
            follow_ups.append(
                Uncertain(
                    DoubtKind.SPLIT,
                    FOLLOW_UP_DOUBT,
                    f"{_listed(hunks)} written under prompt {prompt.number} ({quoted(prompt.text)}), taken as a "
                    f"follow-up of prompt {before.rsplit('-', 1)[-1]}, might be a task of its own",
                    hunks,
                    group.id,
                    None,
                )
            )
    out.uncertain = follow_ups + kept
    return out


def _held(session: SessionCore, group_id: str) -> set[str]:
    group = next(g for g in session.groups if g.id == group_id)
    return set(group.hunk_ids) | set(group.change_ids)


def _hunks_of(session: SessionCore, name: str) -> list[str]:
    change = session.units.change_by_id.get(name)
    if change is not None and change.hunks:
        return [h.id for h in change.hunks]
    return [name]


def _members(labels: list[int], blocks: list[int]) -> dict[str, dict[int, set[int]]]:
    by_label: dict[int, set[int]] = {}
    by_block: dict[int, set[int]] = {}
    for unit, (label, block) in enumerate(zip(labels, blocks)):
        by_label.setdefault(label, set()).add(unit)
        by_block.setdefault(block, set()).add(unit)
    return {"label": by_label, "block": by_block}


def _describe(
    decision,
    session: SessionCore,
    units,
    links,
    names: list[str],
    members,
    labels: list[int],
    blocks: list[int],
    ids: list[str],
    settled: set[str],
) -> Uncertain | None:
    from segmint_core.grouping import confidence as engine
    from segmint_core.grouping.model import DEFAULT

    def group_id(label: int) -> str | None:
        return ids[label] if 0 <= label < len(ids) else None

    by_label, by_block = members["label"], members["block"]
    p = decision.probability
    if decision.kind == engine.MOVE:
        hunks = _hunks_of(session, names[decision.block])
        target = group_id(decision.target)
        side = by_block[decision.block]
        if target is None or settled & set(hunks) or _vendored(units, side):
            return None
        own = group_id(labels[next(iter(side))])
        why = engine.link_reason(units, links, side, by_label[decision.target], DEFAULT)
        because = f" ({why})" if why else f" (little ties it to {own})"
        return Uncertain(DoubtKind.MOVE, p, f"{_listed(hunks)} could belong to {target}{because}", hunks, own, target)
    if decision.kind == engine.MERGE:
        first, second = group_id(decision.source), group_id(decision.target)
        if first is None or second is None or any(settled & _held(session, g) for g in (first, second)):
            return None  # a group someone moved hunks into or out of by hand is theirs
        why = engine.link_reason(units, links, by_label[decision.source], by_label[decision.target], DEFAULT)
        because = f" ({why})" if why else ""
        return Uncertain(DoubtKind.MERGE, p, f"{first} and {second} might be one intent{because}", [], first, second)
    source = group_id(decision.source)
    hunks = [h for b in decision.blocks for h in _hunks_of(session, names[b])]
    side = {u for b in decision.blocks for u in by_block[b]}
    if source is None or settled & set(hunks) or _vendored(units, side):
        return None
    why = engine.link_reason(units, links, side, by_label[decision.source] - side, DEFAULT)
    them, own = ("it", "its") if len(hunks) == 1 else ("them", "their")
    ties = f"only {why} ties {them} to the rest" if why else f"nothing ties {them} to the rest"
    return Uncertain(
        DoubtKind.SPLIT,
        p,
        f"{_listed(hunks)} might be an intent of {own} own, apart from {source} ({ties})",
        hunks,
        source,
        None,
    )


def _vendored(units, side: set[int]) -> bool:
    """Whether any of the units is in a vendored package: a package is kept whole, never offered apart."""
    return any(vendored_package(units[u].path) for u in side)


def _listed(ids: list[str], shown: int = 3) -> str:
    if len(ids) <= shown:
        return ", ".join(ids)
    return f"{', '.join(ids[:shown])} and {len(ids) - shown} more"
