"""Which recorded intent wrote each changed line of a ``ChangeSet``.

For every changed file the snapshots recorded for it are replayed, oldest
first, from the file as the project's HEAD had it at the first snapshot: each
step's inserted lines belong to the step's intent, lines it keeps keep their
owner. The last snapshot is then aligned with the file on disk now (what
changed since was written with no recorder: by hand, under the task a person
says they are working on now, else no owner). A line an intent wrote
that a later step only moves within the file keeps that intent, and so does
one that a step with no intent recorded only re-indents or strips of trailing
blanks: code moved, or a formatter's pass, takes nobody's lines. A line one
intent wrote that another rewrites in place stays the first's: its commit
needs the line, which HEAD never had. Once that line is committed (HEAD now
has it, the replay's base did not), the rewrite is the rewriter's change; a
session started again under an ended session's id (a resume) goes on where
it ended.

A removed line belongs to the intent whose step removed it: known by position
for the lines of the replay's base (aligned with HEAD now, which part of the
work committed by hand may have moved), by text otherwise. A renamed file
continues the history of its old path. Staged hunks are read through the
unstaged ones to reach the work tree's lines, as ``timeline.py`` does.
"""

from __future__ import annotations

import difflib
import os
from collections import Counter
from dataclasses import dataclass, field

from segmint_core.changes import ChangeSet
from segmint_core.changes.models import ADDED, Change, Hunk
from segmint_core.changes.rewrites import rewritten
from segmint_core.git import Git, decode
from segmint_core.trajectory.provenance.capture import Intent, intent_of_hand_edits
from segmint_core.trajectory.provenance.store import Store
from segmint_core.trajectory.timeline import _index_to_worktree

UNRECORDED = "~"  # the mark of a step with no intent: ``~<snapshot>``, or ``~disk``
ON_DISK = UNRECORDED + "disk"
MOVED_TEXT = 4  # characters (whitespace dropped) a line needs before a move is recognised by its text
RENAME_SIMILARITY = 0.5


@dataclass(frozen=True)
class Edit:
    """One snapshot of one path, as recorded."""

    seq: int
    intent: str | None
    source: str
    session: str | None
    head: str | None
    oid: str | None  # None: the file was gone
    when: float


@dataclass
class Provenance:
    """The intents recorded for a tree and, per hunk, the intent of each of its lines.

    ``owners[hunk id][i]`` is the intent id of ``hunk.lines[i]`` for a changed
    line, None for a changed line written with no intent recorded and for context.
    ``files``: per change id, the intent of the last snapshot of its file (what a change
    without lines, a rename or a binary, was last written under). ``ended``: intents
    declared finished. ``unrecorded[hunk id][i]``: for a changed line written with no intent, the
    step that brought it (``~12``: found by snapshot 12; ``~disk``: only on disk), lines of one step
    being one burst of editing. ``asked[intent id]`` and ``found[step]``: where in the record an
    intent was given and an unrecorded step's snapshot taken (the order of the events), so lines found
    before a task was asked for are known not to be its work.
    """

    intents: dict[str, Intent] = field(default_factory=dict)
    owners: dict[str, list[str | None]] = field(default_factory=dict)
    ended: set[str] = field(default_factory=set)
    files: dict[str, str | None] = field(default_factory=dict)
    unrecorded: dict[str, list[str | None]] = field(default_factory=dict)
    since: float | None = None  # when the first snapshot replayed for these changes was taken
    asked: dict[str, int] = field(default_factory=dict)
    found: dict[str, int] = field(default_factory=dict)
    # intent -> the later intents that rewrote lines it wrote (the lines stay its: ``_rewrite_kept``)
    rewritten_by: dict[str, set[str]] = field(default_factory=dict)

    def recorded(self) -> bool:
        return any(o is not None for owners in self.owners.values() for o in owners)


