"""A disk that fills up part-way through apply or undo: nothing lost, nothing left half-done,
one sentence while it stays full, and once there is room again a rerun finishes the work
(a small tmpfs, mounted here).

The disk is filled whole at a chosen step (``FILL_POINTS``), so what fails does not hang on a
few bytes of headroom; a sweep over the free pages left before ``apply --all`` covers the steps
between. Writes into the unused tail of a page already held may still succeed on a "full"
tmpfs, so the checks hold whatever failed: they look at git and the session, not at which
write it was.
"""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

from segmint_core.apply import journal
from segmint_core.errors import SegmintError
from segmint_core.session.applying import BatchStopped
from segmint_core.session.core import SessionCore
from segmint_core.session.session import Session
from tests.apply.test_interrupted import run_child
from tests.mcp.process import McpProcess
from tests.support.cli import run_segmint
from tests.support.groups import one_group_per_hunk
from tests.support.repo import Repo

PAGE = 4096
THOROUGH = settings.default.max_examples >= 1000  # --hypothesis-profile=thorough: every free page count


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 3 MiB tmpfs, unmounted afterwards; skipped where mounting is not allowed."""
    where = tmp_path / "disk"
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(where)], capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.skip(
            f"cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): {done.stderr.strip() or done.returncode}"
        )
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def dirty(repo: Repo, files: int = 6, lines: int = 400) -> dict[str, str]:
    """Committed files of random text, each with an edit, planned as one commit each; the new texts."""
    rng = random.Random(7)
    texts = {f"part{i}.txt": "".join(f"{rng.getrandbits(128):032x}\n" for _ in range(lines)) for i in range(files)}
    for path, text in texts.items():
        repo.write(path, text)
    repo.commit("base")
    edited = {path: text.replace(text.splitlines()[lines // 2], "edited", 1) for path, text in texts.items()}
    for path, text in edited.items():
        repo.write(path, text)
    session = Session.open(str(repo.path))
    one_group_per_hunk(session)
    session.propose_commits()
    return edited


def fill(disk: Path, leave: int = 0) -> Path:
    """Fill the disk, then give back ``leave`` bytes."""
    filler = disk / "filler"
    with open(filler, "ab", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * (64 * 1024))
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
        try:  # the last pages, a block at a time
            while True:
                fh.write(b"\0" * PAGE)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


def assert_git_whole(repo: Repo, worktree: dict[str, bytes], said: object = "") -> None:
    """No work-tree byte changed, no index.lock left, the index at HEAD (nothing was staged), fsck clean."""
    assert repo.snapshot()["files"] == worktree, f"a work-tree file changed; {said}"
    assert not (repo.path / ".git" / "index.lock").exists(), f"a stale index.lock; {said}"
    assert repo.git("diff", "--cached", "--name-only") == "", f"the index is not at HEAD; {said}"
    repo.git("fsck", "--no-progress")


def says_the_disk_is_full(exc: BaseException | None) -> bool:
    """An error of ours saying what is left to do, git's saying it is out of space, or the disk's own."""
    if isinstance(exc, OSError):
        return exc.errno == errno.ENOSPC
    text = str(exc)
    return isinstance(exc, SegmintError) and (
        "free some space and run Segmint again" in text
        or "git diff failed: fatal:" in text
        and "Out of diskspace" in text
    )


def assert_no_scraps(repo: Repo) -> None:
    """No prepared or scratch index, no saved index for undo, no journal: nothing was committed."""
    folder = repo.path / ".git" / "segmint"
    assert not journal.pending(str(repo.path / ".git"))
    for sub in ("tmp", "undo"):
        assert not list((folder / sub).glob("*")) if (folder / sub).exists() else True, sub


def assert_one_sentence(result, said: str = "") -> None:
    assert result.returncode != 0, f"nothing can be committed on a full disk: {result}"
    lines = result.stderr.splitlines()
    assert lines and all(line.startswith("segmint: ") for line in lines), result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    assert said in result.stderr, result.stderr


def assert_finished_after_freeing(repo: Repo, filler: Path, edited: dict[str, str], made: int) -> Session:
    filler.unlink()
    session = Session.open(str(repo.path))
    assert not journal.pending(str(repo.path / ".git")), "the rerun finished what was left"
    assert not list((repo.path / ".git" / "segmint" / "tmp").glob("*")), "no prepared or scratch index left"
    assert not any(p.out_of_date for p in session.plans), [p.out_of_date for p in session.plans]
    assert [p.status for p in session.plans].count("applied") == made
    session.apply_all()
    assert repo.git("status", "--porcelain") == ""
    for path, text in edited.items():
        assert repo.git("show", f"HEAD:{path}") == text
    repo.git("fsck", "--no-progress")
    return session


# Where the disk fills, in the order an apply reaches them (``segmint_core.apply.commit``).
FILL_POINTS = {
    "journal": ("segmint_core.apply.journal", "write"),  # before anything is written
    "saved-index": ("segmint_core.apply.commit", "_save_index"),  # the index kept for undo
    "prepared-index": ("segmint_core.apply.commit", "_prepare_index"),  # the index after the commit
    "commit-tree": ("segmint_core.apply.commit", "_commit_tree"),  # the commit's blobs and tree
    "git-commit": ("segmint_core.apply.commit", "_run_git_commit"),  # git's commit object
    "record": ("segmint_core.session.ledger", "record_commit"),  # committed: the session's save
    "refresh": (SessionCore, "refresh"),  # recorded: the re-read's save
}


def fill_before(monkeypatch: pytest.MonkeyPatch, disk: Path, where: object, name: str) -> list[Path]:
    """Fill the disk the first time ``name`` of ``where`` (a module path or a class) is called."""
    owner = __import__(where, fromlist=[name]) if isinstance(where, str) else where
    real = getattr(owner, name)
    filled: list[Path] = []

    def filling(*args, **kwargs):
        if not filled:
            filled.append(fill(disk))
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, filling)
    return filled


@pytest.mark.parametrize("point", sorted(FILL_POINTS))
def test_a_disk_full_at_each_step_of_an_apply_loses_nothing_and_a_rerun_finishes(
    small_disk: Path, point: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = Repo(small_disk / "repo")
    edited = dirty(repo, files=3)
    worktree = repo.snapshot()["files"]
    base = repo.head()
    filled = fill_before(monkeypatch, small_disk, *FILL_POINTS[point])

    with pytest.raises((SegmintError, OSError)) as failed:
        Session.open(str(repo.path)).apply_all()
    monkeypatch.undo()
    assert filled, "the disk filled where asked"
    if isinstance(failed.value, OSError):
        assert failed.value.errno == errno.ENOSPC  # (the CLI and MCP say it in one sentence)
    if point == "git-commit":
        assert "git commit could not write the commit, the disk is full: " in str(failed.value)
    made = int(repo.git("rev-list", "--count", f"{base}..HEAD"))
    assert made == (1 if point in ("record", "refresh") else 0), "committed only once git's commit was written"
    assert isinstance(failed.value, BatchStopped) == bool(made), "a commit made is named"
    assert_git_whole(repo, worktree, failed.value)
    assert journal.pending(str(repo.path / ".git")) == (point == "record"), "kept only for what is unrecorded"

    if not made:
        assert_no_scraps(repo)
    try:  # still full: the next command says why in one sentence, and leaves git as it was
        Session.open(str(repo.path))
        reopened = None
    except (OSError, SegmintError) as exc:
        reopened = exc
    if point == "record":
        assert isinstance(reopened, journal.Unrecorded) and "free some space and run Segmint again" in str(reopened)
    elif point == "refresh":  # recorded; the changes read again (or git's index refresh) cannot be saved
        assert says_the_disk_is_full(reopened), reopened
    else:
        assert reopened is None, reopened
    assert_git_whole(repo, worktree)
    assert_finished_after_freeing(repo, filled[0], edited, made)


def fill_before_save_of_an_applied_plan(session: Session, disk: Path) -> list[Path]:
    """The first plan gets committed, then the disk fills before the session saves it."""
    real = session.save
    filled: list[Path] = []

    def full_save() -> None:
        if session.plans[0].status == "applied" and not filled:
            filled.append(fill(disk))
        real()

    session.save = full_save
    return filled


def test_recovery_that_cannot_save_the_session_leaves_git_right_and_says_so(small_disk: Path) -> None:
    """A commit made, its session save failed for a full disk; while the disk stays full, every
    command (Python, CLI, MCP) says in one sentence what was done and what is left, git is right,
    and the journal stays; once there is room, the next command records it."""
    repo = Repo(small_disk / "repo")
    edited = dirty(repo, files=3)
    worktree = repo.snapshot()["files"]
    base = repo.head()
    session = Session.open(str(repo.path))
    filled = fill_before_save_of_an_applied_plan(session, small_disk)
    with pytest.raises(
        BatchStopped,
        match=r"commit-1 is committed as \w{7} and the index matches it; but it "
        r"could not record this in its session \(No space left on device",
    ):
        session.apply_all()
    assert repo.git("rev-parse", "HEAD~1").strip() == base
    assert_git_whole(repo, worktree)

    for _ in range(2):  # the same, however often it is tried
        with pytest.raises(
            SegmintError,
            match=r"^Segmint finished applying commit-1, interrupted after committing "
            r"\w{7}; but it could not record this in its session \(No space left "
            r"on device: .*session\.json\): free some space and run Segmint "
            r"again to finish$",
        ):
            Session.open(str(repo.path))
        assert_git_whole(repo, worktree)
        assert journal.pending(str(repo.path / ".git"))
    assert_one_sentence(run_segmint("apply", "--all", cwd=repo.path), "free some space and run Segmint again")
    with McpProcess(cwd=repo.path) as agent:
        agent.initialize()
        answer = agent.call(2, "get_session")
        assert answer["isError"] is True
        assert answer["content"][0]["text"].startswith("Segmint finished applying commit-1"), answer
        agent.close()
    assert_git_whole(repo, worktree)

    after = assert_finished_after_freeing(repo, filled[0], edited, made=1)
    assert [a.plan_id for a in after.applied] == ["commit-1", "commit-2", "commit-3"], "commit-1 recorded once"
    assert any(a.action == "recovered" for a in after.activity)
    while after.applied:
        after.undo()
    assert repo.head() == base and repo.snapshot()["files"] == worktree


def test_a_long_running_session_goes_on_once_there_is_room(small_disk: Path) -> None:
    """The TUI's or the MCP server's session: after a commit it could not record, each call says so
    while the disk is full; once there is room, the same session records it and commits the rest."""
    repo = Repo(small_disk / "repo")
    edited = dirty(repo, files=3)
    worktree = repo.snapshot()["files"]
    session = Session.open(str(repo.path))
    filled = fill_before_save_of_an_applied_plan(session, small_disk)
    with pytest.raises(BatchStopped, match="free some space and run Segmint again"):
        session.apply_all()
    with pytest.raises(journal.Unrecorded):
        session.snapshot()
    assert_git_whole(repo, worktree)
    filled[0].unlink()
    assert [c["file_path"] for c in session.snapshot()["changes"]] == ["part1.txt", "part2.txt"], (
        "its next call records the commit and reads the changes again"
    )
    assert session.recovered and "finished applying commit-1" in session.recovered[-1]
    assert [p.status for p in session.plans] == ["applied", "proposed", "proposed"]
    assert not any(p.out_of_date for p in session.plans)
    session.apply_all()
    assert repo.git("status", "--porcelain") == ""
    assert {path: repo.git("show", f"HEAD:{path}") for path in edited} == edited
    assert [a.plan_id for a in session.applied] == ["commit-1", "commit-2", "commit-3"]


@pytest.mark.parametrize("point,said", [("before-commit", "rolled it back"), ("before-record", "finished applying")])
def test_a_killed_apply_finished_on_a_full_disk(
    small_disk: Path, point: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed; the next command puts git right, then the disk fills as it saves the session: a
    rollback needs nothing recorded, so the session opens and says what it did; a commit to
    record waits, with its sentence, for room."""
    repo = Repo(small_disk / "repo")
    edited = dirty(repo, files=3)
    worktree = repo.snapshot()["files"]
    assert run_child(repo, point).returncode == -signal.SIGKILL
    filled = fill_before(monkeypatch, small_disk, "segmint_core.session.core", "write_saved")
    if said == "rolled it back":
        session = Session.open(str(repo.path))
        assert len(session.recovered) == 1 and said in session.recovered[0]
        assert not journal.pending(str(repo.path / ".git"))
        made = 0
    else:
        with pytest.raises(journal.Unrecorded, match=f"^Segmint {said} commit-1, .*free some space"):
            Session.open(str(repo.path))
        made = 1
    monkeypatch.undo()
    assert filled, "the disk filled as the session was saved"
    assert_git_whole(repo, worktree)
    assert_finished_after_freeing(repo, filled[0], edited, made)


