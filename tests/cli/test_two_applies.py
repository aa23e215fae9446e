"""Two `segmint apply --all` started together: one commits, the other is refused or finds nothing left.

Every plan is committed exactly once, the session's record of HEAD never goes back, and the
next `plan` and `apply` work without `--new`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from segmint_core.session.session import Session
from tests.support.cli import run_segmint
from tests.support.repo import Repo
from tests.tui.support import write_demo

STARTS = 10  # pairs of applies per delay


@pytest.fixture(scope="module")
def planned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository with three plans, copied for each pair (planning once keeps the test short)."""
    repo = write_demo(Repo(tmp_path_factory.mktemp("planned") / "repo"))
    assert run_segmint("plan", cwd=repo.path).returncode == 0
    return repo.path


def start_apply(cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "segmint", "apply", "--all"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 0.010, 0.050])
def test_two_applies_at_once_commit_each_plan_once(planned: Path, tmp_path: Path, delay: float) -> None:
    titles = [p.title for p in Session.open(str(planned)).plans]
    for n in range(STARTS):
        repo = Repo(tmp_path / f"run-{n}", init=False)
        shutil.copytree(planned, repo.path, symlinks=True)
        base = repo.head()
        first = start_apply(repo.path)
        time.sleep(delay)
        second = start_apply(repo.path)
        outcomes = [(p.wait(timeout=120), *p.communicate()) for p in (first, second)]
        codes = sorted(code for code, _, _ in outcomes)
        assert codes == [0, 2], outcomes
        refused = next(err for code, _, err in outcomes if code == 2)
        assert any(s in refused for s in ("Another apply is running", "nothing to commit", "Nothing left")), refused
        assert "Traceback" not in refused
        assert repo.git("log", "--format=%s", f"{base}..").splitlines() == titles[::-1], "each plan once, in order"
        assert repo.status() == ""
        session = Session.open(str(repo.path))
        assert session.state.head == repo.head(), "the session's record of HEAD follows the commits"
        assert {p.status for p in session.plans} == {"applied"} and not any(p.stale for p in session.plans)
    repo.write("NOTES.md", "Written after the two applies.\n")
    assert run_segmint("plan", cwd=repo.path).returncode == 0, "planned again without --new"
    applied = run_segmint("apply", "--all", cwd=repo.path)
    assert applied.returncode == 0, applied.stderr
    assert repo.status() == ""