def line_provenance(root: str | os.PathLike[str], changes: ChangeSet) -> Provenance | None:
    """Per-line provenance for ``changes``; None when nothing was ever recorded in this work tree.

    Grouping, planning, confidence and drafting all ask for it on one state of the tree: the
    answer is kept for the same tree (``changes.fingerprint`` and its hunks) and the same record
    (its log's size and time), and read again when either changes. Treat it as read-only.
    Raises ``DamagedProvenanceError`` when the record cannot be read.
    """
    store = Store(root)
    if not store.exists():
        return None
    key = _state_key(store, changes)
    if key is not None and key in _KEPT:
        return _KEPT[key]
    found = _line_provenance(root, store, changes)
    if key is not None:
        _KEPT.clear()  # one state at a time: the session's
        _KEPT[key] = found
    return found


_KEPT: dict[tuple, Provenance | None] = {}


def _state_key(store: Store, changes: ChangeSet) -> tuple | None:
    """What names one state of the tree and of the record; None when the tree has no fingerprint."""
    if changes.fingerprint is None:
        return None
    try:
        stat = os.stat(store.events_path)
    except OSError:
        return None
    layout = tuple((c.id, c.file_path, tuple(h.id for h in c.hunks)) for c in changes.changes)
    return (os.path.realpath(store.dir), stat.st_size, stat.st_mtime_ns, stat.st_ino, changes.fingerprint, layout)


def _line_provenance(root: str | os.PathLike[str], store: Store, changes: ChangeSet) -> Provenance | None:
    events = store.events()
    intents: dict[str, Intent] = {}
    ended: set[str] = set()
    ended_in: dict[tuple, str] = {}  # (source, session) -> the intent its end ended
    history: dict[str, list[Edit]] = {}
    asked: dict[str, int] = {}
    found: dict[str, int] = {}
    for position, event in enumerate(events):
        kind = event["kind"]
        if kind == "intent" and isinstance(event.get("id"), str):
            intents[event["id"]] = Intent.from_json(event)
            asked[event["id"]] = position
        elif kind == "end" and isinstance(event.get("intent"), str):
            ended.add(event["intent"])
            ended_in[(event.get("source"), event.get("session"))] = event["intent"]
        elif kind == "session" and event.get("event") == "start":
            # a session resumed (`claude --resume`) goes on where it ended: its next prompt may follow up
            ended.discard(ended_in.pop((event.get("source"), event.get("session")), ""))
        elif kind == "edit" and isinstance(event.get("files"), dict):
            if event.get("intent") is None:
                found[f"{UNRECORDED}{int(event.get('id', 0))}"] = position
            for path, oid in event["files"].items():
                history.setdefault(path, []).append(
                    Edit(
                        int(event.get("id", 0)),
                        event.get("intent"),
                        str(event.get("source", "")),
                        event.get("session"),
                        event.get("head"),
                        oid,
                        float(event.get("t", 0.0)),
                    )
                )
    if not intents and not history:
        return None
    provenance = Provenance(intents, {}, ended, asked=asked, found=found)
    by_hand = intent_of_hand_edits(store.read_state())
    git = Git(os.fspath(root))
    texts = _Texts(git, store)
    for change in changes.changes:
        edits = _edits_of(change, history, changes, texts)
        provenance.files[change.id] = edits[-1].intent if edits else None
        if edits:
            provenance.since = min(edits[0].when, provenance.since or edits[0].when)
        if change.binary or not change.hunks:
            continue
        if not edits:  # never snapshotted: changed by hand since the last task began
            provenance.owners.update(
                {h.id: [by_hand if line[:1] in ("+", "-") else None for line in h.lines] for h in change.hunks}
            )
            continue
        trace = _replay(change, edits, texts, changes.head, by_hand or ON_DISK)
        for first, later in trace.rewritten_by.items():
            provenance.rewritten_by.setdefault(first, set()).update(later)
        for hunk_id, tagged in _hunk_owners(change, trace).items():
            provenance.owners[hunk_id] = [o if o and not o.startswith(UNRECORDED) else None for o in tagged]
            provenance.unrecorded[hunk_id] = [o if o and o.startswith(UNRECORDED) else None for o in tagged]
    return provenance


