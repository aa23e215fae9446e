"""A staged rename (`git mv a b`), then edits in the work tree to b and a new file at a.

HEAD's file at a leaves with the rename: b's lines start from it, and the new a starts from
nothing. The plans show exactly that, the commits hold exactly that, and undo puts the index
back entry for entry (the rename staged, an intent-to-add a kept as one).
"""

from __future__ import annotations

import pytest

from segmint_core.apply.states import renamed_away, start_path
from segmint_core.session.planner import layered_files
from segmint_core.session.session import Session
from tests.support.groups import one_group_per_hunk
from tests.support.repo import Repo

OLD = "one\ntwo\nthree\n"


def renamed_then_edited(repo: Repo, new_a: str) -> Session:
    repo.write("a", OLD)
    repo.write("other", "x\n")
    repo.commit("base")
    repo.git("mv", "a", "b")
    repo.write("b", OLD + "four\n")
    repo.write("a", "new a\n")
    if new_a == "intent-to-add":
        repo.git("add", "-N", "a")
    elif new_a == "staged-then-edited":
        repo.git("add", "a")
        repo.write("a", "new a\nmore\n")
    session = Session.open(str(repo.path))
    one_group_per_hunk(session)
    return session


def tree_of(repo: Repo, rev: str) -> dict[str, str]:
    names = repo.git("ls-tree", "-r", "--name-only", rev).split()
    return {name: repo.git("show", f"{rev}:{name}") for name in names}


@pytest.mark.parametrize("new_a", ["untracked", "intent-to-add"])
def test_the_new_file_at_a_renamed_path_starts_from_nothing(repo: Repo, new_a: str) -> None:
    session = renamed_then_edited(repo, new_a)
    by_path = {c.file_path: c for c in session.changes}
    assert (by_path["b"].old_path, by_path["b"].status, by_path["a"].old_path) == ("a", "renamed", None)
    assert [h.lines for h in by_path["b"].hunks] == [[" one", " two", " three", "+four"]], "b's lines over HEAD's a"
    assert [h.lines for h in by_path["a"].hunks] == [["+new a"]], "the new a over nothing"
    before = repo.snapshot()
    base = repo.head()

    plans = session.propose_commits()
    assert [[session.units.change_of(h).file_path for h in p.hunk_ids] for p in plans] == [["b"], ["a"]], (
        "the rename first: the new a needs HEAD's a gone"
    )
    session.apply_all()
    assert tree_of(repo, "HEAD~1") == {"b": OLD + "four\n", "other": "x\n"}
    assert repo.git("diff", "--name-status", "-M", f"{base}", "HEAD~1").split()[1:] == ["a", "b"], "a rename"
    assert tree_of(repo, "HEAD") == {"a": "new a\n", "b": OLD + "four\n", "other": "x\n"}
    assert repo.git("status", "--porcelain") == ""
    assert repo.snapshot()["files"] == before["files"]

    while session.applied:
        session.undo()
    assert repo.snapshot() == before, "undo puts HEAD and every index entry back as they were"


def test_layered_files_and_the_commit_read_the_same_base(repo: Repo) -> None:
    """Where a rename takes HEAD's file away, both read nothing there; elsewhere, HEAD's file at the
    old path of a rename, or at the change's own path."""
    session = renamed_then_edited(repo, "staged-then-edited")
    changes = session.units.changeset.changes
    away = renamed_away(changes)
    starts = {c.file_path: start_path(c, away) for c in changes}
    layered = layered_files(session.units, session.git)
    for change in changes:
        if change.id in layered:
            start = starts[change.file_path]
            head = repo.git_bytes("show", f"HEAD:{start}", check=False) if start else b""
            assert layered[change.id].materialize(set()) == head, change.file_path
    session.propose_commits()
    before = repo.snapshot()
    session.apply_all()
    assert repo.git("status", "--porcelain") == ""
    assert tree_of(repo, "HEAD")["a"] == "new a\nmore\n" and tree_of(repo, "HEAD")["b"] == OLD + "four\n"
    while session.applied:
        session.undo()
    assert repo.snapshot() == before
