"""What the chat model is shown: the groups, their evidence, each hunk in a line or a few, in bounded requests.

Each hunk is summarised (its file, header, counts and its first changed lines,
cut short), never sent whole. A hunk of a git-ignored or secret file is shown by id
only, and of a generated file without its lines; every line is masked by
``redact`` where it looks like a secret. Groups are packed whole into requests
of at most ``TOKENS_PER_REQUEST`` (estimated at three characters a token), at
most ``MAX_REQUESTS`` of them, the groups the engine is least sure of first;
the budget holds for the whole request: the instructions, the groups and the
uncertain decisions naming them. A group joins a request only while its
decisions fit too; a group whose decisions alone overflow its request is sent
with those that fit, and the rest are counted (``decisions_cut``). Hunks are
shown with fewer lines, then none, where that lets a group fit in a request or
every group fit in the requests. Groups past the last request, and a group too
large for a request even without its lines, are not sent, and the refinement
says so.

The diffchunk code (``segmint_core.chunks``) cuts a diff by files and lines;
here a request must hold whole groups, so they are packed by group instead.
"""

from __future__ import annotations

from collections.abc import Sequence, Set as AbstractSet

import re
from dataclasses import dataclass, field
from typing import Protocol

from segmint_core.changes.generated import is_generated
from segmint_core.changes.models import Change, Hunk
from segmint_core.redact import redact
from segmint_core.wording import shown

TOKENS_PER_REQUEST = 4_000
MAX_REQUESTS = 12
CHARS_PER_TOKEN = 3  # ids, paths and code: cl100k_base counts about one token per 3 characters of them
LINES_PER_HUNK = 3
DETAIL = (LINES_PER_HUNK, 1, 0)  # changed lines shown per hunk, as room allows
LINE_CHARS = 100
REASONS_SHOWN = 4
UNCERTAIN_SHOWN = 10
DECISION_CHARS = 2_000  # a decision names every hunk it would move: cut only past this
WITHHELD = "(summary not sent: it names a git-ignored or secret file)"

SYSTEM = (
    "You review how a tool grouped the uncommitted changes of a git repository into commits, one group per "
    "intent (a fix, a refactor, a docs edit). You see each group's summary, the evidence that put its hunks "
    "together, and each hunk in brief. Correct only clear mistakes: move hunks to the group whose intent they "
    "serve, merge groups that are one intent, split a group holding two intents. Answer with JSON only: "
    '{"moves": [{"hunk_ids": ["change-3:2"], "to_group": "group-1", "reason": "..."}], '
    '"merges": [{"group_ids": ["group-2", "group-4"], "reason": "..."}], '
    '"splits": [{"group_id": "group-3", "parts": [["change-5:1"], ["change-6:1", "change-6:2"]], '
    '"reason": "..."}]}. Use only the ids shown; name each hunk and each merged or split group at most once; '
    "a split's parts hold every hunk of that group. Leave all three lists empty when the grouping is right."
)
HEADER = "Groups:\n\n"
DECISIONS_HEADER = "\nThe grouping is least sure of these (settle them first):\n"
_ID = re.compile(r"\b(?:group-\d+|change-\d+(?::[0-9.]+)?)\b")


class GroupLike(Protocol):
    """A session ``Group`` or grouping's ``ChangeGroup``."""

    id: str
    change_ids: list[str]
    hunk_ids: list[str]
    summary: str
    reasons: list[str]


@dataclass(frozen=True)
class Request:
    """One request: the groups it shows (id -> their items, in order) and the user message."""

    shown: dict[str, list[str]]
    text: str


@dataclass
class Requests:
    requests: list[Request] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)  # group ids not sent: past the last request
    too_large: list[str] = field(default_factory=list)  # not sent: over a request's budget without their lines
    decisions_cut: int = 0  # uncertain decisions about groups sent, left out for the room of their request


def items_of(group: GroupLike, changes: dict[str, Change]) -> list[str]:
    """A group's hunk ids, then the ids of its changes without hunks (a rename, a binary file)."""
    hunkless = [c for c in group.change_ids if c in changes and not changes[c].hunks]
    return list(group.hunk_ids) + hunkless


