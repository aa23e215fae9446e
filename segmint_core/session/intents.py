"""The recorded tasks behind the session's hunks: for titles, the pull request and confidence.

Read from the provenance record of the work tree (``trajectory.provenance``)
each time the plans are written, so it follows every move and merge: a group's
task is the one whose prompts wrote most of its changed lines.
"""

from __future__ import annotations

from collections.abc import Sequence

import logging
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from segmint_core.git import Git
from segmint_core.grouping.provenance import Tasks, intent_number, provenance_reasons, tasks_of
from segmint_core.session.models import AskedFor, CommitPlan
from segmint_core.session.units import Units
from segmint_core.trajectory.errors import DamagedProvenanceError
from segmint_core.trajectory.provenance.attribution import Provenance, line_provenance
from segmint_core.wording import capitalized

if TYPE_CHECKING:
    from segmint_core.planning.intents import Asked

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Told:
    """What the record says of a group: reasons naming its prompts, its summary, its unrecorded parts."""

    reasons: list[str]
    summary: str | None
    unrecorded: int


@dataclass
class RecordedTasks:
    units: Units
    provenance: Provenance
    tasks: Tasks

    def owners(self, hunk_ids: list[str], change_ids: Sequence[str] = ()) -> tuple[Counter, int]:
        """Changed lines per intent among the hunks (and hunkless changes), and how many lines in all."""
        votes: Counter[str] = Counter()
        total = 0
        for hunk_id in hunk_ids:
            unit = self.units.by_id.get(hunk_id)
            if unit is None:
                continue
            for parent, index in unit.refs:
                total += 1
                row = self.provenance.owners.get(parent, [])
                owner = row[index] if index < len(row) else None
                if owner is not None:
                    votes[owner] += 1
        for change_id in change_ids:
            total += 1
            owner = self.provenance.files.get(change_id)
            if owner is not None:
                votes[owner] += 1
        return votes, total

    def described(self, hunk_ids: list[str], change_ids: Sequence[str] = ()) -> Told | None:
        """What the record says of a group holding these hunks, as grouping says it (``Recorded.describe``):
        the prompts that wrote its lines, and the ask of the task that wrote most of them as its
        summary (the plan's title says the same), unless recorded prompts wrote fewer than half of
        them; None when none of its lines were recorded."""
        from segmint_core.trajectory.provenance.prompts import actionable

        votes, ranked = self._ranked(hunk_ids, change_ids)
        if not votes:
            return None
        intents = [self.provenance.intents[i] for i in sorted(votes, key=intent_number) if i in self.provenance.intents]
        parts: list[tuple[list[str], list[str]]] = [([h], []) for h in hunk_ids if h in self.units.by_id] + [
            ([], [c]) for c in change_ids
        ]
        unrecorded = sum(1 for hunks, changes in parts if not self.owners(hunks, changes)[0])
        task = self.provenance.intents.get(ranked[0]) if ranked else None
        clause = actionable(task.text) if task is not None else ""
        return Told(provenance_reasons(intents, self.tasks, unrecorded), capitalized(clause) or None, unrecorded)

    def intents_of(self, hunk_ids: list[str], change_ids: Sequence[str] = ()) -> list[str]:
        votes, _ = self.owners(hunk_ids, change_ids)
        return sorted(votes, key=intent_number)

    def task_number(self, hunk_ids: list[str], change_ids: Sequence[str] = ()) -> int | None:
        """The number of the task ``asked`` names for these lines (the order tasks were asked in)."""
        _, ranked = self._ranked(hunk_ids, change_ids)
        return intent_number(ranked[0]) if ranked else None

    def _ranked(self, hunk_ids: list[str], change_ids: Sequence[str]) -> tuple[Counter, list[str]]:
        """The lines' intents with their line counts, and their tasks, most lines first; no tasks when
        recorded prompts wrote fewer than half of the lines."""
        votes, total = self.owners(hunk_ids, change_ids)
        if not votes or 2 * sum(votes.values()) < total:
            return votes, []
        by_task: Counter[str] = Counter()
        for intent, lines in votes.items():
            by_task[self.tasks.task_of.get(intent, intent)] += lines
        return votes, sorted(by_task, key=lambda t: (-by_task[t], intent_number(t)))

    def asked(self, hunk_ids: list[str], change_ids: Sequence[str] = ()) -> Asked | None:
        """The task that wrote most of these lines, when recorded prompts wrote at least half of them."""
        from segmint_core.planning.intents import Asked  # (loads the message writer: only when planning)

        votes, ranked = self._ranked(hunk_ids, change_ids)
        if not ranked:
            return None
        main = self.provenance.intents.get(ranked[0])
        if main is None:
            return None
        follow_ups = tuple(
            self.provenance.intents[i].text
            for i in sorted(votes, key=intent_number)
            if self.tasks.task_of.get(i) == ranked[0] and i != ranked[0] and i in self.provenance.intents
        )
        others = tuple(self.provenance.intents[t].text for t in ranked[1:] if t in self.provenance.intents)
        return Asked(main.text, follow_ups, others + self._folded_into(votes))

    @cached_property
    def _owning(self) -> set[str]:
        """The intents that own a changed line of the tree (read once: every plan asks)."""
        return {o for row in self.provenance.owners.values() for o in row if o is not None}

    def _folded_into(self, votes: Counter) -> tuple[str, ...]:
        """The tasks that only rewrote lines these lines' tasks wrote: they own no line of their own
        (each rewrite stays with the line's first task), so the commit holding them says them."""
        folded = {
            later
            for first in votes
            for later in self.provenance.rewritten_by.get(first, ())
            if later not in self._owning and later in self.provenance.intents
        }
        return tuple(self.provenance.intents[i].text for i in sorted(folded, key=intent_number))


def recorded_tasks(units: Units, git: Git) -> RecordedTasks | None:
    """The tasks recorded for the session's changes; None when nothing was recorded (or the record
    cannot be read: messages are then written from the diff alone)."""
    try:
        provenance = line_provenance(git.root, units.changeset)
    except DamagedProvenanceError as exc:
        log.warning("messages without recorded intents: %s", exc)
        return None
    if provenance is None or not (provenance.recorded() or any(provenance.files.values())):
        return None
    present = {o for row in provenance.owners.values() for o in row if o} | {o for o in provenance.files.values() if o}
    return RecordedTasks(units, provenance, tasks_of(provenance, present))


def asked_for(units: Units, git: Git, plans: list[CommitPlan]) -> list[AskedFor | None]:
    """What was asked for each plan's lines in the working tree, as the pull request says it; None
    for a plan whose lines no recorded prompt asked for."""
    recorded = recorded_tasks(units, git) if plans else None
    if recorded is None:
        return [None] * len(plans)
    asks = [recorded.asked([h for h in p.hunk_ids if h in units.by_id], p.change_ids) for p in plans]
    return [AskedFor(a.clause, task_lines(a)) if a is not None and a.clause else None for a in asks]


def task_lines(asked: Asked) -> list[str]:
    """A task as the pull request lists it: its ask, with how many follow-ups it took, then any
    task merged in or one that only rewrote this task's new lines (still a task done)."""
    n = len(asked.follow_ups)
    more = f" (and {n} follow-up{'s' if n != 1 else ''})" if n else ""
    lines = [capitalized(asked.clause) + more, *map(capitalized, asked.other_clauses)]
    return list(dict.fromkeys(lines))
