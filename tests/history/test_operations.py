"""The operation log: one apply --all is one operation, and one undo takes all of it back."""

from __future__ import annotations

import hashlib

import pytest

from segmint_core.errors import RefusedError, UnknownIdError
from segmint_core.session.session import Session
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.groups import one_group_per_hunk
from tests.support.repo import Repo

FILES = ("a.py", "b.py", "c.py", "d.py")


def four_intents(repo: Repo) -> None:
    for name in FILES:
        repo.write(name, f"def {name[0]}():\n    return 1\n")
    repo.write("notes.txt", "one\n")
    repo.commit("base")
    for name in FILES:
        repo.write(name, f"def {name[0]}():\n    return 2\n")
    repo.git("add", "a.py")  # staged, and committed by a plan: undo stages it again
    repo.write("notes.txt", "two\n")  # in no plan: left as it is throughout


def snapshot(repo: Repo) -> dict:
    """HEAD, every index entry with its flags and stat data, and every work-tree file's bytes."""
    files = {p.name: hashlib.sha1(p.read_bytes()).hexdigest() for p in repo.path.iterdir() if p.is_file()}
    return {
        "head": repo.git("rev-parse", "HEAD").strip(),
        "branch": repo.git("symbolic-ref", "HEAD").strip(),
        "index": repo.git("ls-files", "--stage", "--debug"),
        "files": files,
        "status": repo.git("status", "--porcelain"),
    }


def plan_four(repo: Repo) -> Session:
    session = Session.open(str(repo.path))
    one_group_per_hunk(session)
    notes = next(h.id for c in session.changes if c.file_path == "notes.txt" for h in c.hunks)
    session.propose_commits([g.id for g in session.groups if notes not in g.hunk_ids])
    return session


def test_one_undo_takes_back_all_four_commits_of_apply_all(repo: Repo) -> None:
    four_intents(repo)
    before = snapshot(repo)
    session = plan_four(repo)
    assert len(session.plans) == 4
    made = session.apply_all()
    assert len(made) == 4 and repo.git("rev-list", "--count", "HEAD").strip() == "5"
    [op] = session.operations()
    assert (op.kind, op.head_before, op.head_after) == ("apply", before["head"], made[-1].sha)
    assert op.commits == [o.sha for o in made] and op.ref == "refs/heads/main"
    outcome = session.undo()
    assert outcome.operations == [op.id] and outcome.commits == op.commits
    assert snapshot(repo) == {**before, "index": snapshot(repo)["index"]}
    assert _entries(snapshot(repo)["index"]) == _entries(before["index"])
    assert [p.status for p in session.plans] == ["proposed"] * 4
    log = session.operations()
    assert [(o.id, o.kind, o.undone_by, o.undoes) for o in log] == [
        ("op-1", "apply", "op-2", []),
        ("op-2", "undo", "", ["op-1"]),
    ]
    with pytest.raises(RefusedError, match="Nothing to undo"):
        session.undo()


def _entries(debug: str) -> list[str]:
    """Index entries (mode, object, stage, path) and their flags; not their stat data, which a
    rewritten index refreshes."""
    kept = [line for line in debug.splitlines() if not line.startswith(("  ctime", "  mtime", "  dev", "  uid"))]
    return [line.rpartition("\t")[2] if line.startswith("  size:") else line for line in kept]


def test_undo_op_takes_back_that_operation_and_every_one_after(repo: Repo) -> None:
    four_intents(repo)
    before = snapshot(repo)
    session = plan_four(repo)
    for plan in list(session.plans)[:3]:
        session.apply_commit(plan.id)
    assert [o.id for o in session.operations()] == ["op-1", "op-2", "op-3"]
    outcome = Session.open(str(repo.path)).undo("op-2")
    assert outcome.operations == ["op-2", "op-3"]
    assert repo.git("rev-list", "--count", "HEAD").strip() == "2"
    session = Session.open(str(repo.path))
    assert session.undo().operations == ["op-1"]
    assert _entries(snapshot(repo)["index"]) == _entries(before["index"])
    assert snapshot(repo)["files"] == before["files"] and snapshot(repo)["head"] == before["head"]
    with pytest.raises(RefusedError, match="op-1 is already undone"):
        session.undo("op-1")
    with pytest.raises(RefusedError, match="op-4 is an undo"):
        session.undo("op-4")
    with pytest.raises(UnknownIdError):
        session.undo("op-99")


def test_undo_op_refuses_when_a_commit_outside_segmint_came_since(repo: Repo) -> None:
    four_intents(repo)
    session = plan_four(repo)
    session.apply_all()
    repo.write("other.txt", "x\n")
    repo.git("add", "other.txt")
    repo.git("commit", "-q", "-m", "by hand")
    head = repo.git("rev-parse", "HEAD").strip()
    with pytest.raises(RefusedError, match="nothing was undone"):
        session.undo("op-1")
    assert repo.git("rev-parse", "HEAD").strip() == head


def test_cli_undo_list_and_undo_of_apply_all(repo: Repo) -> None:
    four_intents(repo)
    before = snapshot(repo)
    plan_four(repo)
    assert run_segmint("apply", "--all", cwd=repo.path).returncode == 0
    listed = run_segmint("undo", "--list", cwd=repo.path)
    assert listed.returncode == 0 and listed.stdout.startswith("op-1  apply  commit-1, commit-2, commit-3")
    undo = run_segmint("undo", cwd=repo.path)
    assert undo.returncode == 0, undo.stderr
    assert undo.stdout.startswith("Undid op-1 (commit-1, commit-2, commit-3, commit-4: 4 commits)")
    assert snapshot(repo)["head"] == before["head"] and snapshot(repo)["status"] == before["status"]
    assert run_segmint("undo", "--list", cwd=repo.path).stdout.splitlines()[0].startswith("op-2  undo  undo of op-1")
    assert_clean_error(run_segmint("undo", "op-7", cwd=repo.path), "op-7")
    assert_clean_error(run_segmint("undo", cwd=repo.path), "Nothing to undo")
