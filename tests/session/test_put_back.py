"""A file staged and then put back in the work tree as HEAD has it: nothing to commit, no plan."""

from __future__ import annotations

from tests.session.conftest import open_session
from tests.support.repo import Repo


def staged_then_put_back(repo: Repo) -> None:
    repo.write("kept.txt", "one\ntwo\n")
    repo.write("work.py", "x = 1\n")
    repo.commit("base")
    repo.write("kept.txt", "one\nTWO\n")
    repo.add("kept.txt")
    repo.write("kept.txt", "one\ntwo\n")   # the work tree is HEAD's again; the index still has TWO
    repo.write("new.txt", "new\n")
    repo.add("new.txt")
    repo.delete("new.txt")                 # added, then deleted: nothing either
    repo.write("work.py", "x = 2\n")


def test_a_file_staged_then_put_back_gets_no_plan_and_does_not_block_the_others(repo: Repo) -> None:
    staged_then_put_back(repo)
    session = open_session(repo)
    session.regroup()
    for change in session.changes:   # each file in a group of its own
        session.move_hunks([change.id], new_group=True)
    plans = session.propose_commits()
    assert [session.parts(p.hunk_ids, p.change_ids)[0][0].file_path for p in plans] == ["work.py"]
    nothing = [u for u in session.unplanned() if u.nothing]
    assert sorted(p for u in nothing for p in u.paths) == ["kept.txt", "new.txt"]
    assert "git restore --staged" in nothing[0].sentence
    session.apply_all()
    assert repo.git("show", "HEAD:work.py") == "x = 2\n"
    assert len(session.plans) == 1 and session.plans[0].status == "applied"
