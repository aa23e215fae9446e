"""The edit timeline as a grouping signal: which snapshots, bursts and intents produced each hunk.

For each changed file the shadow history is replayed (zero-context diffs,
oldest first) keeping, for every line of the file, the snapshot that last
wrote it. That attribution is aligned with the file as it is on disk now, and
a hunk's ``+`` lines are looked up by their new-side line numbers (staged hunks
are first mapped from index to work-tree numbers through the unstaged hunks).
A ``-`` line is credited to the latest snapshot that removed a line with the
same text (lines with little text, like ``}``, are too common to say anything).

``[BASELINE]`` and ``[RESYNC]`` commits say nothing about when an edit was
made, so lines they wrote are left unattributed.
"""

from __future__ import annotations

import difflib
import logging
import os
from dataclasses import dataclass

from segmint_core.changes import ChangeSet, parse_diff
from segmint_core.changes.models import ADDED, Change, Hunk
from segmint_core.errors import SegmintError
from segmint_core.git import DIFF_OPTIONS, Git, decode, read_blobs
from segmint_core.trajectory import commit_messages as msgs
from segmint_core.trajectory.history import ShadowCommit, read_log
from segmint_core.trajectory.shadow import PATHSPEC_BATCH, ShadowRepo

log = logging.getLogger(__name__)

MIN_REMOVED_TEXT = 4  # characters (stripped) a removed line needs to be matched by text


@dataclass(frozen=True)
class HunkHistory:
    hunk_id: str
    snapshots: tuple[str, ...]  # shadow commit ids whose diffs touched this hunk's changed lines, oldest first
    bursts: tuple[int, ...]  # burst numbers: snapshots less than `burst_gap` seconds apart form one burst
    intents: tuple[str, ...]  # distinct intents recorded on those snapshots, in order
    # Per line of the hunk, the burst that wrote it (None: context, or not traced); empty where only the
    # hunk's bursts are known. A range's commits are known line by line: an atom reads its own lines'.
    line_bursts: tuple[int | None, ...] = ()
    # What each burst number names, where a burst is more than a moment of saving (a range's commit).
    labels: tuple[str, ...] = ()

    def bursts_of(self, start: int, end: int) -> tuple[int, ...]:
        """The bursts of lines ``[start, end)``: theirs where known line by line, else the hunk's."""
        if not self.line_bursts:
            return self.bursts
        return tuple(sorted({b for b in self.line_bursts[start:end] if b is not None}))

    def cuts(self) -> list[int]:
        """The line indices before which the burst of the changed lines changes."""
        found, previous = [], None
        for i, burst in enumerate(self.line_bursts):
            if burst is None:
                continue
            if previous is not None and burst != previous:
                found.append(i)
            previous = burst
        return found


def hunk_histories(root: str, changes: ChangeSet, *, burst_gap: float = 90.0) -> dict[str, HunkHistory] | None:
    """Timeline evidence for every hunk of ``changes``, by hunk id.

    None when the project has no .trajectory shadow repository (or it holds no
    commits yet, or git cannot read it). A hunk none of whose lines can be traced
    gets empty tuples. Burst numbers count from 0 over the timed snapshots, oldest first.
    """
    shadow = ShadowRepo(os.fspath(root))
    if not shadow.exists():
        return None
    # The timeline is one signal among many: a damaged shadow repository must not stop grouping.
    try:
        return _histories(shadow, changes, burst_gap)
    except (SegmintError, OSError) as exc:
        log.warning("grouping without the edit timeline: %s cannot be read (%s)", shadow.git_dir, exc)
        return None


def commit_histories(root: str, changes: ChangeSet, base: str | None, tip: str) -> dict[str, HunkHistory]:
    """Timeline evidence from commits instead of saves: ``changes`` (what ``base..tip`` changes, laid
    out in the work tree ``root``, as a split's scratch tree is) traced through the commits of that
    range. Each commit is a burst of its own and records no intent: lines one commit wrote lean
    together, and lines of commits that share none lean apart, as saves far apart in time do."""
    git = Git(root)
    span = f"{base}..{tip}" if base else tip
    listed = git.run("log", "--first-parent", "--reverse", "--format=%H %s", span).text.splitlines()
    order = {line.split(" ", 1)[0]: n for n, line in enumerate(listed)}
    labels = tuple(f"{line[:7]} '{line.partition(' ')[2]}'" for line in listed)
    files = [c for c in changes.changes if not c.binary and c.hunks]
    traces: dict[str, _FileTrace] = {}
    for start in range(0, len(files), PATHSPEC_BATCH):
        batch = files[start : start + PATHSPEC_BATCH]
        traces.update(_trace_commits(git, batch, base, span))
    histories: dict[str, HunkHistory] = {}
    for change in changes.changes:
        trace = traces.get(change.file_path)
        for hunk in change.hunks:
            owners = _line_commits(change, hunk, trace) if trace else [None] * len(hunk.lines)
            line_bursts = tuple(order.get(c) if c else None for c in owners)
            ids = sorted({c for c in owners if c in order}, key=order.__getitem__)
            # A hunk several commits wrote is cut where they change; as a whole it says nothing.
            bursts = (order[ids[0]],) if len(ids) == 1 else ()
            histories[hunk.id] = HunkHistory(hunk.id, tuple(ids), bursts, (), line_bursts, labels)
    return histories


