"""The recorder on real temporary projects, driven directly (no watcher)."""

from __future__ import annotations

import os
import threading

import pytest

from segmint_core.trajectory.errors import (
    DamagedShadowError,
    NotAShadowRepoError,
    ShadowLockedError,
    TrajectoryError,
)
from segmint_core.trajectory.history import read_log
from segmint_core.trajectory.recorder import Recorder
from tests.support.repo import Repo
from tests.trajectory.support import FakeClock, project, shadow_file, shadow_git, shadow_subjects


def test_open_records_a_baseline_of_the_tree_without_ignored_files(proj: Repo, clock: FakeClock) -> None:
    proj.write("build/out.bin", b"\0artifact")
    proj.write("debug.log", "noise\n")
    proj.write("notes.txt", "untracked but not ignored\n")
    rec = Recorder(str(proj.path), clock=clock)
    snap = rec.open()

    assert snap is not None and snap.kind == "baseline"
    assert shadow_subjects(proj) == ["[BASELINE] 09:30:00 - recording started - 4 files"]
    files = set(shadow_git(proj, "ls-tree", "-r", "--name-only", "HEAD").split())
    assert files == {".gitignore", "app.py", "lib/util.py", "notes.txt"}
    # The commit's date is the injected clock's, offset included.
    assert shadow_git(proj, "log", "-1", "--format=%aI").strip() == "2026-03-14T09:30:00+02:00"


def test_snapshot_message_carries_time_intent_files_and_counts(
    recorder: Recorder, proj: Repo, clock: FakeClock
) -> None:
    proj.write("app.py", proj.read("app.py").decode().replace("line 3\n", "line three\nline 3b\n"))
    proj.write("lib/new.py", "x = 1\n")
    clock.advance(65)
    recorder.intent = "Tidy the app"
    snap = recorder.record(["app.py", "lib/new.py"])

    assert snap is not None
    assert snap.subject == "[AUTO-TRJ] 09:31:05 - Tidy the app - app.py (+2 -1), lib/new.py (new, +1)"
    body = shadow_git(proj, "log", "-1", "--format=%b")
    assert "Trajectory-Intent: Tidy the app" in body
    assert f"Trajectory-Project-Head: main {proj.head()}" in body


def test_a_file_name_with_newlines_neither_cuts_the_subject_nor_passes_for_an_intent(
    recorder: Recorder, proj: Repo
) -> None:
    name = "notes\n\nTrajectory-Intent: not the person's"
    proj.write(name, "x\n")
    snap = recorder.record([name])
    assert snap is not None
    assert (
        snap.subject == "[AUTO-TRJ] 09:30:00 - (no intent) - notes\\n\\nTrajectory-Intent: not the person's (new, +1)"
    )
    (latest, *_) = read_log(recorder.shadow)
    assert latest.intent is None and latest.subject == snap.subject


def test_an_unchanged_save_makes_no_commit(recorder: Recorder, proj: Repo) -> None:
    proj.write("app.py", proj.read("app.py"))
    assert recorder.record(["app.py"]) is None
    assert len(shadow_subjects(proj)) == 1


def test_deletions_folders_modes_and_symlinks(recorder: Recorder, proj: Repo) -> None:
    proj.delete("lib/util.py")
    proj.write("tools/run.sh", "#!/bin/sh\n", mode=0o755)
    os.symlink("app.py", proj.path / "link.py")
    recorder.record(["lib/util.py", "tools", "link.py"])

    tree = shadow_git(proj, "ls-tree", "-r", "HEAD")
    assert "lib/util.py" not in tree
    assert "100755 blob" in next(line for line in tree.splitlines() if line.endswith("tools/run.sh"))
    assert "120000 blob" in next(line for line in tree.splitlines() if line.endswith("link.py"))
    assert shadow_file(proj, "link.py") == b"app.py"


def test_exact_bytes_are_recorded_without_filters(recorder: Recorder, proj: Repo) -> None:
    proj.write(".gitattributes", "*.txt text eol=crlf\n")
    proj.write("dos.txt", b"one\r\ntwo\r\n")
    recorder.record([".gitattributes", "dos.txt"])
    assert shadow_file(proj, "dos.txt") == b"one\r\ntwo\r\n"


def test_names_git_would_read_as_others_are_recorded_with_their_own_bytes(recorder: Recorder, proj: Repo) -> None:
    names = {
        "notes.txt": b"plain\n",
        '"notes.txt"': b"quoted\n",
        "cr\r": b"carriage return\n",
        "cr": b"no cr\n",
        "new\nline": b"newline\n",
    }
    for name, data in names.items():
        proj.write(name, data)
    recorder.record(sorted(names))
    assert {name: shadow_file(proj, name) for name in names} == names