# -- reading contents ------------------------------------------------------------------


class _Texts:
    """File contents by blob (the store's) or by ``rev:path`` (the project's), read once."""

    def __init__(self, git: Git, store: Store) -> None:
        self.git = git
        self.store = store
        self._revs: dict[str, list[str]] = {}

    def blob(self, oid: str | None) -> list[str]:
        return _split(self.store.get_blob(oid)) if oid else []

    def at(self, rev: str | None, path: str) -> list[str]:
        if not rev:
            return []
        spec = f"{rev}:{path}"
        if spec not in self._revs:
            res = self.git.run("cat-file", "blob", spec, check=False)
            self._revs[spec] = _split(res.stdout) if res.returncode == 0 else []
        return self._revs[spec]

    def disk(self, path: str) -> list[str]:
        full = os.path.join(self.git.root, path)
        try:
            if os.path.islink(full):
                return _split(os.fsencode(os.readlink(full)))
            with open(full, "rb") as f:
                return _split(f.read())
        except OSError:
            return []


def _split(data: bytes | None) -> list[str]:
    if not data:
        return []
    lines = decode(data).split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _key(line: str) -> str:
    return "".join(line.split())


# -- whose history a change continues ------------------------------------------------------


def _edits_of(change: Change, history: dict[str, list[Edit]], changes: ChangeSet, texts: _Texts) -> list[Edit]:
    own = history.get(change.file_path, [])
    old = change.old_path if change.old_path and change.old_path != change.file_path else None
    if old is None and (change.status == ADDED or change.untracked):
        old = _moved_from(change, history, changes, texts)
    if old is None:
        return own
    before = [e for e in history.get(old, []) if not own or e.seq < own[0].seq]
    return sorted(before + own, key=lambda e: e.seq)


def _moved_from(change: Change, history: dict[str, list[Edit]], changes: ChangeSet, texts: _Texts) -> str | None:
    """The recorded path a new file was moved from without git (gone from disk, similar last content)."""
    present = {c.file_path for c in changes.changes if c.status != "deleted"}
    now = texts.disk(change.file_path)
    best, best_ratio = None, RENAME_SIMILARITY
    for path, edits in history.items():
        if path == change.file_path or path in present or os.path.lexists(os.path.join(texts.git.root, path)):
            continue
        last = next((e.oid for e in reversed(edits) if e.oid), None)
        if last is None:
            continue
        ratio = difflib.SequenceMatcher(None, texts.blob(last), now, autojunk=False).quick_ratio()
        if ratio > best_ratio:
            best, best_ratio = path, ratio
    return best


# -- replaying a file's snapshots -----------------------------------------------------------


@dataclass
class _Trace:
    lines: list[str | None]  # per work-tree line: the intent that wrote it
    removed_at: dict[int, str | None]  # per line of HEAD now: the intent that removed it, when known
    removed_text: dict[str, str | None]  # collapsed text -> the latest intent that removed such a line
    rewritten_by: dict[str, set[str]]  # intent -> later recorded intents that rewrote its lines


@dataclass
class _Line:
    text: str
    owner: str | None
    base: int | None  # its line number (0-based) in the replay's base, if it came from there

    @property
    def key(self) -> str:
        return _key(self.text)


@dataclass
class _Notes:
    """What replaying one file's snapshots notes beside its lines."""

    removed_base: dict[int, str | None] = field(default_factory=dict)  # base line -> who removed it
    removed_text: dict[str, str | None] = field(default_factory=dict)  # collapsed text -> its latest remover
    rewrites: list[tuple[str, str]] = field(default_factory=list)  # (first writer, rewriter)
    # Lines HEAD holds now that the replay's base did not: written under a task, and committed since.
    committed: frozenset[str] = frozenset()


