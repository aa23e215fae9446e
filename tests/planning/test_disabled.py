"""Trailing blanks removed are said so."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.writer import read_plan
from tests.support.repo import Repo


def _titled(repo: Repo, path: str, before: str, after: str):
    repo.write(path, before)
    repo.commit()
    repo.write(path, after)
    parts = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    return read_plan(parts)[0], offline_message(parts).title


def test_trailing_blanks_removed_are_said_so(repo: Repo) -> None:
    text = "# Examples\n\nRun it so. \nOr so.\t\n"
    facts, title = _titled(repo, "README.md", text, "# Examples\n\nRun it so.\nOr so.\n")
    assert facts.trailing_spaces
    assert title.endswith("remove trailing whitespace from README.md"), title
    facts, _ = _titled(repo, "README.md", text, "# Examples\n\nRun it so.\nOr so, too.\n")
    assert not facts.trailing_spaces