def test_recorded_contents_are_read_back_whatever_the_names(recorder: Recorder, proj: Repo) -> None:
    names = {"new\nline.txt": b"newline\n", "z.txt": b"after it\n", "HEAD": b"a file named HEAD\n"}
    for name, data in names.items():
        proj.write(name, data)
    recorder.record(sorted(names))
    specs = [f"HEAD:{name}" for name in names] + ["HEAD:missing.txt"]
    assert recorder.shadow.cat_blobs(specs) == {**{f"HEAD:{n}": d for n, d in names.items()}, "HEAD:missing.txt": None}


def test_ignored_paths_are_never_recorded_even_when_named(recorder: Recorder, proj: Repo) -> None:
    proj.write("build/secret.env", "TOKEN=1\n")
    proj.write("sub/.gitignore", "local.txt\n")
    proj.write("sub/local.txt", "nested rule\n")
    (proj.path / ".git" / "info").mkdir(exist_ok=True)
    (proj.path / ".git" / "info" / "exclude").write_text("private.md\n")
    proj.write("private.md", "excluded by info/exclude\n")
    assert recorder.record(["build/secret.env", "sub/local.txt", "private.md"]) is None
    snap = recorder.record(["build", "sub", "private.md"])
    assert snap is not None and [f.path for f in snap.files] == ["sub/.gitignore"]


def test_a_tracked_file_matching_an_ignore_rule_is_still_recorded(recorder: Recorder, proj: Repo) -> None:
    proj.write("keep.log", "tracked\n")
    proj.git("add", "-f", "keep.log")
    proj.write("keep.log", "tracked, edited\n")
    snap = recorder.record(["keep.log"])
    assert snap is not None and shadow_file(proj, "keep.log") == b"tracked, edited\n"


def test_restart_records_offline_edits_as_one_resync(proj: Repo, clock: FakeClock) -> None:
    Recorder(str(proj.path), clock=clock).open()
    proj.write("app.py", "rewritten while nothing was recording\n")
    clock.advance(3600 * 5)
    snap = Recorder(str(proj.path), clock=clock).open()
    assert snap is not None and snap.kind == "resync"
    assert shadow_subjects(proj)[-1] == "[RESYNC] 14:30:00 - changes made while not recording - app.py (+1 -30)"
    assert Recorder(str(proj.path), clock=clock).open() is None  # nothing new: no commit


@pytest.mark.parametrize("damage", ["a ref naming nothing", "its objects gone", "a packed ref naming nothing"])
def test_a_damaged_shadow_repository_is_named_with_the_cure(proj: Repo, clock: FakeClock, damage: str) -> None:
    Recorder(str(proj.path), clock=clock).open()
    shadow = proj.path / ".trajectory"
    if damage == "a ref naming nothing":
        (shadow / "refs" / "heads" / "trajectory").write_text("garbage\n")
    elif damage == "its objects gone":
        for stored in (shadow / "objects").rglob("*"):
            if stored.is_file():
                stored.chmod(0o644)
                stored.unlink()
    else:
        shadow_git(proj, "pack-refs", "--all")
        (shadow / "packed-refs").write_text(f"{'1' * 40} refs/heads/trajectory\n")
    proj.write("app.py", "edited\n")
    with pytest.raises(
        DamagedShadowError, match=r"\.trajectory is damaged \(.*\): move it away to start a new timeline"
    ):
        Recorder(str(proj.path), clock=clock).open()


def test_the_exclude_line_is_added_once(proj: Repo) -> None:
    from segmint_core.trajectory.ignore import ensure_ignored

    assert ensure_ignored(str(proj.path)) is True
    assert ensure_ignored(str(proj.path)) is False
    assert proj.read(".gitignore") == b"build/\n*.log\n"
    assert proj.read(".git/info/exclude").decode().count(".trajectory/") == 1


def test_a_linked_worktree_s_timeline_is_ignored_by_the_repository_s_exclude(proj: Repo, tmp_path) -> None:
    proj.commit("base")
    linked = tmp_path / "linked"
    proj.git("worktree", "add", "-q", str(linked))
    Recorder(str(linked)).open()
    assert ".trajectory" not in proj.git("-C", str(linked), "status", "--porcelain")
    assert proj.read(".git/info/exclude").endswith(b".trajectory/\n")


def test_an_exclude_that_cannot_be_written_is_one_sentence(proj: Repo) -> None:
    exclude = proj.path / ".git" / "info" / "exclude"
    exclude.unlink(missing_ok=True)
    exclude.mkdir(parents=True)
    with pytest.raises(TrajectoryError, match=r"Cannot add \.trajectory/ to .*exclude \(Is a directory"):
        Recorder(str(proj.path)).open()


