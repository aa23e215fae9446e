"""The zero-config check's file checks: Python that compiles only with a later commit, JavaScript by node."""

from __future__ import annotations

import json
import shutil

import pytest

from segmint.cli import main
from segmint_core.checking.static import FileChecks
from segmint_core.git import Git
from segmint_core.session.session import Session
from tests.support.repo import Repo

FILLER = "".join(f"    {n},\n" for n in range(3, 20))


def test_a_python_file_that_compiles_only_with_a_later_commit_fails_the_earlier_one(repo: Repo, capsys) -> None:
    repo.write("numbers.py", "a = 1\n" + FILLER + "b = 2\n")
    repo.commit("base")
    repo.write("numbers.py", "a = (1,\n" + FILLER + "    2)\nb = 2\n")  # two hunks: the opening, the closing
    session = Session.open(str(repo.path))
    session.regroup()
    hunks = [h.id for c in session.changes for h in c.hunks]
    assert len(hunks) == 2
    session.move_hunks([hunks[1]], new_group=True)
    session.move_hunks([hunks[0]], to_group_id=session.groups[0].id)
    session.propose_commits()
    order = sorted(session.plans, key=lambda p: p.hunk_ids[0])
    session.reorder_commits([p.id for p in order])
    assert main(["--repo", str(repo.path), "check", "--json"]) == 1
    first, second = json.loads(capsys.readouterr().out)["commits"]
    assert first["status"] == "failed" and first["output"].startswith("numbers.py:1: SyntaxError:")
    assert second["status"] == "passed"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on the PATH")
def test_node_checks_javascript(repo: Repo, tmp_path) -> None:
    repo.write("a.js", "x\n")
    repo.commit("base")
    checks = FileChecks(Git(str(repo.path)), tmp_path)
    assert checks.error("a.js", "1", b"function ok() { return 1 }\n") is None
    said = checks.error("a.js", "2", b"function broken( {\n")
    assert said is not None and said.startswith("a.js: ") and "SyntaxError" in said
