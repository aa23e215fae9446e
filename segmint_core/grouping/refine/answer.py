"""The model's answer: its JSON schema, strict validation, and what it does to a grouping.

An answer is three lists of edits, each with a reason:

- ``moves``: ``{"hunk_ids": [...], "to_group": "group-1", "reason": "..."}``
- ``merges``: ``{"group_ids": ["group-2", "group-4"], "reason": "..."}`` (into the first)
- ``splits``: ``{"group_id": "group-3", "parts": [[...], [...]], "reason": "..."}``, the
  parts holding every hunk of the group exactly once (the first part keeps the id)

Applied in that order: splits on the groups as shown, then moves, then merges.
Validation is strict: anything other than exactly this shape, an id not shown,
an id named twice, a split that drops a hunk, an empty part or a merge of one
group raises ``InvalidAnswer`` with one sentence saying what, and nothing of
that answer is applied.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from segmint_core.errors import SegmintError

REASON_CHARS = 300
_IDS = {"type": "array", "items": {"type": "string"}}
_REASON = {"type": "string"}

SCHEMA: dict = {
    "type": "object",
    "additionalProperties": False,
    "required": ["moves", "merges", "splits"],
    "properties": {
        "moves": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["hunk_ids", "to_group", "reason"],
                "properties": {"hunk_ids": _IDS, "to_group": {"type": "string"}, "reason": _REASON},
            },
        },
        "merges": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["group_ids", "reason"],
                "properties": {"group_ids": _IDS, "reason": _REASON},
            },
        },
        "splits": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["group_id", "parts", "reason"],
                "properties": {
                    "group_id": {"type": "string"},
                    "parts": {"type": "array", "items": _IDS},
                    "reason": _REASON,
                },
            },
        },
    },
}
RESPONSE_FORMAT = {"type": "json_schema", "json_schema": {"name": "regrouping", "strict": True, "schema": SCHEMA}}
_FIELDS = {
    "moves": ("hunk_ids", "to_group", "reason"),
    "merges": ("group_ids", "reason"),
    "splits": ("group_id", "parts", "reason"),
}
_JSON_KINDS = {list: "list", str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}
_FENCE = re.compile(r"^```(?:json)?\s*\n(.*)\n```$", re.DOTALL)


class InvalidAnswer(SegmintError):
    """The model's answer cannot be applied as it stands."""


@dataclass(frozen=True)
class Move:
    hunk_ids: tuple[str, ...]
    to_group: str
    reason: str

    def sentence(self) -> str:
        return f"moved {', '.join(self.hunk_ids)} to {self.to_group} ({self.reason})"


@dataclass(frozen=True)
class Merge:
    group_ids: tuple[str, ...]
    reason: str

    def sentence(self) -> str:
        return f"merged {', '.join(self.group_ids)} into {self.group_ids[0]} ({self.reason})"


@dataclass(frozen=True)
class Split:
    group_id: str
    parts: tuple[tuple[str, ...], ...]
    reason: str

    def sentence(self) -> str:
        return f"split {self.group_id} in {len(self.parts)} ({self.reason})"


@dataclass(frozen=True)
class Proposal:
    """One valid answer: the edits it makes to the groups it was shown."""

    moves: tuple[Move, ...] = ()
    merges: tuple[Merge, ...] = ()
    splits: tuple[Split, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.moves or self.merges or self.splits)

    def sentences(self) -> list[str]:
        edits: list[Split | Move | Merge] = [*self.splits, *self.moves, *self.merges]
        return [e.sentence() for e in edits]


Assignment = dict[str, list[str]]  # group id -> the ids of its hunks (and hunkless changes), in order


def parse(reply: str, shown: Assignment) -> Proposal:
    """The model's ``reply`` as a ``Proposal`` over the groups it was ``shown``; ``InvalidAnswer`` if it is not one."""
    data = _shaped(_load(reply))
    proposal = Proposal(
        tuple(Move(tuple(m["hunk_ids"]), m["to_group"], _reason(m)) for m in data["moves"]),
        tuple(Merge(tuple(m["group_ids"]), _reason(m)) for m in data["merges"]),
        tuple(Split(s["group_id"], tuple(tuple(p) for p in s["parts"]), _reason(s)) for s in data["splits"]),
    )
    _check_ids(proposal, shown)
    return proposal


def apply(assignment: Assignment, proposal: Proposal, new_id: Callable[[], str]) -> Assignment:
    """``assignment`` after the proposal's splits, moves and merges; ``new_id()`` names each new group.

    Groups a move empties are left out. Every item stays in exactly one group
    (checked: a broken invariant raises ``InvalidAnswer``, so nothing is applied).
    """
    out = {gid: list(items) for gid, items in assignment.items()}
    for split in proposal.splits:
        out[split.group_id] = list(split.parts[0])
        for part in split.parts[1:]:
            out[new_id()] = list(part)
    for move in proposal.moves:
        moving = set(move.hunk_ids)
        for gid in out:
            out[gid] = [i for i in out[gid] if i not in moving]
        out[move.to_group].extend(move.hunk_ids)
    for merge in proposal.merges:
        keep = merge.group_ids[0]
        for other in merge.group_ids[1:]:
            out[keep].extend(out.pop(other))
    out = {gid: items for gid, items in out.items() if items}
    before = sorted(i for items in assignment.values() for i in items)
    if sorted(i for items in out.values() for i in items) != before:
        raise InvalidAnswer("the edits would lose or double a hunk")
    return out