def test_a_foreign_trajectory_folder_is_refused(proj: Repo) -> None:
    proj.write(".trajectory/mine.txt", "not a shadow repository\n")
    with pytest.raises(NotAShadowRepoError, match="is not a trajectory shadow repository"):
        Recorder(str(proj.path)).open()


def test_recorders_starting_together_make_one_shadow_repository_and_one_ignore_line(tmp_path) -> None:
    for attempt in range(6):
        proj = project(tmp_path / f"proj-{attempt}")
        start = threading.Barrier(4)
        failures: list[BaseException] = []

        def open_one() -> None:
            start.wait()
            try:
                Recorder(str(proj.path)).open()
            except BaseException as exc:  # noqa: BLE001 (collected for the assertion)
                failures.append(exc)

        workers = [threading.Thread(target=open_one) for _ in range(4)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=30)
        assert failures == []
        assert proj.read(".git/info/exclude").decode().count(".trajectory/") == 1
        assert shadow_subjects(proj)[0].startswith("[BASELINE]")


def test_lock_contention_is_retried_until_the_lock_goes(recorder: Recorder, proj: Repo) -> None:
    lock = proj.path / ".trajectory" / "index.lock"
    lock.write_text("")
    proj.write("app.py", "edited under contention\n")
    result: list = []
    worker = threading.Thread(target=lambda: result.append(recorder.record(["app.py"])))
    worker.start()
    assert recorder.wait_for(lambda s: s.lock_waits >= 1, timeout=10)
    lock.unlink()
    worker.join(timeout=10)
    assert result and result[0] is not None
    assert shadow_file(proj, "app.py") == b"edited under contention\n"


def test_a_lock_held_past_the_budget_raises_and_loses_nothing(proj: Repo, clock: FakeClock) -> None:
    rec = Recorder(str(proj.path), clock=clock, lock_timeout=0.2)
    rec.open()
    lock = proj.path / ".trajectory" / "index.lock"
    lock.write_text("")
    proj.write("app.py", "waiting\n")
    with pytest.raises(ShadowLockedError) as raised:
        rec.record(["app.py"])
    assert str(raised.value) == (
        f"The shadow repository stayed locked for 0.2 s by {lock}: if no other recorder "
        "of this project is running (one killed mid-write leaves it behind), remove that file."
    )
    lock.unlink()
    assert rec.record(["app.py"]) is not None
    assert shadow_file(proj, "app.py") == b"waiting\n"


def test_two_recorders_on_one_project_never_overwrite_each_other(proj: Repo, clock: FakeClock) -> None:
    first = Recorder(str(proj.path), clock=clock)
    first.open()
    second = Recorder(str(proj.path), clock=clock)
    second.open()
    barrier = threading.Barrier(2)

    def save(rec: Recorder, name: str) -> None:
        proj.write(name, name + "\n")
        barrier.wait()
        rec.record([name])

    threads = [threading.Thread(target=save, args=(r, n)) for r, n in ((first, "a.txt"), (second, "b.txt"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert shadow_file(proj, "a.txt") == b"a.txt\n"
    assert shadow_file(proj, "b.txt") == b"b.txt\n"


def test_consolidate_squashes_the_trailing_snapshots_only(recorder: Recorder, proj: Repo, clock: FakeClock) -> None:
    for n in range(3):
        clock.advance(30)
        proj.write("app.py", f"version {n}\n")
        recorder.record(["app.py"])
    tree_before = shadow_git(proj, "rev-parse", "HEAD^{tree}")
    clock.advance(30)
    result = recorder.consolidate("Rewrote the app")

    assert result.squashed == 3
    assert shadow_subjects(proj) == [
        "[BASELINE] 09:30:00 - recording started - 3 files",
        "[CONSOLIDATE] 09:32:00 - Rewrote the app",
    ]
    assert shadow_git(proj, "rev-parse", "HEAD^{tree}") == tree_before
    assert "Squashed 3 snapshots taken from 09:30:30 to 09:31:30." in shadow_git(proj, "log", "-1", "--format=%b")
    assert recorder.consolidate("again").squashed == 0


def test_branch_switch_is_noted_in_the_next_snapshot(recorder: Recorder, proj: Repo) -> None:
    proj.git("checkout", "-q", "-b", "feature")
    proj.write("app.py", "on feature\n")
    proj.commit("feature work")
    snap = recorder.record(["app.py"])
    assert snap is not None
    assert snap.subject.endswith(f"; project HEAD now feature @ {proj.head()[:7]}")
    proj.write("app.py", "still on feature\n")
    assert "project HEAD now" not in recorder.record(["app.py"]).subject