def _replay(change: Change, edits: list[Edit], texts: _Texts, head_now: str | None, on_disk: str) -> _Trace:
    first_path = change.old_path or change.file_path
    base_rev = edits[0].head or head_now
    base = texts.at(base_rev, first_path) or texts.at(base_rev, change.file_path)
    head_lines = texts.at(head_now, change.old_path or change.file_path)
    state = [_Line(text, None, n) for n, text in enumerate(base)]
    notes = _Notes(committed=frozenset(Counter(head_lines) - Counter(base)) if base_rev != head_now else frozenset())
    for edit in edits:
        owner = edit.intent or f"{UNRECORDED}{edit.seq}"
        state = _step(state, texts.blob(edit.oid), owner, notes)
    state = _step(state, texts.disk(change.file_path), on_disk, notes)
    rewritten_by: dict[str, set[str]] = {}
    for first, later in notes.rewrites:
        if not later.startswith(UNRECORDED):
            rewritten_by.setdefault(first, set()).add(later)
    owners = [line.owner for line in state]
    return _Trace(owners, _removed_now(base, head_lines, notes.removed_base), notes.removed_text, rewritten_by)


def _step(state: list[_Line], new: list[str], owner: str | None, notes: _Notes) -> list[_Line]:
    """The lines after one snapshot: kept lines keep their owner, the rest are ``owner``'s but for
    lines only moved or re-indented (``_carried``). A step with no intent that changed nothing but
    whitespace (a formatter's run) keeps every line where it was: lined up by exact text, a line it
    stripped could be taken for a like line elsewhere in the file."""
    old = [line.text for line in state]
    if old == new:
        return state
    if (owner or "").startswith(UNRECORDED) and [line.key for line in state] == [_key(text) for text in new]:
        return [_kept(line, text, owner, notes.removed_base) for line, text in zip(state, new)]
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    out: list[_Line] = []
    gone: dict[str, list[_Line]] = {}
    opcodes = matcher.get_opcodes()
    for tag, i1, i2, _j1, _j2 in opcodes:
        if tag in ("replace", "delete"):
            for line in state[i1:i2]:
                gone.setdefault(line.key, []).append(line)
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            out.extend(state[i1:i2])
            continue
        for line in state[i1:i2]:
            if len(line.key) >= MOVED_TEXT:
                notes.removed_text[line.key] = owner
        rewritten = state[i1:i2] if tag == "replace" and i2 - i1 == j2 - j1 else [None] * (j2 - j1)
        for text, before in zip(new[j1:j2], rewritten):
            out.append(_rewrite_kept(before, _carried(gone, text, owner, tag, notes.removed_base), owner, notes))
    for lines in gone.values():  # what went away for good
        for line in lines:
            if line.base is not None:
                notes.removed_base[line.base] = owner
    return out


def _kept(line: _Line, text: str, owner: str | None, removed_base: dict[int, str | None]) -> _Line:
    """A line a step with no intent kept but for whitespace: a written line keeps its owner, a line
    of the base re-indented by hand is that step's change."""
    if line.text == text or line.owner is not None:
        return _Line(text, line.owner, line.base)
    if line.base is not None:
        removed_base[line.base] = owner
    return _Line(text, owner, line.base)


def _carried(
    gone: dict[str, list[_Line]], text: str, owner: str | None, tag: str, removed_base: dict[int, str | None]
) -> _Line:
    """The line ``text`` a step inserts: a line it only moved keeps whoever wrote it; one it only
    re-indented too when no intent was recorded for the step (a formatter's run), else it is the
    step's. A line of the base moved or re-indented keeps its place in the base, so a later removal
    is credited to whoever removes it then."""
    key = _key(text)
    candidates = gone.get(key) if key else None
    if not candidates or not (len(key) >= MOVED_TEXT or tag == "replace"):
        return _Line(text, owner, None)
    kept = next((line for line in candidates if line.text == text), candidates[0])
    candidates.remove(kept)
    keeps = kept.owner is not None and (kept.text == text or (owner or "").startswith(UNRECORDED))
    if kept.base is not None and not keeps:
        removed_base[kept.base] = owner
    return _Line(text, kept.owner if keeps else owner, kept.base)