def build(
    changes: list[Change],
    groups: Sequence[GroupLike],
    *,
    uncertain: Sequence[str] = (),
    withheld: AbstractSet[str] = frozenset(),
    budget: int | None = None,
    max_requests: int | None = None,
) -> Requests:
    """The requests for ``groups``; ``withheld``: paths whose content must not be sent (git-ignored,
    or secret by name).

    Hunks are shown with fewer lines, then none, when that lets every group fit in the requests allowed.
    """
    budget = budget or TOKENS_PER_REQUEST
    max_requests = max_requests or MAX_REQUESTS
    room = budget - estimate_tokens(SYSTEM + HEADER)  # for a request's groups and decisions
    by_change = {c.id: c for c in changes}
    hunks = {h.id: (c, h) for c in changes for h in c.hunks}
    blocks = [(g, items_of(g, by_change)) for g in _doubted_first(groups, uncertain, by_change)]
    private = _private_names([i for _, items in blocks for i in items], hunks, by_change, withheld)
    private |= {
        i for _, items in blocks for i in items if _withheld(hunks[i][0] if i in hunks else by_change[i], withheld)
    }
    # A group too large for a request even with its hunks by id alone is not sent: one request stays bounded.
    too_large = {g.id for g, items in blocks if _cost(_group_block(g, items, hunks, by_change, withheld, 0)) > room}
    blocks = [(g, items) for g, items in blocks if g.id not in too_large]
    decisions = [(u, set(_ID.findall(u))) for u in uncertain if not _names_any(u, private)]
    for lines in DETAIL:
        texts = [
            (g.id, items, _fitting_block(g, items, hunks, by_change, withheld, room, lines)) for g, items in blocks
        ]
        out = _pack(texts, room, max_requests, lambda shown, left: _uncertain_text(decisions, shown, left))
        if not out.left_out:
            break
    out.too_large = [g.id for g in groups if g.id in too_large]
    return out


def _doubted_first(groups: Sequence[GroupLike], uncertain: Sequence[str], changes) -> list[GroupLike]:
    """The groups the uncertain decisions name first (they are sent, whatever is left out), then the rest."""
    named = {i for u in uncertain for i in _ID.findall(u)}
    doubted = {g.id for g in groups if g.id in named or named.intersection(items_of(g, changes))}
    return [g for g in groups if g.id in doubted] + [g for g in groups if g.id not in doubted]


def _pack(blocks: list[tuple[str, list[str], str]], room: int, max_requests: int, tail) -> Requests:
    """Whole groups into requests whose groups and decisions (``tail(shown, room_left)``: text and how many
    were cut) take at most ``room`` tokens, at most ``max_requests`` requests."""
    out = Requests()
    pending: list[tuple[str, list[str], str]] = []
    used = 0

    def shown_with(*more: tuple[str, list[str], str]) -> dict[str, list[str]]:
        return {gid: items for gid, items, _ in (*pending, *more)}

    def flush() -> None:
        if pending:
            decisions, cut = tail(shown_with(), room - used)
            text = HEADER + "\n".join(b for _, _, b in pending) + decisions
            out.requests.append(Request(shown_with(), text))
            out.decisions_cut += cut
            pending.clear()

    for gid, items, text in blocks:
        cost = _cost(text)
        if pending and used + cost + _cost(tail(shown_with((gid, items, text)), None)[0]) > room:
            flush()
            used = 0
        if len(out.requests) >= max_requests:
            out.left_out.append(gid)
            continue
        pending.append((gid, items, text))
        used += cost
    flush()
    return out


def estimate_tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def _cost(part: str) -> int:
    """An upper bound of what ``part`` adds to a request (with the newline joining it to the next part):
    the parts' costs add up to at least the whole request's estimate."""
    return estimate_tokens(part + "\n")


def _fitting_block(
    group: GroupLike, items: list[str], hunks, changes, withheld: AbstractSet[str], budget: int, most: int
) -> str:
    for lines in [n for n in DETAIL if n <= most]:
        text = _group_block(group, items, hunks, changes, withheld, lines)
        if _cost(text) <= budget:
            return text
    return text


