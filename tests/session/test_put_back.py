"""A file staged and then put back in the work tree as HEAD has it: nothing to commit, no plan."""

from __future__ import annotations

import pytest

from segmint_core.errors import RefusedError
from tests.session.conftest import open_session
from tests.support.repo import Repo


def staged_then_put_back(repo: Repo) -> None:
    repo.write("kept.txt", "one\ntwo\n")
    repo.write("work.py", "x = 1\n")
    repo.commit("base")
    repo.write("kept.txt", "one\nTWO\n")
    repo.add("kept.txt")
    repo.write("kept.txt", "one\ntwo\n")  # the work tree is HEAD's again; the index still has TWO
    repo.write("new.txt", "new\n")
    repo.add("new.txt")
    repo.delete("new.txt")  # added, then deleted: nothing either
    repo.write("work.py", "x = 2\n")


def test_a_file_staged_then_put_back_gets_no_plan_and_does_not_block_the_others(repo: Repo) -> None:
    staged_then_put_back(repo)
    session = open_session(repo)
    session.regroup()
    for change in session.changes:  # each file in a group of its own
        session.move_hunks([change.id], new_group=True)
    plans = session.propose_commits()
    assert [session.parts(p.hunk_ids, p.change_ids)[0][0].file_path for p in plans] == ["work.py"]
    nothing = [u for u in session.unplanned() if u.nothing]
    assert sorted(p for u in nothing for p in u.paths) == ["kept.txt", "new.txt"]
    assert "git restore --staged" in nothing[0].sentence
    session.apply_all()
    assert repo.git("show", "HEAD:work.py") == "x = 2\n"
    assert len(session.plans) == 1 and session.plans[0].status == "applied"


def test_a_conflicted_file_is_not_taken_for_one_put_back(repo: Repo) -> None:
    # A merge stopped on a conflict: git's diffs of the file carry no object ids, which
    # must not read as "staged, then put back" (whose advice, `git restore --staged`,
    # would throw the conflict's stages away). The apply names the merge instead.
    repo.write("a.txt", "".join(f"{i}\n" for i in range(1, 11)))
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "other")
    repo.write("a.txt", repo.read("a.txt").replace(b"5\n", b"five\n"))
    repo.commit("other")
    repo.git("checkout", "-q", "main")
    repo.write("a.txt", repo.read("a.txt").replace(b"5\n", b"FIVE\n"))
    repo.commit("main")
    repo.git("merge", "-q", "other", check=False)
    before = repo.snapshot()
    session = open_session(repo)
    session.propose_commits()
    assert not [u for u in session.unplanned() if u.nothing]
    assert "git restore --staged" not in " ".join(u.sentence for u in session.unplanned())
    with pytest.raises(RefusedError, match="a merge is in progress"):
        session.apply_all()
    assert repo.snapshot() == before
