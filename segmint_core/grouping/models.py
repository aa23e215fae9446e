"""The wire shapes grouping produces: ChangeGroup and Grouping."""

from __future__ import annotations

from dataclasses import dataclass, field

from segmint_core.changes.models import Change
from segmint_core.wire import to_wire


@dataclass
class ChangeGroup:
    """Hunks that belong to one intent, with a one-line summary and the evidence.

    ``change_ids`` lists every change with a hunk in the group, plus hunkless
    changes (renames, mode changes, binaries, empty files) assigned to it.
    ``hunk_ids`` are effective ids: a split hunk appears as its sub-hunks.
    ``note`` says when something fell back (an LLM summary that failed).
    """

    id: str
    change_ids: list[str]
    hunk_ids: list[str]
    summary: str
    reasons: list[str]
    note: str | None = None

    def to_dict(self) -> dict:
        data = to_wire(self)
        if self.note is None:  # only said when something fell back
            del data["note"]
        return data


@dataclass
class Grouping:
    """Effective changes (split hunks replaced by their sub-hunks) and the groups over them.

    ``splits`` maps a parent hunk id to the cuts passed to ``split_hunk``; it is
    what a session stores to rebuild the same effective changes later.
    """

    changes: list[Change]
    groups: list[ChangeGroup]
    splits: dict[str, list[int]] = field(default_factory=dict)
    # The units and links the groups came from, when they are the offline evidence
    # (``engine.evidence``) of the changes grouped: a session keeps them for its confidence.
    evidence: tuple[list, list] | None = field(default=None, repr=False, compare=False)
    # Group id -> the recorded intents its lines were written under (``trajectory.provenance``).
    intents: dict[str, list[str]] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict:
        return {
            "changes": [c.to_dict() for c in self.changes],
            "groups": [g.to_dict() for g in self.groups],
        }

    def hunk_groups(self) -> dict[str, str]:
        """Effective hunk id -> id of the group holding it."""
        return {h: g.id for g in self.groups for h in g.hunk_ids}