@pytest.mark.parametrize("point", ["move", "record"])
def test_a_disk_full_during_undo_leaves_head_and_index_together(
    small_disk: Path, point: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = Repo(small_disk / "repo")
    dirty(repo, files=2)
    worktree = repo.snapshot()["files"]
    base = repo.head()
    Session.open(str(repo.path)).apply_all()
    top = repo.head()
    where = ("segmint_core.apply.undo", "move_head") if point == "move" else ("segmint_core.session.ledger", "put_back")
    filled = fill_before(monkeypatch, small_disk, *where)

    with pytest.raises((SegmintError, OSError)) as failed:
        Session.open(str(repo.path)).undo()
    monkeypatch.undo()
    undone = repo.head() != top
    assert undone == (point == "record"), failed.value
    assert repo.head() in (top, base), "one undo takes back both commits of the apply --all, or neither"
    assert_git_whole(repo, worktree, failed.value)
    if point == "record":
        assert "is undone: HEAD is back at" in str(failed.value) and journal.pending(str(repo.path / ".git"))
        with pytest.raises(SegmintError, match="^Segmint finished undoing commit-1, commit-2.*free some space"):
            Session.open(str(repo.path))
        assert_git_whole(repo, worktree)

    filled[0].unlink()
    session = Session.open(str(repo.path))
    assert [p.status for p in session.plans] == ["proposed" if undone else "applied"] * 2
    while session.applied:
        session.undo()
    assert repo.head() == base and repo.snapshot()["files"] == worktree
    assert repo.git("diff", "--cached", "--name-only") == ""


@pytest.mark.parametrize("leave", range(0, 40) if THOROUGH else range(0, 40, 4))
def test_a_disk_filling_during_apply_all_loses_nothing_and_a_rerun_finishes(small_disk: Path, leave: int) -> None:
    repo = Repo(small_disk / "repo")
    edited = dirty(repo)
    worktree = repo.snapshot()["files"]
    base = repo.head()
    filler = fill(small_disk, leave * PAGE)

    try:
        Session.open(str(repo.path)).apply_all()
        stopped = None
    except (OSError, SegmintError) as exc:  # what the CLI turns into one sentence
        stopped = exc
    made = int(repo.git("rev-list", "--count", f"{base}..HEAD"))
    assert_git_whole(repo, worktree, stopped)
    assert stopped is not None or made == 6
    assert isinstance(stopped, BatchStopped) == (0 < made < 6), "a stopped batch names the commits it made"
    if isinstance(stopped, BatchStopped):
        assert [o.commit_id for o in stopped.made] == [f"commit-{n}" for n in range(1, made + 1)]
    try:  # still full: opened, or one sentence, and git as it was
        Session.open(str(repo.path))
    except (OSError, SegmintError) as exc:
        assert says_the_disk_is_full(exc), exc
    assert_git_whole(repo, worktree)

    assert_finished_after_freeing(repo, filler, edited, made)
