"""The journal of a commit or an undo in flight, so a killed process can be finished after.

Moving HEAD and replacing the index are two steps; a process killed (or a
disk filled) between them would leave the index behind HEAD, and a stale
``index.lock``. So before HEAD moves, everything needed afterwards is ready
on disk: the new index, prepared beside the real one, and this journal
(``.git/segmint/journal.json``) naming it, with HEAD before, what HEAD
becomes, and the token written into ``index.lock``. The journal goes away
once the caller has recorded the outcome.

``finish`` is run by the next Segmint process on the repository: it waits
for any ``git commit`` (and its hooks) the dead process left running, then
either completes the work (HEAD moved: the prepared index is put in place)
or rolls it back (HEAD did not move: the prepared files go), removes the
``index.lock`` it created, and says what it did in one sentence. Git is put
right first; the caller's record of it comes after, and when that cannot be
written (a full disk) the journal stays for the next run (``Unrecorded``).

Git processes of an apply inherit an open, locked file of its own
(``keepalive``, named in the journal): while any of them runs, the lock stays
held, so ``finish`` never acts while a hook still may move HEAD. Each work
has its own: a job a hook leaves running in the background (a ctags run
after each commit) never holds up the next apply.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from segmint_core.atomic import write_atomic
from segmint_core.errors import RefusedError, SegmintError, os_trouble
from segmint_core.git import Git
from segmint_core.locks import flock_within

APPLY = "apply"
UNDO = "undo"
UNDO_FOLDER = "undo"  # in .git/segmint/: the copies of the index an apply saves for undo
JOURNAL = "journal.json"
KEEPALIVE = "keepalive.lock"  # the one shared by all work, in journals written before each had its own
HOOK_WAIT_SECONDS = 30.0


@dataclass
class Journal:
    kind: str  # apply | undo
    label: str  # what is being committed or undone (a plan id), for sentences
    head: str | None  # HEAD before
    target: str | None  # apply: the tree the commit records; undo: the commit HEAD goes back to
    index: str | None  # the prepared index to put in place; None when the index is not rewritten
    token: str  # the content of the index.lock this process holds
    scratch: str | None = None  # apply: the commit's scratch index
    paths: list[str] = field(default_factory=list)  # index entries rewritten
    index_after: dict[str, str] = field(default_factory=dict)  # apply: each one's entry as written, for undo
    saved_index: str | None = None  # the index before, kept for undo
    undone: str | None = None  # undo: the commit taken back
    keepalive: str | None = None  # the file its git processes hold locked (``Flight``)
    operation: str = ""  # apply: the operation the commit belongs to
    undoes: list[str] = field(default_factory=list)  # undo: the operations it takes back
    tip: str | None = None  # absorb: the rewritten branch's new tip

    def to_json(self) -> bytes:
        return json.dumps(asdict(self), ensure_ascii=False).encode("utf-8", "surrogateescape")


@dataclass
class Finished:
    """What ``finish`` found and did."""

    journal: Journal
    moved: bool  # HEAD moved as planned: the commit (or the undo) happened
    sha: str | None  # apply: the commit made
    sentence: str


class Unrecorded(SegmintError):
    """Git is as the work left it, but the session could not write that down (a full disk, say):
    the journal stays, so the next Segmint command records it."""

    def __init__(self, done: str, exc: OSError) -> None:
        super().__init__(
            f"{done.rstrip('.')}; but it could not record this in its session ({os_trouble(exc)}): "
            "free some space and run Segmint again to finish"
        )


def journal_path(git: Git) -> Path:
    return Path(git.git_dir) / "segmint" / JOURNAL


def pending(git_dir: str) -> bool:
    return os.path.exists(os.path.join(git_dir, "segmint", JOURNAL))


def write(git: Git, journal: Journal) -> None:
    write_atomic(journal_path(git), journal.to_json())


def clear(git: Git) -> None:
    journal_path(git).unlink(missing_ok=True)


def read(git: Git) -> Journal | None:
    try:
        data = json.loads(journal_path(git).read_bytes().decode("utf-8", "surrogateescape"))
        return _here(git, Journal(**data))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError) as exc:
        raise RefusedError(
            f"Segmint's journal {journal_path(git)} is unreadable ({exc}); check `git status`, then remove that file"
        ) from None


def _here(git: Git, journal: Journal) -> Journal:
    """The journal with its files named in this repository's ``.git/segmint/``: it names them by
    full path, and the repository may have been moved since the work was interrupted."""
    segmint = Path(git.git_dir) / "segmint"
    for name in ("index", "scratch", "saved_index", "keepalive"):
        path = getattr(journal, name)
        if path:
            setattr(journal, name, str(segmint / Path(path).parent.name / Path(path).name))
    return journal


class Flight:
    """A commit or an undo under way: its journal, and the keep-alive lock its git processes inherit."""

    def __init__(self, git: Git, journal: Journal, keep_fd: int) -> None:
        self.git = git
        self.journal = journal
        self.keep_fd = keep_fd
        self.moved = False  # HEAD moved: from here on, an error leaves the journal for ``finish``

    @property
    def prepared(self) -> str:
        return self.journal.index or ""

    @property
    def scratch(self) -> str:
        """The commit's scratch index (named by an apply's journal only)."""
        assert self.journal.scratch is not None, "only an apply commits from a scratch index"
        return self.journal.scratch

    def ready(self, **facts: object) -> None:
        """Everything is on disk to finish without this process: say so in the journal, then HEAD may move."""
        for name, value in facts.items():
            setattr(self.journal, name, value)
        write(self.git, self.journal)

    @contextmanager
    def inherited(self) -> Iterator[None]:
        """Children started inside inherit the keep-alive lock, and hold it while they (and their hooks) run."""
        os.set_inheritable(self.keep_fd, True)
        try:
            yield
        finally:
            os.set_inheritable(self.keep_fd, False)


@contextmanager
def flight(git: Git, kind: str, label: str, head: str | None) -> Iterator[Flight]:
    """Journal a commit or an undo from before it takes the index lock until the caller has recorded it.

    The journal names, from the start, the lock token and the files the work
    will write (the prepared index, the commit's scratch index), so a run that
    finds it can clean up after a process killed at any point. Leaving by an
    exception before HEAD moved (or after it was moved back) removes them and
    the journal; after HEAD moved, they stay for ``finish``.
    """
    stem = f"{os.getpid()}-{time.time_ns()}"
    folder = Path(git.git_dir) / "segmint" / "tmp"
    folder.mkdir(parents=True, exist_ok=True)
    keepalive = str(folder / f"keepalive-{stem}.lock")
    journal = Journal(
        kind,
        label,
        head,
        None,
        str(folder / f"next-index-{stem}"),
        f"segmint {stem}\n",
        scratch=str(folder / f"commit-index-{stem}") if kind == APPLY else None,
        saved_index=str(folder.parent / UNDO_FOLDER / f"index-{stem}") if kind == APPLY else None,
        keepalive=keepalive,
    )
    fd = os.open(keepalive, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            write(git, journal)
        except BaseException:
            _drop(journal)  # the keep-alive file, the one file made so far
            raise
        current = Flight(git, journal, fd)
        try:
            yield current
        except BaseException:
            if not current.moved:
                _drop(journal)
                clear(git)
            raise
        _drop(journal, done=True)
        clear(git)
    finally:
        os.close(fd)


def finish(git: Git, record: Callable[[Finished], None], wait: float = HOOK_WAIT_SECONDS) -> Finished | None:
    """Complete or roll back what a dead process left in flight; None if nothing was.

    ``record`` brings the caller's own state in line (the session marks the
    plan applied, say) once git is right; the journal is removed only after it
    returns, so when it cannot write (a full disk) the next run records it:
    ``Unrecorded`` says so. Finishing again what was finished changes nothing.
    """
    journal = read(git)
    if journal is None:
        return None
    _wait_for_git(git, journal, wait)
    head = git.head()
    if head == journal.head:
        _drop(journal)
        _release(git, journal)
        outcome = Finished(journal, False, None, _rolled_back(journal))
    elif _moved_as_planned(git, journal, head):
        outcome = Finished(journal, True, head if journal.kind == APPLY else None, _completed(git, journal, head))
    else:
        _drop(journal)
        lock = "removed the index.lock it had taken; " if _release(git, journal) else ""
        outcome = Finished(
            journal,
            False,
            None,
            (
                f"Segmint found {_what(journal)} interrupted, and HEAD has moved since (now {_short(head)}); "
                f"it {lock}left HEAD and the index as they are."
            ),
        )
    try:
        record(outcome)
    except OSError as exc:
        raise Unrecorded(outcome.sentence, exc) from exc
    clear(git)
    return outcome


def _wait_for_git(git: Git, journal: Journal, wait: float) -> None:
    if journal.keepalive is None:
        fd = os.open(Path(git.git_dir) / "segmint" / KEEPALIVE, os.O_RDWR | os.O_CREAT, 0o600)
    else:
        try:
            fd = os.open(journal.keepalive, os.O_RDWR)
        except FileNotFoundError:
            return  # (removed by a finish that could not record what it did) nothing holds it now
    try:
        if not flock_within(fd, wait, 0.05):
            raise RefusedError(
                f"{_what(journal).capitalize()} was interrupted and its git commit (or a hook of it) "
                f"is still running after {wait:.0f} s; try again when it has ended"
            )
    finally:
        os.close(fd)  # releases the lock: the dead apply's processes are all gone


def _moved_as_planned(git: Git, journal: Journal, head: str | None) -> bool:
    if journal.kind == UNDO:
        return head == journal.target
    if head is None:
        return False
    if journal.tip:
        return head == journal.tip
    parent = git.run("rev-parse", "--verify", "--quiet", f"{head}^", check=False).text.strip() or None
    tree = git.run("rev-parse", f"{head}^{{tree}}").text.strip()
    return parent == journal.head and tree == journal.target


def _completed(git: Git, journal: Journal, head: str | None) -> str:
    """HEAD moved: put the prepared index in place, if our lock still guards the index."""
    prepared = journal.index
    ours = _lock_is_ours(git, journal)
    note = ""
    if prepared and os.path.exists(prepared):
        if ours:
            os.replace(prepared, Path(git.git_dir) / "index")
            note = " and the index now matches it"
        else:
            os.unlink(prepared)
            note = ", but another process has taken the index since, so Segmint left it as it is (check `git status`)"
    _drop(journal, done=True)
    _release(git, journal)
    if journal.kind == UNDO:
        return f"Segmint finished undoing {journal.label}, interrupted after HEAD went back to {_short(head)}{note}."
    return f"Segmint finished applying {journal.label}, interrupted after committing {_short(head)}{note}."


def _rolled_back(journal: Journal) -> str:
    if journal.kind == UNDO:
        return (
            f"Segmint found the undo of {journal.label} interrupted before HEAD moved and rolled it back: "
            "HEAD and the index are as they were."
        )
    return (
        f"Segmint found applying {journal.label} interrupted before it committed and rolled it back: "
        "nothing was committed, the index is as it was."
    )


def _drop(journal: Journal, *, done: bool = False) -> None:
    """Remove the files of the work: the scratch index and the keep-alive file; unless it was
    ``done``, the prepared index and the copy of the index kept for undo too."""
    for path in (journal.scratch, journal.keepalive, *(() if done else (journal.index, journal.saved_index))):
        if path:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


def _lock_is_ours(git: Git, journal: Journal) -> bool:
    try:
        return (Path(git.git_dir) / "index.lock").read_text(encoding="utf-8", errors="replace") == journal.token
    except FileNotFoundError:
        return False


def _release(git: Git, journal: Journal) -> bool:
    """Remove the index.lock the dead process took (never another process's)."""
    if not _lock_is_ours(git, journal):
        return False
    (Path(git.git_dir) / "index.lock").unlink(missing_ok=True)
    return True


def _what(journal: Journal) -> str:
    return f"the undo of {journal.label}" if journal.kind == UNDO else f"applying {journal.label}"


def _short(oid: str | None) -> str:
    return oid[:7] if oid else "unborn"
