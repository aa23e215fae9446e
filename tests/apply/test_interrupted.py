"""An apply or an undo killed at any moment, or stopped by a full disk, loses nothing,
and the next Segmint command finishes or rolls it back, saying so in one sentence."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import settings

from segmint_core.changes import capture
from segmint_core.session.session import Session
from tests.support.groups import one_group_per_hunk
from tests.support.repo import Repo

ROOT = Path(__file__).resolve().parents[2]
THOROUGH = settings.default.max_examples >= 1000  # --hypothesis-profile=thorough: ten times the random kills
FILES = {f"mod{i}.py": "".join(f"value_{i}_{n} = {n}\n" for n in range(30)) for i in range(4)}


def dirty(repo: Repo) -> Repo:
    """Four committed files, each edited (nothing staged), planned as four commits."""
    for path, text in FILES.items():
        repo.write(path, text)
    repo.commit("base")
    for path, text in FILES.items():
        repo.write(path, text.replace(" = 3\n", " = 33\n"))
    session = Session.open(str(repo.path))
    one_group_per_hunk(session)
    session.propose_commits()
    return repo


def hook(repo: Repo, name: str, body: str) -> None:
    path = repo.path / ".git" / "hooks" / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


def run_child(repo: Repo, point: str, *, kill_after: float | None = None) -> subprocess.CompletedProcess:
    """``tests.support.interrupt`` on the repository: killed at ``point``, or from here
    ``kill_after`` seconds after it starts applying."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.support.interrupt", str(repo.path), point],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if kill_after is not None:
        assert child.stdout.readline() == b"started\n"
        time.sleep(kill_after)
        child.send_signal(signal.SIGKILL)
    out, err = child.communicate(timeout=120)
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def time_to_apply(repo: Repo) -> float:
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.support.interrupt", str(repo.path), "none"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout.readline() == b"started\n"
    started = time.monotonic()
    assert child.stdout.readline() == b"finished\n", child.communicate()
    whole = time.monotonic() - started
    child.communicate(timeout=60)
    return whole


def files_of(repo: Repo) -> dict[str, object]:
    return repo.snapshot()["files"]


def assert_consistent(repo: Repo, said: list[str] = ()) -> None:
    """No lock left, the index at HEAD (nothing was staged before), the object store whole."""
    assert not (repo.path / ".git" / "index.lock").exists(), f"a stale index.lock; {said}"
    assert repo.git("diff", "--cached", "--name-only") == "", f"the index is not at HEAD; {said}"
    repo.git("fsck", "--no-progress")


def assert_reads_the_tree(session: Session) -> None:
    """The session's changes are the repository's as it is now, not as they were read before the
    interrupted work was finished (with the index behind HEAD, the commit showed as staged undone)."""
    assert session.units.changeset.fingerprint == capture(session.git).fingerprint
    committed = set(session.git.run("diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD").text.split())
    assert not any(c.staged_patch for c in session.changes if c.file_path in committed), "nothing staged"


def finish_the_work(repo: Repo, worktree: dict[str, object]) -> Session:
    session = Session.open(str(repo.path))
    try:
        session.apply_all()
    except Exception as exc:
        state = [(p.id, p.status, p.out_of_date) for p in session.plans]
        raise AssertionError(f"a rerun could not finish: {exc}; plans {state}; {session.activity[-3:]}") from exc
    assert repo.git("status", "--porcelain") == "", "a rerun commits everything that was planned"
    assert files_of(repo) == worktree, "no work-tree byte changed"
    for path, text in FILES.items():
        assert repo.git("show", f"HEAD:{path}") == text.replace(" = 3\n", " = 33\n")
    return session


KILLED = {
    "before-commit": "rolled it back",
    "before-record": "finished applying",
    "before-clear": "finished applying",
}


@pytest.mark.parametrize("point", sorted(KILLED))
def test_a_killed_apply_is_finished_or_rolled_back_by_the_next_command(repo: Repo, point: str) -> None:
    dirty(repo)
    worktree = files_of(repo)
    head = repo.head()
    result = run_child(repo, point)
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert files_of(repo) == worktree
    assert (repo.path / ".git" / "segmint" / "journal.json").exists()

    session = Session.open(str(repo.path))
    assert len(session.recovered) == 1 and KILLED[point] in session.recovered[0], session.recovered
    assert_consistent(repo)
    first = session.plans[0]
    if KILLED[point] == "rolled it back":
        assert repo.head() == head and first.status == "proposed"
    else:
        assert repo.git("rev-parse", "HEAD~1").strip() == head
        assert (first.status, first.sha) == ("applied", repo.head())
        assert not any(p.out_of_date for p in session.plans), "the other plans are still good"
    assert session.activity[-1].action == "recovered"
    assert_reads_the_tree(session)
    finish_the_work(repo, worktree)


