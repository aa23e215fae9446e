"""Running children: started first, their output collected later."""

from __future__ import annotations

import shutil

import pytest

from segmint_core.errors import GitCommandError
from segmint_core.git import Git
from segmint_core.proc import Collector, start_all
from tests.support.repo import Repo


class Upper(Collector):
    def feed(self, chunk: bytes) -> None:
        super().feed(chunk.upper())


def test_collectors_chosen_after_the_start_see_all_output() -> None:
    sh = shutil.which("sh")
    started = start_all([[sh, "-c", "printf one"], [sh, "-c", "printf two; exit 3"]], env={})
    first, second = started.finish([Upper(), None])
    assert (first.returncode, first.stdout) == (0, b"ONE")
    assert (second.returncode, second.stdout) == (3, b"two")


def test_pending_git_run_raises_unless_allowed_to_fail(repo: Repo) -> None:
    git = Git.discover(repo.path)
    with pytest.raises(GitCommandError, match="rev-parse"):
        git.start_many(("rev-parse", "--verify", "--quiet", "no-such-ref")).finish()
    (result,) = git.start_many(("rev-parse", "--verify", "--quiet", "no-such-ref"), may_fail=(0,)).finish()
    assert result.returncode != 0