def _load(reply: str) -> object:
    text = reply.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        return json.loads(text)
    except ValueError as exc:
        raise InvalidAnswer(f"the answer is not JSON ({exc.args[0].split(':')[0]})") from None
    except RecursionError:  # brackets nested deeper than the parser goes: no answer of this schema
        raise InvalidAnswer("the answer is not JSON (nested too deep)") from None


def _shaped(data: object) -> dict[str, Any]:
    """``data`` if it has the answer's shape; ``InvalidAnswer`` naming where it does not."""
    if not isinstance(data, dict):
        raise InvalidAnswer(
            f"the answer is a JSON {_JSON_KINDS.get(type(data), 'value')}, not an object of moves, merges and splits"
        )
    if set(data) != set(_FIELDS):
        raise InvalidAnswer(f"the answer has the keys {sorted(data)}, not exactly {sorted(_FIELDS)}")
    for kind, keys in _FIELDS.items():
        items = data[kind]
        if not isinstance(items, list):
            raise InvalidAnswer(f"{kind} is not a list")
        for n, item in enumerate(items, 1):
            where = f"{kind}[{n}]"
            if not isinstance(item, dict) or set(item) != set(keys):
                raise InvalidAnswer(f"{where} must be an object with exactly {', '.join(keys)}")
            for key in keys:
                _check_field(where, key, item[key])
    return data


def _check_field(where: str, key: str, value: object) -> None:
    if key in ("to_group", "group_id", "reason"):
        if not isinstance(value, str) or not value.strip():
            raise InvalidAnswer(f"{where}.{key} must be a non-empty string")
    elif key == "parts":
        if not isinstance(value, list) or not all(_is_ids(p) for p in value):
            raise InvalidAnswer(f"{where}.parts must be a list of lists of ids")
        if len(value) < 2 or not all(value):
            raise InvalidAnswer(f"{where} must have at least two parts, none of them empty")
    elif not _is_ids(value) or not value:
        raise InvalidAnswer(f"{where}.{key} must be a non-empty list of ids")


def _is_ids(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _reason(item: dict) -> str:
    text = " ".join(item["reason"].split())
    return text if len(text) <= REASON_CHARS else text[: REASON_CHARS - 1] + "…"


def _check_ids(proposal: Proposal, shown: Assignment) -> None:
    home = {item: gid for gid, items in shown.items() for item in items}
    named_items = [i for s in proposal.splits for p in s.parts for i in p] + [
        i for m in proposal.moves for i in m.hunk_ids
    ]
    named_groups = [s.group_id for s in proposal.splits] + [g for m in proposal.merges for g in m.group_ids]
    _unknown("hunk", [i for i in named_items if i not in home])
    _unknown("group", [g for g in named_groups + [m.to_group for m in proposal.moves] if g not in shown])
    _doubled(named_items)
    _doubled(named_groups)
    for split in proposal.splits:
        group = shown[split.group_id]
        strays = [i for p in split.parts for i in p if home[i] != split.group_id]
        if strays:
            raise InvalidAnswer(f"the split of {split.group_id} names {', '.join(strays)}, not in that group")
        dropped = [i for i in group if not any(i in p for p in split.parts)]
        if dropped:
            raise InvalidAnswer(f"the split of {split.group_id} drops {', '.join(dropped)}")
    for move in proposal.moves:
        idle = [i for i in move.hunk_ids if home[i] == move.to_group]
        if idle:
            raise InvalidAnswer(f"a move names {', '.join(idle)}, already in {move.to_group}")
    for merge in proposal.merges:
        if len(merge.group_ids) < 2:
            raise InvalidAnswer(f"a merge names only {merge.group_ids[0]}")


def _unknown(kind: str, ids: list[str]) -> None:
    if ids:
        unique = list(dict.fromkeys(ids))
        raise InvalidAnswer(
            f"the answer names {'an unknown' if len(unique) == 1 else 'unknown'} "
            f"{kind} id{'s' if len(unique) > 1 else ''} {', '.join(unique[:5])}"
        )


def _doubled(ids: list[str]) -> None:
    seen: set[str] = set()
    twice = []
    for i in ids:
        if i in seen:
            twice.append(i)
        seen.add(i)
    if twice:
        raise InvalidAnswer(f"the answer names {', '.join(dict.fromkeys(twice))} more than once")