def test_a_killed_apply_is_finished_in_a_repository_moved_since(repo: Repo, tmp_path: Path) -> None:
    # Killed by its post-commit hook: HEAD moved, the prepared index not yet in place. The journal
    # names that index by the folder's path when the apply began.
    dirty(repo)
    head = repo.head()
    hook(repo, "post-commit", 'kill -9 "$SEGMINT_TEST_VICTIM"\n')
    assert run_child(repo, "hook").returncode == -signal.SIGKILL
    moved = Repo(repo.path.rename(tmp_path / "moved"), init=False)
    session = Session.open(str(moved.path))
    assert "finished applying" in session.recovered[0], session.recovered
    assert moved.git("rev-parse", "HEAD~1").strip() == head
    assert_consistent(moved)
    assert not list((moved.path / ".git" / "segmint" / "tmp").glob("*")), "no prepared or scratch index left"
    session.undo()
    assert moved.head() == head and moved.git("diff", "--cached", "--name-only") == ""


def test_interrupted_in_a_post_commit_hook_the_index_follows_the_commit(repo: Repo) -> None:
    # Ctrl-C while a slow post-commit hook runs: git has made the commit, Segmint hears of the
    # interrupt before it hears of the commit.
    dirty(repo)
    worktree = files_of(repo)
    head = repo.head()
    hook(repo, "post-commit", '[ -z "$SEGMINT_TEST_VICTIM" ] || kill -INT "$SEGMINT_TEST_VICTIM"; sleep 0.5\n')
    assert run_child(repo, "hook").returncode != 0
    assert repo.git("rev-parse", "HEAD~1").strip() == head
    assert_consistent(repo)
    session = Session.open(str(repo.path))
    assert len(session.recovered) == 1 and "finished applying" in session.recovered[0], session.recovered
    assert session.plans[0].status == "applied"
    session.undo()
    assert repo.head() == head and repo.git("diff", "--cached", "--name-only") == ""
    finish_the_work(repo, worktree)


def test_killed_before_the_refresh_the_rest_of_the_plans_are_kept(repo: Repo) -> None:
    dirty(repo)
    worktree = files_of(repo)
    assert run_child(repo, "before-refresh").returncode == -signal.SIGKILL
    session = Session.open(str(repo.path))
    assert session.recovered == [], "the commit was recorded: nothing to finish"
    assert_consistent(repo)
    assert [p.status for p in session.plans] == ["applied", "proposed", "proposed", "proposed"]
    assert not any(p.out_of_date for p in session.plans)
    finish_the_work(repo, worktree)


def test_killed_between_the_units_and_the_state_the_state_keeps_its_own_units(repo: Repo) -> None:
    dirty(repo)
    worktree = files_of(repo)
    assert run_child(repo, "after-units").returncode == -signal.SIGKILL
    session = Session.open(str(repo.path))
    assert_consistent(repo)
    assert [p.status for p in session.plans] == ["applied", "proposed", "proposed", "proposed"]
    assert not any(p.out_of_date for p in session.plans), [p.out_of_date for p in session.plans]
    open_plans = sorted(sorted(p.hunk_ids) for p in session.plans[1:])
    assert open_plans == sorted(sorted(g.hunk_ids) for g in session.groups if g.hunk_ids), "plans follow groups"
    finish_the_work(repo, worktree)


@pytest.mark.parametrize("hook_name", ["pre-commit", "post-commit"])
def test_killed_while_a_slow_hook_runs_the_next_command_waits_for_it(
    repo: Repo, hook_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dirty(repo)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))  # the killed child's temporary folder
    worktree = files_of(repo)
    head = repo.head()
    marker = tmp_path / "hook-ended"
    # The hook kills Segmint, then runs on (git commit goes on without it).
    hook(repo, hook_name, f'[ -e "{marker}" ] || {{ kill -9 "$SEGMINT_TEST_VICTIM"; sleep 1.5; touch "{marker}"; }}\n')
    assert run_child(repo, "hook").returncode == -signal.SIGKILL
    session = Session.open(str(repo.path))
    assert marker.exists(), "the next command waited for the hook before acting"
    assert len(session.recovered) == 1 and "finished applying" in session.recovered[0], session.recovered
    assert list(temporary.iterdir()) == [], "the killed commit left nothing behind in the temporary folder"
    assert repo.git("rev-parse", "HEAD~1").strip() == head
    assert_consistent(repo)
    assert_reads_the_tree(session)
    assert [c.file_path for c in session.changes] == ["mod1.py", "mod2.py", "mod3.py"], "mod0.py is committed"
    finish_the_work(repo, worktree)