def _trace_commits(git: Git, files: list[Change], base: str | None, span: str) -> dict[str, _FileTrace]:
    """Each file's lines traced from ``base`` (lines it had belong to no commit) through ``span``."""
    existing = [c for c in files if base and c.status != ADDED]
    before = read_blobs(git, [f"{base}:{c.old_path or c.file_path}" for c in existing]) if base else {}
    owners: dict[str, list[str | None]] = {c.file_path: [] for c in files}
    for change in existing:
        owners[change.file_path] = [None] * len(_split(before[f"{base}:{change.old_path or change.file_path}"]))
    paths = sorted(owners)
    out = git.run(
        "log", "--first-parent", "--reverse", "--format=%x1e%H", "-p", *DIFF_OPTIONS, "--unified=0", "--no-renames",
        span, "--", *paths,
    ).stdout  # fmt: skip
    removed_by = _replay_log(out, owners)
    traces = {}
    for path in paths:
        current = _split(_read(os.path.join(git.root, path)))
        unknown: list[str | None] = [None] * len(current)
        owned = owners[path] if len(owners[path]) == len(current) else unknown
        traces[path] = _FileTrace(owned, removed_by[path])
    return traces


def _histories(shadow: ShadowRepo, changes: ChangeSet, burst_gap: float) -> dict[str, HunkHistory] | None:
    commits = list(reversed(read_log(shadow)))
    if not commits:
        return None
    order = {c.commit: n for n, c in enumerate(commits)}
    timed = {c.commit: c for c in commits if c.kind in msgs.TIMED_KINDS}
    bursts = _bursts([c for c in commits if c.commit in timed], burst_gap)

    files = [c for c in changes.changes if not c.binary and c.hunks]
    traces = _trace_files(shadow, [c.file_path for c in files])
    histories: dict[str, HunkHistory] = {}
    for change in changes.changes:
        trace = traces.get(change.file_path)
        for hunk in change.hunks:
            found = _hunk_commits(change, hunk, trace) if trace else set()
            ids = sorted((c for c in found if c in timed), key=order.__getitem__)
            intents: list[str] = []
            for cid in ids:
                intent = timed[cid].intent
                if intent and intent not in intents:
                    intents.append(intent)
            histories[hunk.id] = HunkHistory(
                hunk.id,
                tuple(ids),
                tuple(sorted({bursts[c] for c in ids})),
                tuple(intents),
            )
    return histories


def _bursts(timed: list[ShadowCommit], gap: float) -> dict[str, int]:
    numbers: dict[str, int] = {}
    burst = -1
    previous = None
    for commit in timed:
        if previous is None or (commit.when - previous.when).total_seconds() >= gap:
            burst += 1
        numbers[commit.commit] = burst
        previous = commit
    return numbers


# -- replaying a file's history ---------------------------------------------------


@dataclass
class _FileTrace:
    lines: list[str | None]  # per line of the file on disk now: the commit that wrote it
    removed_by: dict[str, str]  # line text -> latest commit that removed such a line


def _trace_files(shadow: ShadowRepo, paths: list[str]) -> dict[str, _FileTrace]:
    traces: dict[str, _FileTrace] = {}
    for start in range(0, len(paths), PATHSPEC_BATCH):
        traces.update(_trace_batch(shadow, paths[start : start + PATHSPEC_BATCH]))
    return traces


def _trace_batch(shadow: ShadowRepo, paths: list[str]) -> dict[str, _FileTrace]:
    out = shadow.run(
        "log",
        "--first-parent",
        "--reverse",
        "--format=%x1e%H",
        "-p",
        *DIFF_OPTIONS,
        "--unified=0",
        "--no-renames",
        "HEAD",
        "--",
        *paths,
    ).stdout
    owners: dict[str, list[str | None]] = {p: [] for p in paths}
    removed_by = _replay_log(out, owners)
    recorded = shadow.cat_blobs([f"HEAD:{p}" for p in paths])
    traces = {}
    for path in paths:
        head_lines = _split(recorded.get(f"HEAD:{path}"))
        unknown: list[str | None] = [None] * len(head_lines)
        owned = owners[path] if len(owners[path]) == len(head_lines) else unknown
        current = _split(_read(os.path.join(shadow.root, path)))
        traces[path] = _FileTrace(_align(owned, head_lines, current), removed_by[path])
    return traces


