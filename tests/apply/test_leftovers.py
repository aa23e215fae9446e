"""``apply --all`` in the work tree commits what its own commits leave behind: committing a hunk part
by part makes git line what is left up anew (a blank line placed elsewhere, a later part's plan out of
date). Real histories, laid out as uncommitted work; the tree committed is the one planned, nothing is
left, and one undo takes the whole batch back without touching the work tree."""

from __future__ import annotations

import subprocess

import pytest

from tests.conftest import SHARED_DATA
from tests.support.cli import run_segmint
from tests.support.repo import Repo


def uncommitted(tmp_path, name: str, tip: str) -> Repo:
    """A clone of the real history at ``tip``'s parent, with ``tip``'s change uncommitted."""
    bundle = SHARED_DATA / f"{name}.bundle"
    if not bundle.exists():
        pytest.skip(f"needs {bundle} (real history)")
    path = tmp_path / name
    subprocess.run(["git", "clone", "-q", str(bundle), str(path)], check=True)
    repo = Repo(path, init=False)
    repo.git("checkout", "-q", "-B", "work", f"{tip}^")
    repo.git("read-tree", "-u", "--reset", tip)  # the files as at the tip
    repo.git("read-tree", f"{tip}^")  # the index as at its parent
    return repo


@pytest.mark.parametrize(
    "name, tip",
    [
        ("click", "0859d19c5b29ac9cf2895e06e91312b627e6e692"),  # a blank line git places elsewhere
        ("fd", "4fea5f3a"),  # the second part's plan out of date once the first is committed
    ],
)
def test_apply_all_commits_what_its_own_commits_leave_so_the_tree_is_the_planned_one(tmp_path, name, tip) -> None:
    repo = uncommitted(tmp_path, name, tip)
    base = repo.head()
    planned = repo.git("rev-parse", f"{tip}^{{tree}}")
    assert run_segmint("plan", cwd=repo.path).returncode == 0
    done = run_segmint("apply", "--all", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert "Not committed" not in done.stdout
    assert repo.git("rev-parse", "HEAD^{tree}") == planned
    assert repo.git("status", "--porcelain") == ""
    assert int(repo.git("rev-list", "--count", f"{base}..HEAD")) >= 2, "committed in parts"
    undone = run_segmint("undo", cwd=repo.path)
    assert undone.returncode == 0, undone.stderr
    assert repo.head() == base, "one undo takes the whole batch back"
    assert repo.git("diff", tip, "--stat") == "", "the work tree still holds the change"