def _group_block(group: GroupLike, items: list[str], hunks, changes, withheld: AbstractSet[str], lines: int) -> str:
    private = _private_names(items, hunks, changes, withheld)
    out = [f"{group.id}: {_clean(group.summary) if not _names_any(group.summary, private) else WITHHELD}"]
    reasons = [_clean(r) for r in group.reasons[:REASONS_SHOWN] if not _names_any(r, private)]
    if reasons:
        out.append("  evidence: " + "; ".join(reasons))
    for item in items:
        if item in hunks:
            change, hunk = hunks[item]
            out.extend(_hunk_lines(item, change, hunk, withheld, lines))
        else:
            change = changes[item]
            where = "(a git-ignored or secret file)" if _withheld(change, withheld) else _path(change)
            out.append(f"  - {item} {where} ({change.status}, no text lines)")
    return "\n".join(out) + "\n"


def _hunk_lines(item: str, change: Change, hunk: Hunk, withheld: AbstractSet[str], lines: int) -> list[str]:
    if _withheld(change, withheld):
        return [f"  - {item} (a git-ignored or secret file: nothing of it is sent)"]
    head = f"  - {item} {_path(change)} {_clean(hunk.header)} +{hunk.added} -{hunk.removed}"
    if is_generated(change.file_path) or lines == 0:
        return [head + (" (generated file)" if is_generated(change.file_path) else "")]
    changed = [line for line in hunk.lines if line[:1] in "+-"][:lines]
    changed = redact("\n".join(changed)).split("\n")  # masked together: a private key's lines after its BEGIN
    return [head] + [f"      {_clean(line, LINE_CHARS)}" for line in changed]


def _private_names(items: list[str], hunks, changes, withheld: AbstractSet[str]) -> set[str]:
    """The paths and file names of the group's withheld files, and their folders and stems that no
    file sent has (``files in the same folder conf/``, ``files about `secrets` ``): a summary or reason
    naming one is not sent."""
    files = [hunks[i][0] if i in hunks else changes[i] for i in items]
    paths = {p for c in files if _withheld(c, withheld) for p in (c.file_path, c.old_path) if p}
    public = {p for c in changes.values() if not _withheld(c, withheld) for p in (c.file_path, c.old_path) if p}
    names = paths | {p.rsplit("/", 1)[-1] for p in paths}
    names |= _folders(paths) - _folders(public)
    names |= {f"`{stem}`" for stem in _stems(paths) - _stems(public)}
    return names


def _folders(paths: set[str]) -> set[str]:
    """Every folder holding one of ``paths``, as ``a/`` and ``a/b/``."""
    return {p.rsplit("/", n)[0] + "/" for p in paths for n in range(1, p.count("/") + 1)}


def _stems(paths: set[str]) -> set[str]:
    return {p.rsplit("/", 1)[-1].split(".")[0] for p in paths} - {""}


def _names_any(text: str, names: set[str]) -> bool:
    """Whether ``text`` names one of ``names`` whole: a file ``key`` is not named by ``keyboard.py``,
    nor ``.env`` by ``prod.env`` or ``.environment``."""
    return any(re.search(_whole(name), text) for name in names)


def _whole(name: str) -> str:
    left = r"(?<![\w.-])" if name[:1].isalnum() or name[:1] in "._-" else ""
    right = r"(?![\w-]|\.\w)" if name[-1:].isalnum() or name[-1:] in "_-" else ""
    return left + re.escape(name) + right


def _withheld(change: Change, withheld: AbstractSet[str]) -> bool:
    return change.file_path in withheld or (change.old_path or "") in withheld


def _path(change: Change) -> str:
    if change.old_path and change.old_path != change.file_path:
        return f"{shown(change.old_path)} -> {shown(change.file_path)}"
    return shown(change.file_path)


def _clean(text: str, limit: int = 200) -> str:
    text = shown(redact(text))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _uncertain_text(
    decisions: list[tuple[str, set[str]]], shown_ids: dict[str, list[str]], room: int | None
) -> tuple[str, int]:
    """The engine's least certain decisions (each with the ids it names; none naming anything
    withheld) that name only what this request shows, as many as fit in ``room`` tokens
    (None: all); and how many of those did not fit."""
    items = {i for group in shown_ids.values() for i in group}
    known = set(shown_ids) | items | {i.split(":", 1)[0] for i in items}
    lines = [f"- {_clean(u, DECISION_CHARS)}" for u, ids in decisions if ids <= known][:UNCERTAIN_SHOWN]
    cut = 0
    while room is not None and lines and _cost(DECISIONS_HEADER + "\n".join(lines)) > room:
        lines, cut = lines[:-1], cut + 1
    return (DECISIONS_HEADER + "\n".join(lines) + "\n" if lines else ""), cut