def test_a_job_a_hook_leaves_running_does_not_hold_up_the_next_commit(repo: Repo, tmp_path: Path) -> None:
    # A post-commit hook that starts a job in the background (ctags after each commit, say): the job
    # inherits what the commit's processes hold, and outlives the commit by far.
    dirty(repo)
    pids = tmp_path / "pids"
    hook(repo, "post-commit", f'sleep 30 >/dev/null 2>&1 &\necho $! >> "{pids}"\n')
    started = time.monotonic()
    try:
        session = Session.open(str(repo.path))
        session.apply_all()
        session.undo()
    finally:
        for pid in pids.read_text().split() if pids.exists() else ():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)
    assert time.monotonic() - started < 20, "a commit waited for the job of the one before"
    assert [p.status for p in session.plans] == ["proposed"] * 4, "one undo takes back the whole apply --all"


@pytest.mark.parametrize(
    "point,said", [("undo-before-move", "rolled it back"), ("undo-before-swap", "finished undoing")]
)
def test_a_killed_undo_is_finished_or_rolled_back(repo: Repo, point: str, said: str) -> None:
    dirty(repo)
    worktree = files_of(repo)
    base = repo.head()
    Session.open(str(repo.path)).apply_all()
    top = repo.head()
    assert run_child(repo, point).returncode == -signal.SIGKILL
    session = Session.open(str(repo.path))
    assert len(session.recovered) == 1 and said in session.recovered[0], session.recovered
    assert not (repo.path / ".git" / "index.lock").exists()
    assert repo.git("diff", "--cached", "--name-only") == "", "the index follows HEAD"
    if said == "rolled it back":
        assert repo.head() == top and [p.status for p in session.plans] == ["applied"] * 4
    else:
        assert repo.head() == base, "the undo takes back all four commits of the apply --all"
        assert [p.status for p in session.plans] == ["proposed"] * 4
        assert [(o.kind, o.undoes) for o in session.operations()] == [("apply", []), ("undo", ["op-1"])]
    while session.applied:
        session.undo()
    assert repo.head() == base and repo.git("diff", "--cached", "--name-only") == ""
    assert files_of(repo) == worktree


def random_kills(count: int, seed: int):
    rng = random.Random(seed)
    return [rng.random() for _ in range(count)]


@pytest.mark.parametrize("fraction", random_kills(60 if THOROUGH else 6, seed=15))
def test_sigkill_at_a_random_moment(repo: Repo, tmp_path: Path, fraction: float) -> None:
    slow = "sleep 0.05\n", "sleep 0.2\n"  # pre-commit, post-commit: the windows a kill must not spoil
    probe = dirty(Repo(tmp_path / "probe"))
    for name, body in zip(("pre-commit", "post-commit"), slow):
        hook(probe, name, body)
    whole = time_to_apply(probe)  # to kill within an apply --all

    dirty(repo)
    for name, body in zip(("pre-commit", "post-commit"), slow):
        hook(repo, name, body)
    worktree = files_of(repo)
    killed = run_child(repo, "none", kill_after=fraction * whole)
    assert files_of(repo) == worktree
    session = Session.open(str(repo.path))
    assert len(session.recovered) <= 1
    assert_consistent(repo, [*session.recovered, killed.stderr.decode(errors="replace")[-500:]])
    assert_reads_the_tree(session)
    finish_the_work(repo, worktree)


def test_undo_of_a_commit_finished_after_a_kill_keeps_what_was_staged_since(repo: Repo) -> None:
    # The apply is killed once its commit is made; the next command finishes it. Then the person
    # stages another version of mod0.py and edits the work tree again: that staged version is
    # nowhere else, and the undo leaves it staged, as it does after an apply never interrupted.
    dirty(repo)
    assert run_child(repo, "before-record").returncode == -signal.SIGKILL
    session = Session.open(str(repo.path))
    assert "finished applying" in session.recovered[0], session.recovered
    text = repo.read("mod0.py").decode()
    repo.write("mod0.py", text + "staged_only = 1\n")
    repo.git("add", "mod0.py")
    repo.write("mod0.py", text)
    session.undo()
    assert repo.git("show", ":mod0.py") == text + "staged_only = 1\n", "the staged version is kept"
