"""The six trajectory tools through ``TrajectoryService`` on real temporary projects.

Snapshots are taken through the running recorder directly so their times come
from the injected clock exactly; the watcher's debounce is long enough never
to interfere (``test_watcher`` covers the events themselves).
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from segmint_core.errors import NotARepositoryError, SegmintError
from segmint_core.trajectory.errors import TrajectoryError
from segmint_core.trajectory.service import TrajectoryService
from tests.support.repo import Repo
from tests.trajectory.support import FakeClock, project, shadow_subjects

pytestmark = pytest.mark.filterwarnings("ignore:Callback with id:RuntimeWarning")


@pytest.fixture
def service(clock: FakeClock) -> Iterator[TrajectoryService]:
    with TrajectoryService(debounce=600, clock=clock) as svc:
        yield svc


@pytest.fixture
def configured(service: TrajectoryService, proj: Repo) -> TrajectoryService:
    service.configure_project(str(proj.path))
    return service


def save(service: TrajectoryService, proj: Repo, path: str, content: str, *, after: float = 10) -> None:
    service.clock.advance(after)  # type: ignore[attr-defined]
    proj.write(path, content)
    assert service.recording is not None
    assert service.recording.recorder.record([path]) is not None


# -- configure_project ---------------------------------------------------------------


def test_configure_project_starts_recording(service: TrajectoryService, proj: Repo) -> None:
    result = service.configure_project(str(proj.path))
    assert result.data["root"] == str(proj.path.resolve())
    assert result.data["already_running"] is False
    assert result.data["exclude_updated"] is True
    assert result.data["opening_snapshot"]["kind"] == "baseline"
    assert result.text.startswith(f"Recording {proj.path.resolve()} into .trajectory/ (debounce 600 s).")
    assert "Added .trajectory/ to .git/info/exclude, so git ignores it; no tracked file was written." in result.text


def test_configure_project_writes_no_tracked_file(service: TrajectoryService, proj: Repo) -> None:
    proj.commit("the project as committed")  # its .gitignore is tracked
    before = proj.snapshot()
    service.configure_project(str(proj.path))
    after = proj.snapshot()
    assert proj.read(".gitignore") == b"build/\n*.log\n", "the tracked .gitignore is left alone"
    assert proj.status() == "", "nor does git list the timeline"
    assert (proj.path / ".git" / "info" / "exclude").read_bytes().endswith(b"\n.trajectory/\n")
    assert {k: v for k, v in after.items() if k != "files"} == {k: v for k, v in before.items() if k != "files"}
    assert {p: b for p, b in after["files"].items() if not p.startswith(".trajectory/")} == before["files"]


def test_a_project_that_already_ignores_the_timeline_gets_no_exclude_line(
    service: TrajectoryService, proj: Repo
) -> None:
    proj.write(".gitignore", "build/\n.trajectory/\n")
    exclude = proj.path / ".git" / "info" / "exclude"
    before = exclude.read_bytes() if exclude.exists() else b""
    assert service.configure_project(str(proj.path)).data["exclude_updated"] is False
    assert (exclude.read_bytes() if exclude.exists() else b"") == before


def test_configuring_the_same_project_keeps_the_running_recorder(configured: TrajectoryService, proj: Repo) -> None:
    first = configured.recording
    again = configured.configure_project(str(proj.path / "lib"))  # a folder inside: same project
    assert again.data["already_running"] is True
    assert configured.recording is first
    assert shadow_subjects(proj) == ["[BASELINE] 09:30:00 - recording started - 3 files"]


def test_configuring_another_project_replaces_the_recorder(configured: TrajectoryService, tmp_path: Path) -> None:
    first = configured.recording
    other = project(tmp_path / "other")
    result = configured.configure_project(str(other.path))
    assert result.data["root"] == str(other.path.resolve())
    assert first is not None and not first.running
    assert configured.recording is not first


@pytest.mark.parametrize(
    "path, error, message",
    [
        ("relative/path", TrajectoryError, "path must be absolute: relative/path"),
        ("/does/not/exist", NotARepositoryError, "Path does not exist: /does/not/exist"),
        ("", TrajectoryError, "path must be a non-empty absolute path."),
    ],
)
def test_configure_project_refuses_bad_paths(service: TrajectoryService, path: str, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        service.configure_project(path)
    assert str(info.value) == message


def test_configure_project_refuses_a_folder_outside_git(service: TrajectoryService, tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(NotARepositoryError, match="Not a git repository"):
        service.configure_project(str(tmp_path / "plain"))


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.get_file_trajectory("app.py"),
        lambda s: s.get_global_trajectory(),
        lambda s: s.get_session_summary(),
        lambda s: s.consolidate("x"),
    ],
)
def test_tools_need_a_configured_project(service: TrajectoryService, call) -> None:
    with pytest.raises(TrajectoryError) as info:
        call(service)
    assert str(info.value) == "No project configured: call configure_project with an absolute path first."


# -- set_trajectory_intent -------------------------------------------------------------


def test_intent_set_before_configure_is_recorded_and_survives_reconfiguring(
    service: TrajectoryService,
    proj: Repo,
    tmp_path: Path,
) -> None:
    result = service.set_trajectory_intent("  Fix\nlogin  ")
    assert result.data == {"intent": "Fix login", "previous": None, "recorded_in": None}
    service.configure_project(str(proj.path))
    save(service, proj, "app.py", "one\n")
    assert shadow_subjects(proj)[-1].startswith("[AUTO-TRJ] 09:30:10 - Fix login - app.py")
    service.configure_project(str(project(tmp_path / "other").path))
    assert service.recording is not None and service.recording.recorder.intent == "Fix login"


def test_an_empty_intent_is_refused(service: TrajectoryService) -> None:
    with pytest.raises(TrajectoryError, match="intent must be a non-empty string."):
        service.set_trajectory_intent("   ")


# -- get_file_trajectory ---------------------------------------------------------------


def test_file_trajectory_is_oldest_first_with_diffs_and_reverts(configured: TrajectoryService, proj: Repo) -> None:
    original = proj.read("lib/util.py").decode()
    configured.set_trajectory_intent("Try a change")
    save(configured, proj, "lib/util.py", "def helper():\n    return 2\n")
    save(configured, proj, "lib/util.py", "def helper():\n    return 3\n")
    configured.set_trajectory_intent("Undo it")
    save(configured, proj, "lib/util.py", original)

    result = configured.get_file_trajectory("lib/util.py", depth=3)
    snaps = result.data["snapshots"]
    assert [s["intent"] for s in snaps] == ["Try a change", "Try a change", "Undo it"]
    assert [s["time"] for s in snaps] == [
        "2026-03-14T09:30:10+02:00",
        "2026-03-14T09:30:20+02:00",
        "2026-03-14T09:30:30+02:00",
    ]
    assert snaps[2]["revert_of"]["time"] == "2026-03-14T09:30:00+02:00"  # the baseline
    assert [s["revert_of"] is None for s in snaps[:2]] == [True, True]
    assert "-    return 3\n+    return 1" in snaps[2]["diff"]
    assert result.data["total_snapshots"] == 4
    assert "**[Revert Detected]** (Matches state from 09:30:00)" in result.text
    assert result.text.index("return 2") < result.text.index("**[Revert Detected]**")


def test_file_trajectory_depth_and_paths(configured: TrajectoryService, proj: Repo) -> None:
    for n in range(4):
        save(configured, proj, "app.py", f"v{n}\n")
    default = configured.get_file_trajectory("app.py")
    assert len(default.data["snapshots"]) == 5 and default.data["total_snapshots"] == 5
    last = configured.get_file_trajectory(str(proj.path / "app.py"), depth=1)
    assert last.data["filepath"] == "app.py"
    assert last.data["snapshots"][0]["diff"].endswith("+v3")


def test_a_file_name_with_a_newline_stays_on_its_line_of_the_markdown(
    configured: TrajectoryService, proj: Repo
) -> None:
    save(configured, proj, "two\nlines.py", "x = 1\n")
    one = configured.get_file_trajectory("two\nlines.py")
    assert one.text.startswith("# Trajectory of `two\\nlines.py`\n") and one.data["filepath"] == "two\nlines.py"
    summary = configured.get_session_summary()
    assert "\n- `two\\nlines.py` (new) +1 -0\n" in summary.text
    assert summary.data["last_session"]["files"][0]["path"] == "two\nlines.py"


def test_file_trajectory_of_a_deleted_file(configured: TrajectoryService, proj: Repo) -> None:
    configured.clock.advance(10)  # type: ignore[attr-defined]
    proj.delete("lib/util.py")
    assert configured.recording is not None
    configured.recording.recorder.record(["lib/util.py"])
    snaps = configured.get_file_trajectory("lib/util.py").data["snapshots"]
    assert [(s["status"], s["blob"] is None) for s in snaps] == [("added", False), ("deleted", True)]
    assert snaps[1]["diff"] == "@@ -1,2 +0,0 @@\n-def helper():\n-    return 1"


@pytest.mark.parametrize(
    "filepath, depth, message",
    [
        ("missing.py", 5, "No recorded snapshots for file: missing.py"),
        ("lib", 5, "No recorded snapshots for file: lib"),
        ("./lib/../app.py", 0, "depth must be a positive integer, got 0."),
        ("../outside.py", 5, "filepath is outside the project: ../outside.py"),
        (".git/config", 5, "filepath is inside .git or .trajectory, which are never recorded: .git/config"),
        ("app.py", 0, "depth must be a positive integer, got 0."),
        ("app.py", True, "depth must be a positive integer, got True."),
    ],
)
def test_file_trajectory_refuses_bad_input(configured: TrajectoryService, filepath: str, depth, message: str) -> None:
    with pytest.raises(SegmintError) as info:
        configured.get_file_trajectory(filepath, depth=depth)
    assert str(info.value) == message


def test_large_diffs_are_cut_with_a_note(configured: TrajectoryService, proj: Repo) -> None:
    save(configured, proj, "big.txt", "".join(f"row {n} {'x' * 60}\n" for n in range(5000)))
    result = configured.get_file_trajectory("big.txt", depth=1)
    snap = result.data["snapshots"][0]
    assert snap["diff_truncated"]["lines_cut"] > 4000
    assert len(result.text) < 40_000
    cut = snap["diff_truncated"]
    assert (
        f"_Diff truncated: {cut['lines_cut']:,} more lines ({cut['chars_cut']:,} characters) not shown._" in result.text
    )


# -- get_global_trajectory -------------------------------------------------------------


def test_global_trajectory_lists_recent_commits_oldest_first(configured: TrajectoryService, proj: Repo) -> None:
    for n in range(3):
        save(configured, proj, f"f{n}.py", f"n = {n}\n")
    result = configured.get_global_trajectory(limit=2)
    commits = result.data["commits"]
    assert [c["files"][0]["path"] for c in commits] == ["f1.py", "f2.py"]
    assert commits[0]["files"][0] == {"path": "f1.py", "status": "added", "added": 1, "removed": 0, "binary": False}
    assert result.data["total_commits"] == 4
    assert "Last 2 of 4 commits, oldest first." in result.text
    assert "[AUTO-TRJ] 09:30:30 - (no intent) - f2.py (new, +1)" in result.text
    assert (
        "Files: `.gitignore` (new) +2 -0, `app.py` (new) +30 -0" in configured.get_global_trajectory().text
    )  # the baseline's


def test_global_trajectory_since_consolidate(configured: TrajectoryService, proj: Repo) -> None:
    save(configured, proj, "a.py", "a\n")
    consolidated = configured.consolidate("First part")
    save(configured, proj, "b.py", "b\n")
    save(configured, proj, "c.py", "c\n")
    result = configured.get_global_trajectory(limit=1, since_consolidate=True)
    assert [c["files"][0]["path"] for c in result.data["commits"]] == ["b.py", "c.py"]
    assert result.data["after_consolidate"]["commit"] == consolidated.data["commit"]
    assert result.text.splitlines()[1].startswith("2 commits since the last consolidate")


def test_global_trajectory_validates_its_arguments(configured: TrajectoryService) -> None:
    with pytest.raises(TrajectoryError, match="limit must be a positive integer, got -1."):
        configured.get_global_trajectory(limit=-1)
    with pytest.raises(TrajectoryError, match="since_consolidate must be true or false."):
        configured.get_global_trajectory(since_consolidate="yes")  # type: ignore[arg-type]


# -- get_session_summary ---------------------------------------------------------------


def test_session_summary_after_a_long_gap_is_a_new_session(configured: TrajectoryService, proj: Repo) -> None:
    save(configured, proj, "old.py", "yesterday's work\n", after=10)
    configured.set_trajectory_intent("Parser refactor")
    save(configured, proj, "app.py", "refactored\n", after=2 * 3600)  # a new session starts here
    configured.set_trajectory_intent("Login fix")
    save(configured, proj, "lib/util.py", "fixed\n", after=600)
    configured.clock.advance(3 * 3600)  # type: ignore[attr-defined]

    result = configured.get_session_summary()
    data = result.data
    assert data["is_new_session"] is True
    assert data["gap_seconds"] == 3 * 3600
    assert data["sessions_total"] == 2
    last = data["last_session"]
    assert (last["started"], last["ended"]) == ("2026-03-14T11:30:10+02:00", "2026-03-14T11:40:10+02:00")
    assert last["snapshots"] == 2
    assert last["intents"] == ["Parser refactor", "Login fix"]
    assert last["final_intent"] == "Login fix"
    assert [f["path"] for f in last["files"]] == ["app.py", "lib/util.py"]
    assert "**New session**: the last snapshot was 3 h 0 min ago" in result.text
    assert "Final intent: Login fix" in result.text


def test_session_summary_within_the_hour_continues_the_session(configured: TrajectoryService, proj: Repo) -> None:
    save(configured, proj, "app.py", "edit\n")
    configured.clock.advance(59 * 60)  # type: ignore[attr-defined]
    data = configured.get_session_summary().data
    assert data["is_new_session"] is False
    assert data["last_session"]["snapshots"] == 1  # the edit (the baseline is not one)
    assert [f["path"] for f in data["last_session"]["files"]] == ["app.py"]  # measured from the baseline


# -- consolidate ---------------------------------------------------------------------------


def test_consolidate_tool(configured: TrajectoryService, proj: Repo) -> None:
    save(configured, proj, "a.py", "a\n")
    save(configured, proj, "b.py", "b\n")
    result = configured.consolidate("Added a and b")
    assert result.data["squashed"] == 2 and len(result.data["replaced"]) == 2
    assert (
        result.text == f"Consolidated 2 snapshots into `{result.data['commit'][:7]}` "
        "[CONSOLIDATE] 09:30:20 - Added a and b.\n"
    )
    assert shadow_subjects(proj)[-1] == "[CONSOLIDATE] 09:30:20 - Added a and b"
    again = configured.consolidate("nothing")
    assert again.data["squashed"] == 0 and again.text.startswith("Nothing to consolidate")


# -- threads -----------------------------------------------------------------------------


def test_tools_are_safe_to_call_from_many_threads(configured: TrajectoryService, proj: Repo) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for k in range(3):
                configured.set_trajectory_intent(f"thread {n}")
                proj.write(f"t{n}.py", f"{k}\n")
                assert configured.recording is not None
                configured.recording.recorder.record([f"t{n}.py"])
                configured.get_global_trajectory(limit=5)
                configured.get_session_summary()
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert len(shadow_subjects(proj)) == 1 + 6 * 3


def test_every_tool_is_a_documented_method() -> None:
    from segmint_core.trajectory.service import TOOLS

    assert list(TOOLS) == [
        "configure_project",
        "set_trajectory_intent",
        "finish_trajectory_intent",
        "get_file_trajectory",
        "get_global_trajectory",
        "get_session_summary",
        "consolidate",
    ]
    for name in TOOLS:
        doc = getattr(TrajectoryService, name).__doc__
        assert doc and len(doc.strip().splitlines()[0]) < 100


def test_a_shadow_repository_removed_while_recording_is_said_and_configure_starts_again(
    configured: TrajectoryService, proj: Repo
) -> None:
    """The tools said "0 of 0 commits" and configure_project kept the broken recorder."""
    shutil.rmtree(proj.path / ".trajectory")
    for call in (
        lambda: configured.get_global_trajectory(),
        lambda: configured.get_session_summary(),
        lambda: configured.get_file_trajectory("README.md"),
        lambda: configured.consolidate("x"),
    ):
        with pytest.raises(TrajectoryError, match="was removed while recording.*call configure_project again"):
            call()
    again = configured.configure_project(str(proj.path))
    assert again.data["already_running"] is False
    assert again.data["opening_snapshot"]["kind"] == "baseline"
    save(configured, proj, "README.md", "edited\n")
    assert configured.get_global_trajectory().data["total_commits"] == 2
