"""A SHA-256 repository (``git init --object-format=sha256``): its ids are 64 hex digits, "no object"
is 64 zeros and the empty tree has another id; listing, planning, committing and the edit timeline
take them from the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.session.session import Session
from segmint_core.trajectory.history import file_history, read_log
from segmint_core.trajectory.recorder import Recorder
from tests.support.repo import Repo
from tests.trajectory.support import shadow_git


def sha256_repo(path: Path) -> Repo:
    path.mkdir(parents=True)
    made = Repo(path, init=False).git_bytes("init", "-q", "-b", "main", "--object-format=sha256", check=False)
    if not (path / ".git").exists():
        pytest.skip(f"this git cannot make a SHA-256 repository: {made!r}")
    repo = Repo(path, init=False)
    repo.git("config", "commit.gpgsign", "false")
    return repo


def test_untracked_files_get_the_repository_s_ids(tmp_path: Path) -> None:
    repo = sha256_repo(tmp_path / "repo")
    repo.write("new.py", "x = 1\n")
    repo.write("blob.bin", b"\0\1\2")
    changes = capture(Git(repo.path))
    assert changes.head is None
    for change in changes.changes:
        patch = change.unstaged_patch
        oid = repo.git("hash-object", change.file_path).strip()
        assert (patch.old_oid, patch.new_oid) == ("0" * 64, oid)
        assert f"index {'0' * 64}..{oid}" in patch.header_lines
    repo.commit("first")
    assert capture(Git(repo.path)).head == repo.head() and len(repo.head()) == 64


def test_captured_planned_and_applied(tmp_path: Path) -> None:
    repo = sha256_repo(tmp_path / "repo")
    repo.write("app.py", "def total(xs):\n    return sum(xs)\n")
    repo.write("gone.py", "old = True\n")
    repo.write("staged.py", "a = 1\n")
    repo.write("yarn.lock", "lock 1\n")
    repo.commit("base")
    repo.write("app.py", "def total(xs):\n    return sum(xs, 0)\n")
    repo.delete("gone.py")
    repo.write("staged.py", "a = 2\n")
    repo.add("staged.py")
    repo.write("staged.py", "a = 3\n")
    repo.write("yarn.lock", "lock 2\n")
    repo.write("new.py", "from app import total\n\nprint(total([1]))\n")
    (repo.path / "link").symlink_to("new.py")
    work = {p: repo.read(p) for p in ("app.py", "staged.py", "yarn.lock", "new.py")}

    session = Session.open(str(repo.path))
    assert {c.file_path: c.status for c in session.changes} == {
        "app.py": "modified",
        "gone.py": "deleted",
        "link": "added",
        "new.py": "added",
        "staged.py": "modified",
        "yarn.lock": "modified",
    }
    session.regroup()
    plans = session.propose_commits()
    assert plans
    session.apply_all()

    assert repo.git("status", "--porcelain") == ""
    assert {p: repo.git_bytes("show", f"HEAD:{p}") for p in work} == work
    assert repo.git("show", "HEAD:link") == "new.py"
    assert "gone.py" not in repo.git("ls-tree", "--name-only", "HEAD").split()
    assert len(repo.git("log", "--format=%H").split()) == 1 + len(plans)


@pytest.mark.parametrize("shadow_format", ["sha1", "sha256"])
def test_the_edit_timeline_records_and_reads_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shadow_format: str
) -> None:
    # The shadow repository is made in git's default format, which GIT_DEFAULT_HASH sets.
    repo = sha256_repo(tmp_path / "repo")
    repo.write("a.py", "a = 1\n")
    repo.write("b.py", "b = 1\n")
    repo.commit("base")
    monkeypatch.setenv("GIT_DEFAULT_HASH", shadow_format)
    recorder = Recorder(str(repo.path))
    assert recorder.open() is not None
    assert shadow_git(repo, "rev-parse", "--show-object-format").strip() == shadow_format
    repo.write("a.py", "a = 2\n")
    assert recorder.record(["a.py"]) is not None
    repo.delete("b.py")
    deleted = recorder.record(["b.py"])
    assert deleted is not None and [(f.path, f.status) for f in deleted.files] == [("b.py", "deleted")]
    assert [(v.status, v.blob is None) for v in file_history(recorder.shadow, "b.py")] == [
        ("added", False),
        ("deleted", True),
    ]
    assert [c.kind for c in read_log(recorder.shadow)] == ["snapshot", "snapshot", "baseline"]
    assert [c.project_head.commit for c in read_log(recorder.shadow)] == [repo.head()] * 3
