"""Recording with real watchdog events on real temporary projects.

Tests wait on the recorder's and debouncer's own events (conditions), never on
fixed sleeps; the debounce is 0.1 s unless a test needs a longer one.
"""

from __future__ import annotations

import shutil

import pytest

from segmint_core.trajectory.recording import Recording
from tests.support.repo import Repo
from tests.trajectory.support import (
    WAIT,
    FakeClock,
    commits_touching,
    git_dir_state,
    shadow_file,
    shadow_git,
    shadow_subjects,
)


# watchdog's benign notice when a new folder is registered twice (see watcher.py).
pytestmark = pytest.mark.filterwarnings("ignore:Callback with id:RuntimeWarning")


def wait_commits(recording: Recording, n: int) -> None:
    assert recording.recorder.wait_for(lambda s: s.commits >= n, WAIT), recording.recorder.stats


def settle(recording: Recording) -> None:
    assert recording.wait_idle(WAIT)


def test_start_keeps_the_timeline_ignored_and_records_a_baseline(recording: Recording, proj: Repo) -> None:
    assert recording.exclude_updated
    assert proj.read(".git/info/exclude").endswith(b".trajectory/\n") and b"trajectory" not in proj.read(".gitignore")
    assert shadow_subjects(proj) == ["[BASELINE] 09:30:00 - recording started - 3 files"]
    assert "?? .trajectory" not in proj.status()


def test_a_save_is_recorded(recording: Recording, proj: Repo) -> None:
    proj.write("app.py", "saved\n")
    wait_commits(recording, 2)
    assert shadow_file(proj, "app.py") == b"saved\n"
    assert shadow_subjects(proj)[-1] == "[AUTO-TRJ] 09:30:00 - (no intent) - app.py (+1 -30)"


def test_a_burst_of_saves_becomes_one_snapshot_of_the_final_state(proj: Repo, clock: FakeClock) -> None:
    recording = Recording(str(proj.path), debounce=0.3, clock=clock).start()
    try:
        for n in range(25):
            proj.write("app.py", f"draft {n}\n")
        wait_commits(recording, 2)
        settle(recording)
        assert recording.recorder.stats.commits == 2
        assert shadow_file(proj, "app.py") == b"draft 24\n"
    finally:
        recording.stop()


def test_ignored_and_internal_paths_are_never_recorded(recording: Recording, proj: Repo) -> None:
    proj.write("build/artifact.o", b"\x7fELF")
    proj.write("trace.log", "noise\n")
    proj.write("lib/util.py", "def helper():\n    return 2\n")
    wait_commits(recording, 2)
    settle(recording)
    assert recording.recorder.stats.commits == 2
    names = set(shadow_git(proj, "log", "--format=", "--name-only").split())
    assert "build/artifact.o" not in names and "trace.log" not in names
    assert not any(n.startswith((".git/", ".trajectory/")) for n in names)


def test_folders_created_moved_and_deleted(recording: Recording, proj: Repo) -> None:
    proj.write("pkg/deep/mod.py", "a = 1\n")
    proj.write("pkg/deep/other.py", "b = 2\n")
    wait_commits(recording, 2)
    settle(recording)
    shutil.move(proj.path / "pkg", proj.path / "moved")
    wait_commits(recording, 3)
    settle(recording)
    files = set(shadow_git(proj, "ls-tree", "-r", "--name-only", "HEAD").split())
    assert {"moved/deep/mod.py", "moved/deep/other.py"} <= files
    assert not any(f.startswith("pkg/") for f in files)
    shutil.rmtree(proj.path / "moved")
    wait_commits(recording, 4)
    settle(recording)
    files = set(shadow_git(proj, "ls-tree", "-r", "--name-only", "HEAD").split())
    assert not any(f.startswith("moved/") for f in files)


