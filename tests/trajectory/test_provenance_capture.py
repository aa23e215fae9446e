"""Recording provenance: intents per source and session, edits snapshotted under them, in real repositories."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from segmint_core.trajectory.provenance import (
    DamagedProvenanceError,
    begin_intent,
    current_intent,
    end_intent,
    mark_session,
    record_before_edit,
    record_edit,
)
from segmint_core.trajectory.provenance.store import Store, blob_id
from tests.support.repo import Repo
from tests.trajectory.support import project


def edits(repo: Repo) -> list[dict]:
    return [e for e in Store(repo.path).events() if e["kind"] == "edit"]


def test_an_edit_is_snapshotted_under_the_sessions_current_intent(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    intent = begin_intent(
        repo.path, "Please fix the crash on an empty config", source="claude-code", session_id="s1", prompt_id="p1"
    )
    assert intent.id == "intent-1" and intent.session_id == "s1" and intent.prompt_id == "p1"
    repo.write("app.py", "fixed\n")
    record_edit(repo.path, [str(repo.path / "app.py")], source="claude-code", session_id="s1")
    [edit] = edits(repo)
    assert edit["intent"] == "intent-1"
    assert edit["files"] == {"app.py": blob_id(b"fixed\n")}
    assert edit["head"] == repo.head()
    assert Store(repo.path).get_blob(edit["files"]["app.py"]) == b"fixed\n"


def test_intents_are_kept_per_session_and_source(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    a = begin_intent(repo.path, "task a", source="claude-code", session_id="s1")
    b = begin_intent(repo.path, "task b", source="gemini", session_id="s2")
    assert current_intent(repo.path, source="claude-code", session_id="s1") == a
    assert current_intent(repo.path, source="gemini", session_id="s2") == b
    assert current_intent(repo.path) == b  # the newest of any source
    repo.write("app.py", "a\n")
    record_edit(repo.path, ["app.py"], source="claude-code", session_id="s1")
    repo.write("lib/util.py", "b\n")
    record_edit(repo.path, ["lib/util.py"], source="gemini", session_id="s2")
    assert [(e["intent"], list(e["files"])) for e in edits(repo)] == [
        ("intent-1", ["app.py"]),
        ("intent-2", ["lib/util.py"]),
    ]


def test_a_persons_intent_holds_for_the_tui_and_the_cli(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    said = begin_intent(repo.path, "rename the helper", source="cli")
    assert current_intent(repo.path, source="tui") == said
    assert current_intent(repo.path, source="claude-code") is None


def test_ending_an_intent_leaves_later_edits_unattributed(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    begin_intent(repo.path, "task", source="cli")
    end_intent(repo.path, source="cli")
    assert current_intent(repo.path) is None
    repo.write("app.py", "later\n")
    record_edit(repo.path, ["app.py"], source="cli")
    assert edits(repo)[-1]["intent"] is None


def test_a_session_end_ends_its_intent(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    mark_session(repo.path, source="claude-code", session_id="s1", event="start")
    begin_intent(repo.path, "task", source="claude-code", session_id="s1")
    mark_session(repo.path, source="claude-code", session_id="s1", event="end")
    assert current_intent(repo.path, source="claude-code", session_id="s1") is None
    kinds = [(e["kind"], e.get("event")) for e in Store(repo.path).events()]
    assert kinds == [("session", "start"), ("intent", None), ("session", "end"), ("end", None)]


def test_secrets_in_a_prompt_are_masked(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    key = "sk-" + "A1b2C3d4" * 4
    intent = begin_intent(repo.path, f"use the key\nOPENAI_API_KEY={key}\nthen retry", source="cli")
    assert key not in intent.text and "use the key" in intent.text and "then retry" in intent.text
    assert key not in Store(repo.path).events_path.read_text()


def test_a_shell_command_snapshots_every_changed_file_and_never_an_ignored_one(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    begin_intent(repo.path, "build it", source="claude-code", session_id="s")
    repo.write("app.py", "changed\n")
    repo.write("new.py", "new\n")
    repo.write("build/out.bin", "artifact\n")
    repo.write("debug.log", "noise\n")
    repo.delete("lib/util.py")
    record_edit(repo.path, None, source="claude-code", session_id="s")
    record_edit(
        repo.path, ["debug.log", "build/out.bin", "../outside.py", ".git/config"], source="claude-code", session_id="s"
    )
    [edit] = edits(repo)
    assert edit["files"] == {"app.py": blob_id(b"changed\n"), "lib/util.py": None, "new.py": blob_id(b"new\n")}


def test_an_unchanged_file_is_not_snapshotted_again(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    begin_intent(repo.path, "t", source="cli")
    repo.write("app.py", "x\n")
    record_edit(repo.path, ["app.py"], source="cli")
    record_edit(repo.path, ["app.py"], source="cli")
    record_edit(repo.path, None, source="cli")
    assert len(edits(repo)) == 1


def test_edits_made_before_a_prompt_stay_unattributed(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    repo.write("app.py", "by hand\n")
    begin_intent(repo.path, "agent task", source="claude-code", session_id="s")
    [sweep] = edits(repo)
    assert sweep["intent"] is None and list(sweep["files"]) == ["app.py"]


def test_edits_by_hand_go_to_the_task_a_person_said_then(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    first = begin_intent(repo.path, "raise the limit", source="cli")
    repo.write("app.py", "limit = 30\n")
    second = begin_intent(repo.path, "add a helper", source="cli")
    repo.write("lib/util.py", "def helper(): ...\n")
    end_intent(repo.path, source="cli")
    repo.write("app.py", "limit = 31\n")
    record_edit(repo.path, None, source="cli")
    assert [(e["intent"], list(e["files"])) for e in edits(repo)] == [
        (first.id, ["app.py"]),
        (second.id, ["lib/util.py"]),
        (None, ["app.py"]),  # after the task was finished
    ]


def test_an_agent_never_takes_a_persons_edits(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    said = begin_intent(repo.path, "rename the helper", source="tui")
    repo.write("app.py", "by hand\n")
    begin_intent(repo.path, "agent task", source="claude-code", session_id="s")
    repo.write("lib/util.py", "by hand too\n")
    record_before_edit(repo.path, ["lib/util.py"], source="claude-code", session_id="s")
    end_intent(repo.path, source="claude-code", session_id="s")  # an agent's end sweeps nothing
    assert [(e["intent"], list(e["files"])) for e in edits(repo)] == [
        (said.id, ["app.py"]),
        (said.id, ["lib/util.py"]),
    ]


def test_nothing_is_written_to_the_work_tree_index_or_refs(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    repo.write("app.py", "dirty\n")
    before = repo.snapshot()
    begin_intent(repo.path, "t", source="claude-code", session_id="s")
    record_edit(repo.path, None, source="claude-code", session_id="s")
    end_intent(repo.path, source="claude-code", session_id="s")
    assert repo.snapshot() == before
    assert Store(repo.path).dir == repo.path / ".git" / "segmint" / "provenance"


def test_a_linked_worktree_keeps_its_own_record(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    repo.git("worktree", "add", "-q", str(tmp_path / "wt"), "-b", "side")
    wt = Repo(tmp_path / "wt", init=False)
    begin_intent(wt.path, "side task", source="cli")
    wt.write("app.py", "side\n")
    record_edit(wt.path, ["app.py"], source="cli")
    assert edits(wt)[0]["head"] == wt.head()
    assert Store(wt.path).dir.is_relative_to(repo.path / ".git" / "worktrees")
    assert current_intent(repo.path) is None


def test_a_damaged_state_raises_one_sentence(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    begin_intent(repo.path, "t", source="cli")
    Store(repo.path).state_path.write_text("{not json")
    with pytest.raises(DamagedProvenanceError) as caught:
        record_edit(repo.path, ["app.py"], source="cli")
    message = str(caught.value)
    assert "damaged" in message and "\n" not in message and "move" in message
    with pytest.raises(DamagedProvenanceError):
        current_intent(repo.path)


def test_a_line_cut_short_in_the_log_is_skipped(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    begin_intent(repo.path, "t", source="cli")
    with open(Store(repo.path).events_path, "ab") as f:
        f.write(b'{"kind": "edit", "fil')
    repo.write("app.py", "x\n")
    record_edit(repo.path, ["app.py"], source="cli")
    kinds = [e["kind"] for e in Store(repo.path).events()]
    assert kinds == ["intent", "edit"]


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    with pytest.raises(ValueError):
        begin_intent(repo.path, "t", source="vim")
    with pytest.raises(ValueError):
        mark_session(repo.path, source="gemini", session_id="s", event="pause")


def _hammer(root: str, n: int) -> None:
    for k in range(10):
        Path(root, f"f{n}.txt").write_text(f"{n}:{k}\n")
        record_edit(Path(root), [f"f{n}.txt"], source="claude-code", session_id=f"s{n}")


def test_concurrent_hook_processes_lose_no_edit(tmp_path: Path) -> None:
    repo = project(tmp_path / "p")
    for n in range(4):
        begin_intent(repo.path, f"task {n}", source="claude-code", session_id=f"s{n}")
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_hammer, args=(str(repo.path), n)) for n in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    found = edits(repo)
    assert len(found) == 40
    assert sorted(e["id"] for e in found) == list(range(1, 41))
    state = json.loads(Store(repo.path).state_path.read_text())
    assert state["last_blob"]["f3.txt"] == blob_id(b"3:9\n")
