"""Refining the groups with the chat model (``grouping.refine``), as one edit of the session.

The model is asked outside the session's lock (a request may take seconds,
and the TUI and agents keep working meanwhile); its valid edits are applied
only if the groups are still the ones it was shown. Applied or not, the
outcome is a line of the session's activity naming who asked, so the TUI
and a paired agent read the same result. ``z`` (``undo_move``) takes an
applied refinement back, as long as it is the last edit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from segmint_core.changes.models import Change
from segmint_core.errors import SegmintError
from segmint_core.session import events, moves
from segmint_core.session.core import SessionCore
from segmint_core.session.groups import add_group, follow_groups, refresh_summaries, tidy_groups
from segmint_core.session.models import PERSON, Group
from segmint_core.session.units import Units

if TYPE_CHECKING:
    from segmint_core.grouping.refine import Refinement
    from segmint_core.grouping.refine.prompt import Requests

CHANGED_MEANWHILE = "the groups changed while the model answered"


@dataclass(frozen=True)
class Asking:
    """What the model is shown, read from the session at one revision."""

    revision: int
    changes: list[Change]
    groups: list[Group]
    withheld: set[str]
    uncertain: list[str]


def refine_groups(session: SessionCore, *, actor: str = PERSON) -> Refinement:
    """Ask the chat model to settle the groups; apply what it proposes that passes validation."""
    from segmint_core.grouping.refine import NO_MODEL, ask  # grouping loads numpy: only when refining

    if not session.settings.chat_enabled:
        raise SegmintError(NO_MODEL)
    asking = _asking(session)
    refinement = ask(
        session.settings, asking.changes, asking.groups, uncertain=asking.uncertain, withheld=asking.withheld
    )
    with session.lock:
        session.begin_edit()
        if refinement.proposals and session.revision != asking.revision:
            refinement = refinement.declined(CHANGED_MEANWHILE)
        text = f"{actor} asked {refinement.model} to refine the groups: {refinement.sentence()}"
        if refinement.proposals:
            before = moves.snapshot(session)
            _apply(session, refinement.regrouped(assignment(session.units, asking.groups)))
            session.log(actor, "refined", text)
            moves.remember(session, before, text)
            session.save()
        else:
            session.record(actor, "kept", text)
    session.announce(events.GROUPS, actor, {"refined": refinement.to_dict()})
    return refinement


def refine_requests(session: SessionCore) -> Requests:
    """The requests a refinement would send now (nothing is sent; no model is needed)."""
    from segmint_core.grouping.refine import prompt

    asking = _asking(session)
    return prompt.build(asking.changes, asking.groups, uncertain=asking.uncertain, withheld=asking.withheld)


def _asking(session: SessionCore) -> Asking:
    from segmint_core.grouping.refine.withheld import withheld_paths

    with session.lock:
        if not session.groups:
            raise SegmintError("No groups to refine: group the changes first")
        changes = session.changes
        withheld = withheld_paths(session.git, [p for c in changes for p in (c.file_path, c.old_path) if p])
        return Asking(
            session.revision,
            changes,
            [Group.from_dict(g.to_dict()) for g in session.groups],
            withheld,
            uncertain_decisions(session),
        )


def uncertain_decisions(session: SessionCore) -> list[str]:
    """The engine's least certain decisions, as sentences naming ids (``session.confidence``), each with
    how likely the alternative is and every hunk it would move (the sentence may name only a few)."""
    from segmint_core.session.confidence import confidence

    out = []
    for u in confidence(session).uncertain:
        unnamed = [h for h in u.hunk_ids if h not in u.text]
        hunks = f"; the hunks: {', '.join(u.hunk_ids)}" if unnamed else ""
        out.append(f"{u.text} ({round(100 * u.probability)}% likely{hunks})")
    return out


def assignment(units: Units, groups: list[Group]) -> dict[str, list[str]]:
    """Group id -> its hunk ids, then its hunkless change ids."""
    return {
        g.id: list(g.hunk_ids)
        + [c for c in g.change_ids if c in units.change_by_id and not units.change_by_id[c].hunks]
        for g in groups
    }


def _apply(session: SessionCore, regrouped: dict[str, list[str]]) -> None:
    """Make the session's groups ``regrouped`` (new groups under placeholder ids get the next numbers)."""
    state, units = session.state, session.units
    by_id = {g.id: g for g in state.groups}
    kept: set[str] = set()
    for gid, items in regrouped.items():
        group = by_id.get(gid) or add_group(state, units, [], "", [])
        group.hunk_ids = units.in_order([i for i in items if i in units.by_id])
        group.change_ids = [i for i in items if i in units.change_by_id]
        kept.add(group.id)
    state.groups = [g for g in state.groups if g.id in kept]
    tidy_groups(state, units)
    follow_groups(state, units)
    state.revision += 1
    refresh_summaries(state, units, session.git)