def _replay_log(out: bytes, owners: dict[str, list[str | None]]) -> dict[str, dict[str, str]]:
    """``owners`` (per path, the commit that wrote each line) carried through a ``git log -p
    --unified=0 --format=%x1e%H`` oldest first; per path, the latest commit removing each line text."""
    removed_by: dict[str, dict[str, str]] = {p: {} for p in owners}
    for record in out.split(b"\x1e")[1:]:
        sha_raw, _, patch = record.partition(b"\n")
        commit = decode(sha_raw).strip()
        for fp in parse_diff(patch.lstrip(b"\n"), strict=False):
            if fp.path not in owners:
                continue
            for hunk in fp.hunks:
                for line in hunk.lines:
                    if line[:1] == "-" and len(line[1:].strip()) >= MIN_REMOVED_TEXT:
                        removed_by[fp.path][line[1:]] = commit
            owners[fp.path] = [] if fp.new_path is None else _apply(owners[fp.path], fp.hunks, commit)
    return removed_by


def _apply(owners: list[str | None], hunks: list[Hunk], commit: str) -> list[str | None]:
    """``owners`` after a zero-context patch: the lines it wrote now belong to ``commit``."""
    out: list[str | None] = []
    pos = 0
    for h in hunks:
        # In a zero-context hunk that only inserts, old_start is the line it inserts after.
        start = h.old_start if h.old_lines == 0 else h.old_start - 1
        out.extend(owners[pos:start])
        out.extend([commit] * h.new_lines)
        pos = start + h.old_lines
    out.extend(owners[pos:])
    return out


def _align(owned: list[str | None], recorded: list[str], current: list[str]) -> list[str | None]:
    """Carry attribution from the last recorded content over to the content on disk now."""
    if recorded == current:
        return owned
    result: list[str | None] = [None] * len(current)
    matcher = difflib.SequenceMatcher(None, recorded, current, autojunk=False)
    for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            result[j1 : j1 + (i2 - i1)] = owned[i1:i2]
    return result


def _read(path: str) -> bytes | None:
    """The file's content as git and the shadow repository have it: a symlink's is the path it names
    (its target's bytes could be another file's, or never end: /dev/zero)."""
    try:
        if os.path.islink(path):
            return os.fsencode(os.readlink(path))
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _split(data: bytes | None) -> list[str]:
    if not data:
        return []
    lines = decode(data).split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


# -- hunks -> commits ----------------------------------------------------------------


def _hunk_commits(change: Change, hunk: Hunk, trace: _FileTrace) -> set[str]:
    return {c for c in _line_commits(change, hunk, trace) if c is not None}


def _line_commits(change: Change, hunk: Hunk, trace: _FileTrace) -> list[str | None]:
    """Per line of ``hunk``, the commit that wrote it (an added line) or removed it (a removed one)."""
    found: list[str | None] = []
    to_worktree = _index_to_worktree(change) if hunk.staged else (lambda n: n)
    new_line = hunk.new_start
    for line in hunk.lines:
        mark = line[:1]
        owner = None
        if mark == "+":
            at = to_worktree(new_line)
            if at is not None and 1 <= at <= len(trace.lines):
                owner = trace.lines[at - 1]
            new_line += 1
        elif mark == " ":
            new_line += 1
        elif mark == "-":
            owner = trace.removed_by.get(line[1:])
        found.append(owner)
    return found


def _index_to_worktree(change: Change):
    """Index line number -> work-tree line number (None: changed since staging)."""
    unstaged = [h for h in change.hunks if not h.staged]
    exact: dict[int, int | None] = {}
    shifts: list[tuple[int, int]] = []  # (first index line after a hunk, shift from then on)
    shift = 0
    for h in unstaged:
        old_n, new_n = h.old_start, h.new_start
        for line in h.lines:
            mark = line[:1]
            if mark == " ":
                exact[old_n] = new_n
                old_n += 1
                new_n += 1
            elif mark == "-":
                exact[old_n] = None
                old_n += 1
            elif mark == "+":
                new_n += 1
        shift = new_n - old_n
        shifts.append((old_n, shift))

    def convert(n: int) -> int | None:
        if n in exact:
            return exact[n]
        offset = 0
        for first_after, s in shifts:
            if n >= first_after:
                offset = s
        return n + offset

    return convert
