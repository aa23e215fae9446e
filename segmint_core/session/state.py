"""Saving and restoring a session's state, and carrying it across re-captures."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from segmint_core.wire import to_wire
from segmint_core.session.models import (
    APPLIED,
    APPLY_OP,
    SEGMINT,
    Activity,
    AppliedCommit,
    CommitPlan,
    Group,
    Operation,
    PullRequestDraft,
)
from segmint_core.session.remap import OldUnit, Remap
from segmint_core.atomic import write_atomic
from segmint_core.session.store import SetAside, load_state, put_aside, save_state
from segmint_core.session.units import Units
from segmint_core.wording import counted, shown

ACTIVITY_KEPT = 500
UNDO_KEPT = 20  # operations whose commits undo can take back
OPERATIONS_KEPT = 100


@dataclass
class RefreshReport:
    changed: bool
    vanished: list[str] = field(default_factory=list)  # unit ids no longer there
    appeared: list[str] = field(default_factory=list)  # new unit ids
    revision: int = 0

    def to_dict(self) -> dict[str, Any]:
        return to_wire(self)

    def sentence(self) -> str:
        if not self.changed:
            return "No changes on disk since the last refresh."
        parts = []
        if self.vanished:
            parts.append(f"{counted(len(self.vanished), 'hunk')} gone")
        if self.appeared:
            parts.append(counted(len(self.appeared), "new hunk"))
        return "Refreshed: " + (", ".join(parts) if parts else "same hunks, new ids") + "."


@dataclass
class SavedState:
    revision: int = 0
    changes_revision: int = 0
    fingerprint: str | None = None
    head: str | None = None
    splits: dict[str, list[list[int]]] = field(default_factory=dict)
    groups: list[Group] = field(default_factory=list)
    plans: list[CommitPlan] = field(default_factory=list)
    pr: PullRequestDraft | None = None
    activity: list[Activity] = field(default_factory=list)
    applied: list[AppliedCommit] = field(default_factory=list)
    # What the last moves changed, for undo_move: saved only while a move is the last edit.
    moves: list[dict[str, Any]] = field(default_factory=list)
    units_stamp: str | None = None  # names the units file that goes with this state (write_units)
    # Hunks someone moved by hand since the grouping: no uncertain decision offers to move them again.
    settled: list[str] = field(default_factory=list)
    # Groups a move emptied, by id: a move back to one makes it again (``groups.reopen``).
    emptied: list[str] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)  # the operation log, oldest first
    op_count: int = 0  # operations ever recorded: the next is op-(op_count + 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "revision": self.revision,
            "changes_revision": self.changes_revision,
            "fingerprint": self.fingerprint,
            "head": self.head,
            "splits": self.splits,
            "groups": [g.to_dict() for g in self.groups],
            "plans": [p.to_dict() for p in self.plans],
            "pr": self.pr.to_dict() if self.pr else None,
            "activity": [a.to_dict() for a in self.activity[-ACTIVITY_KEPT:]],
            "applied": [a.to_dict() for a in undo_reaches(self.applied)],
            "moves": self.moves if self.moves and self.moves[-1]["after"] == self.revision else [],
            "units_stamp": self.units_stamp,
            "settled": self.settled,
            "emptied": self.emptied,
            "operations": [o.to_dict() for o in self.operations[-OPERATIONS_KEPT:]],
            "op_count": self.op_count,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "SavedState":
        state = cls._read(data)
        _log_unlogged_commits(state)
        return state

    @classmethod
    def _read(cls, data: dict[str, Any]) -> "SavedState":
        return cls(
            revision=int(data.get("revision", 0)),
            changes_revision=int(data.get("changes_revision", 0)),
            fingerprint=data.get("fingerprint"),
            head=data.get("head"),
            splits={k: list(v) for k, v in (data.get("splits") or {}).items()},
            groups=[Group.from_dict(g) for g in data.get("groups", [])],
            plans=[CommitPlan.from_dict(p) for p in data.get("plans", [])],
            pr=PullRequestDraft.from_dict(data["pr"]) if data.get("pr") else None,
            activity=[Activity.from_dict(a) for a in data.get("activity", [])],
            applied=[AppliedCommit.from_dict(a) for a in data.get("applied", [])],
            moves=list(data.get("moves", [])),
            units_stamp=data.get("units_stamp"),
            settled=[str(h) for h in data.get("settled", [])],
            emptied=[str(g) for g in data.get("emptied", [])],
            operations=[Operation.from_dict(o) for o in data.get("operations", [])],
            op_count=int(data.get("op_count", 0)),
        )


def undo_reaches(applied: list[AppliedCommit]) -> list[AppliedCommit]:
    """The commits of the last ``UNDO_KEPT`` operations: undo takes back whole operations only."""
    ops = list(dict.fromkeys(c.op for c in applied))[-UNDO_KEPT:]
    kept = set(ops)
    return [c for c in applied if c.op in kept]


def _log_unlogged_commits(state: SavedState) -> None:
    """A session saved before the operation log kept commits alone: each becomes an operation of its own."""
    for commit in state.applied:
        if not commit.op:
            state.op_count += 1
            commit.op = f"op-{state.op_count}"
            state.operations.append(
                Operation(
                    commit.op,
                    APPLY_OP,
                    commit.plan_id,
                    SEGMINT,
                    "",
                    None,
                    commit.parent,
                    commit.sha,
                    commit.index_before,
                    dict(commit.index_after),
                    [commit.sha],
                )
            )


STATE_FILE = "session.json"  # in the session folder: groups, plans, draft, activity


def read_saved(folder: Path, on_set_aside: SetAside | None = None) -> SavedState | None:
    """The saved session, or None; an unreadable one is set aside (``on_set_aside`` told where)."""
    data = load_state(folder / STATE_FILE, on_set_aside)
    if data is None:
        return None
    try:
        return SavedState.from_dict(data)
    except (TypeError, KeyError, ValueError, AttributeError):
        put_aside(folder / STATE_FILE, on_set_aside)
        return None


def write_saved(folder: Path, state: SavedState) -> None:
    save_state(folder / STATE_FILE, state.to_dict())


def unit_signatures(units: Units) -> list[OldUnit]:
    return [
        OldUnit(
            unit.id,
            unit.change.file_path,
            unit.parent.staged,
            tuple(unit.changed_lines),
            unit.parent.id,
            tuple(units.places(unit)),
        )
        for unit in units.by_id.values()
    ]


UNITS_FILE, UNITS_BEFORE = "units.json", "units-before.json"


def write_units(folder: Path, units: Units, state: SavedState) -> None:
    """Save the units' signatures for ``state`` (saved right after): the file is stamped, and the
    state names the stamp, so a process stopped between the two writes leaves the state with
    the units it was saved with (the file before stays, as ``units-before.json``)."""
    stamp = f"{os.getpid()}-{time.time_ns()}"
    rows = [[u.id, u.path, u.staged, list(u.changed), u.parent, list(u.positions)] for u in unit_signatures(units)]
    data = json.dumps({"stamp": stamp, "changed_lines": rows, "paths": _change_paths(units)}, ensure_ascii=False)
    if (folder / UNITS_FILE).exists():
        os.replace(folder / UNITS_FILE, folder / UNITS_BEFORE)
    write_atomic(folder / UNITS_FILE, data.encode("utf-8", "surrogateescape"))
    state.units_stamp = stamp


def read_units(folder: Path, stamp: str | None = None) -> tuple[list[OldUnit], dict[str, str]]:
    """The units saved with the state stamped ``stamp`` (without one: the latest units saved)."""
    for name in (UNITS_FILE, UNITS_BEFORE):
        try:
            data = json.loads((folder / name).read_bytes().decode("utf-8", "surrogateescape"))
            if stamp is not None and data.get("stamp") != stamp:
                continue
            return [_old_unit(row) for row in data["changed_lines"]], dict(data.get("paths", {}))
        except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
            continue
    return [], {}


def _old_unit(row: list) -> OldUnit:
    """A row of units.json; rows saved before parts were cut line by line have four fields."""
    parent, positions = (str(row[4]), tuple(int(p) for p in row[5])) if len(row) > 5 else ("", ())
    return OldUnit(row[0], row[1], bool(row[2]), tuple(row[3]), parent, positions)


def _change_paths(units: Units) -> dict[str, str]:
    return {c.id: c.file_path for c in units.changes}


def carry_over(state: SavedState, mapping: Remap, units: Units, old_paths: dict[str, str], revision: int) -> set[str]:
    """Rewrite groups and open plans in ``state`` to the new unit and change ids.

    A hunk edited again is new to the remap; it goes back to the group that
    lost a hunk in its file, when only one did. Returns those re-homed ids.
    """
    path_to_change = {c.file_path: c.id for c in units.changes}
    claimed: set[str] = set()
    homes = _homes(state.groups, mapping, units, old_paths)
    for group in state.groups:
        group.hunk_ids = _mapped(group.hunk_ids, mapping, claimed)
        back = [uid for uid, home in homes.items() if home is group]
        if back:
            group.hunk_ids = units.in_order(group.hunk_ids + back)
        group.change_ids = _change_ids(group, units, old_paths, path_to_change)
        group.revision = revision
    state.groups = [g for g in state.groups if g.hunk_ids or g.change_ids]
    carried = _carried(mapping)
    for plan in state.plans:
        if plan.status == APPLIED:
            continue
        # A unit git now shows joined with a unit of another plan has changed too.
        lost = [
            h
            for h in plan.hunk_ids
            if h not in mapping.ids
            or any(carried[new] - set(plan.hunk_ids) for new in [mapping.ids[h], *mapping.also.get(h, [])])
        ]
        plan.hunk_ids = _mapped(plan.hunk_ids, mapping, set())
        plan.change_ids = [path_to_change[p] for cid in plan.change_ids if (p := old_paths.get(cid)) in path_to_change]
        plan.changed = sorted(set(plan.changed) | {shown(_old_path(h, old_paths)) for h in lost})
        plan.revision = revision
    state.plans = [p for p in state.plans if p.status == APPLIED or p.hunk_ids or p.change_ids or p.changed]
    state.settled = _mapped(state.settled, mapping, set())
    return set(homes)


def _carried(mapping: Remap) -> dict[str, set[str]]:
    """New unit id -> the old units whose lines it holds."""
    carried: dict[str, set[str]] = {}
    for old, new in mapping.ids.items():
        carried.setdefault(new, set()).add(old)
    for old, news in mapping.also.items():
        for new in news:
            carried.setdefault(new, set()).add(old)
    return carried


def _homes(groups: list[Group], mapping: Remap, units: Units, old_paths: dict[str, str]) -> dict[str, Group]:
    """New unit id -> the group it returns to: the one group that lost a unit in its file."""
    losers: dict[str, set[int]] = {}
    for n, group in enumerate(groups):
        for old in group.hunk_ids:
            if old not in mapping.ids:
                losers.setdefault(_old_path(old, old_paths), set()).add(n)
    homes: dict[str, Group] = {}
    for uid in mapping.appeared:
        found = losers.get(units.change_of(uid).file_path, set())
        if len(found) == 1:
            homes[uid] = groups[next(iter(found))]
    return homes


def _old_path(unit_id: str, old_paths: dict[str, str]) -> str:
    """The file an old unit (``change-3:2``, ``change-3:2.1``) was in."""
    return old_paths.get(unit_id.split(":")[0], unit_id)


def _mapped(ids: list[str], mapping: Remap, claimed: set[str]) -> list[str]:
    out: list[str] = []
    for old in ids:
        first = mapping.ids.get(old)
        for new in ([first] if first is not None else []) + mapping.also.get(old, []):
            if new not in claimed:
                claimed.add(new)
                out.append(new)
    return out


def _change_ids(group: Group, units: Units, old_paths: dict[str, str], path_to_change: dict[str, str]) -> list[str]:
    ids = {units.change_of(h).id for h in group.hunk_ids}
    for old in group.change_ids:
        new = path_to_change.get(old_paths.get(old, ""))
        if new is not None and not units.change_by_id[new].hunks:
            ids.add(new)
    return sorted(ids, key=lambda cid: int(cid.rsplit("-", 1)[1]))