def test_a_burst_of_1000_writes_keeps_one_entry_per_path(proj: Repo, clock: FakeClock) -> None:
    # Each path waits the debounce after its own last write: on a loaded machine one
    # round of 100 writes and their events can take longer than half a second.
    recording = Recording(str(proj.path), debounce=2.0, clock=clock).start()
    try:
        for round_ in range(10):
            for n in range(100):
                proj.write(f"burst/f{n:03}.txt", f"file {n} round {round_}\n")
        settle(recording)
        assert recording.recorder.wait_for(lambda s: s.commits >= 2, WAIT)
        # Memory is bounded by distinct paths (100 files and their folder), not by the 1,000 writes.
        assert recording.debouncer.max_pending <= 101
        for n in range(100):
            assert shadow_file(proj, f"burst/f{n:03}.txt") == f"file {n} round 9\n".encode()
            assert len(commits_touching(proj, f"burst/f{n:03}.txt")) == 1
    finally:
        recording.stop()


def test_lock_contention_in_the_shadow_repository_loses_no_snapshot(proj: Repo, clock: FakeClock) -> None:
    # A lock held longer than the recorder's own retry budget: the debouncer queues the path again.
    recording = Recording(str(proj.path), debounce=0.1, clock=clock, lock_timeout=0.2, retry_delay=0.05).start()
    try:
        lock = proj.path / ".trajectory" / "index.lock"
        lock.write_text("")
        proj.write("app.py", "saved while locked\n")
        assert recording.recorder.wait_for(lambda s: s.failures >= 1 and s.lock_waits >= 2, WAIT)
        lock.unlink()
        wait_commits(recording, 2)
        assert shadow_file(proj, "app.py") == b"saved while locked\n"
    finally:
        recording.stop()


def test_branch_switch_keeps_recording_and_notes_the_new_head(proj: Repo, clock: FakeClock) -> None:
    proj.git("checkout", "-q", "-b", "feature")
    proj.write("app.py", "feature version\n")
    feature = proj.commit("feature")
    proj.git("checkout", "-q", "main")
    recording = Recording(str(proj.path), debounce=0.1, clock=clock).start()
    try:
        proj.git("checkout", "-q", "feature")
        wait_commits(recording, 2)
        assert shadow_subjects(proj)[-1].endswith(f"; project HEAD now feature @ {feature[:7]}")
        assert shadow_file(proj, "app.py") == b"feature version\n"
        settle(recording)
        proj.write("app.py", "edited on feature\n")
        wait_commits(recording, 3)
        assert shadow_file(proj, "app.py") == b"edited on feature\n"
    finally:
        recording.stop()


def test_stop_records_saves_still_waiting(proj: Repo, clock: FakeClock) -> None:
    recording = Recording(str(proj.path), debounce=30, clock=clock).start()
    proj.write("app.py", "saved just before stopping\n")
    assert recording.debouncer.wait_pending(lambda n: n >= 1, WAIT)
    recording.stop()
    assert shadow_file(proj, "app.py") == b"saved just before stopping\n"


def test_the_projects_git_is_byte_identical_after_recording(proj: Repo, clock: FakeClock) -> None:
    """But for the one line that keeps the timeline ignored, in ``info/exclude``."""
    proj.write("staged.py", "staged = True\n")
    proj.add("staged.py")
    exclude = proj.path / ".git" / "info" / "exclude"
    exclude.write_bytes(exclude.read_bytes() + b".trajectory/\n")
    before_git, before = git_dir_state(proj), proj.snapshot()
    recording = Recording(str(proj.path), debounce=0.1, clock=clock).start()
    try:
        for n in range(5):
            clock.advance(600)
            recording.recorder.intent = f"step {n}"
            proj.write("app.py", f"step {n}\n")
            proj.write(f"new{n}.py", "x\n")
            wait_commits(recording, n + 2)
            settle(recording)
        proj.delete("lib/util.py")
        wait_commits(recording, 7)
        recording.recorder.consolidate("a day of work")
    finally:
        recording.stop()
    after = proj.snapshot()
    assert git_dir_state(proj) == before_git
    assert (after["head"], after["index"], after["refs"]) == (before["head"], before["index"], before["refs"])