def _rewrite_kept(before: _Line | None, line: _Line, owner: str | None, notes: _Notes) -> _Line:
    """A line a step rewrote in place (the old line at its place, much alike) that another recorded
    intent wrote stays that intent's: its commit needs the line, which was never in HEAD; the
    rewrite travels with it, noted in ``notes.rewrites`` (first writer, rewriter). Once that line
    is committed, a rewrite is the rewriter's own change."""
    if before is None or line.owner != owner or line.base is not None or before.text in notes.committed:
        return line
    first = before.owner
    if first is None or first == owner or first.startswith(UNRECORDED):
        return line
    if not rewritten(before.text, line.text):
        return line
    if owner is not None:
        notes.rewrites.append((first, owner))
    return _Line(line.text, first, None)


def _removed_now(base: list[str], head_lines: list[str], removed_base: dict[int, str | None]) -> dict[int, str | None]:
    """``removed_base`` (by line of the replay's base) renumbered by the lines of HEAD now."""
    if base == head_lines:
        return dict(removed_base)
    found: dict[int, str | None] = {}
    matcher = difflib.SequenceMatcher(None, base, head_lines, autojunk=False)
    for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            for offset in range(i2 - i1):
                if i1 + offset in removed_base:
                    found[j1 + offset] = removed_base[i1 + offset]
    return found


# -- per hunk line ------------------------------------------------------------------------


def _hunk_owners(change: Change, trace: _Trace) -> dict[str, list[str | None]]:
    owners: dict[str, list[str | None]] = {}
    staged_any = any(h.staged for h in change.hunks)
    to_worktree = _index_to_worktree(change) if staged_any else None
    for hunk in change.hunks:
        owners[hunk.id] = _lines_of(
            hunk, trace, to_worktree if hunk.staged else None, positional_removals=hunk.staged or not staged_any
        )
    return owners


def _lines_of(hunk: Hunk, trace: _Trace, to_worktree, *, positional_removals: bool) -> list[str | None]:
    out: list[str | None] = []
    old_n, new_n = hunk.old_start, hunk.new_start
    for line in hunk.lines:
        mark = line[:1]
        if mark == "+":
            at = to_worktree(new_n) if to_worktree is not None else new_n
            out.append(trace.lines[at - 1] if at is not None and 1 <= at <= len(trace.lines) else None)
            new_n += 1
        elif mark == "-":
            owner = trace.removed_at.get(old_n - 1, "") if positional_removals else ""
            if owner == "":
                owner = trace.removed_text.get(_key(line[1:]))
            out.append(owner)
            old_n += 1
        else:
            out.append(None)
            if mark == " ":
                old_n += 1
                new_n += 1
    return _blank_lines_follow(hunk.lines, out)


def _blank_lines_follow(lines: list[str], owners: list[str | None]) -> list[str | None]:
    """A changed line the replay saw no change to takes its neighbours' owner: where a diff puts an
    added blank line, or which of two identical lines it calls moved, is the diff's own choice, and
    the replay's diff may choose otherwise. (A line nobody recorded is marked, never None.)"""
    filled = list(owners)
    for i, line in enumerate(lines):
        if filled[i] is not None or line[:1] not in ("+", "-"):
            continue
        filled[i] = (
            _run_owner(lines, owners, i, -1) or _run_owner(lines, owners, i, 1) or _nearest_owner(lines, owners, i)
        )
    return filled


def _nearest_owner(lines: list[str], owners: list[str | None], i: int) -> str | None:
    for distance in range(1, len(lines)):
        for j in (i - distance, i + distance):
            if 0 <= j < len(lines) and lines[j][:1] in ("+", "-") and owners[j] is not None:
                return owners[j]
    return None


def _run_owner(lines: list[str], owners: list[str | None], i: int, step: int) -> str | None:
    """The nearest owner among the lines of the same sign next to line ``i``, going ``step``."""
    j = i + step
    while 0 <= j < len(lines) and lines[j][:1] == lines[i][:1]:
        if owners[j] is not None:
            return owners[j]
        j += step
    return None
