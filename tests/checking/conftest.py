from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from segmint_core.session.session import Session
from tests.support.repo import Repo

CORE = "def base():\n    return 1\n"
CORE_AFTER = CORE + "\n\ndef double_value(x):\n    return 2 * x\n"
APP = "from pkg.core import base\n\n\ndef run():\n    return base()\n"
APP_AFTER = (
    "from pkg.core import base, double_value\n\n\ndef run():\n    return base()\n\n\n"
    "def run_twice():\n    return double_value(run())\n"
)
TEST = "from pkg.app import run\n\n\ndef test_run():\n    assert run() == 1\n"


@pytest.fixture(autouse=True)
def _this_python_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """``python`` in a check command is the one running the tests (it has pytest)."""
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))


def user_before_definer(repo: Repo, pyproject: str | None = None) -> Session:
    """A package whose app gains ``run_twice`` using ``double_value``, which core gains: each edit a plan
    of its own, the app's first (commit 1 uses what commit 2 defines)."""
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/core.py", CORE)
    repo.write("pkg/app.py", APP)
    repo.write("tests/test_app.py", TEST)
    if pyproject is not None:
        repo.write("pyproject.toml", pyproject)
    repo.commit("base")
    repo.write("pkg/core.py", CORE_AFTER)
    repo.write("pkg/app.py", APP_AFTER)
    return split_by_file(repo)


def split_by_file(repo: Repo) -> Session:
    session = Session.open(str(repo.path))
    session.regroup()
    ids = [h.id for c in session.changes for h in c.hunks]
    session.move_hunks(ids, to_group_id=session.groups[0].id)
    for change in session.changes[1:]:
        session.move_hunks([h.id for h in change.hunks], new_group=True)
    session.propose_commits()
    order = sorted((p for p in session.plans), key=lambda p: p.hunk_ids[0])  # change-1 (pkg/app.py) first
    session.reorder_commits([p.id for p in order])
    return session


def state_of(repo: Repo) -> dict:
    """The work tree's files (bytes and modes), the index file, HEAD and every ref: what a check never touches."""
    files = {}
    for path in sorted(repo.path.rglob("*")):
        rel = path.relative_to(repo.path)
        if rel.parts[0] == ".git" or not path.is_file():
            continue
        files[str(rel)] = (path.read_bytes(), path.stat().st_mode)
    git = repo.path / ".git"
    return {
        "files": files,
        "index": (git / "index").read_bytes() if (git / "index").exists() else None,
        "HEAD": (git / "HEAD").read_bytes(),
        "refs": repo.git("show-ref"),
        "head": repo.git("rev-parse", "HEAD"),
    }


def scratch_left(repo: Repo) -> list[str]:
    folder = Path(repo.path) / ".git" / "segmint" / "check"
    return sorted(p.name for p in folder.glob("tree-*")) if folder.exists() else []
