"""A change made in a real repository, read as the planner reads it: its facts and its title."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.facts import Facts
from segmint_core.planning.writer import read_plan
from tests.support.repo import Repo


def edited(repo: Repo, files: dict[str, tuple[str, str]]) -> tuple[Facts, str]:
    """Commit each file's text before, write its text after; what the planner reads from that
    change and the title it writes offline."""
    for path, (before, _) in files.items():
        repo.write(path, before)
    repo.commit()
    for path, (_, after) in files.items():
        repo.write(path, after)
    parts = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    return read_plan(parts)[0], offline_message(parts).title


def titled(repo: Repo, path: str, before: str, after: str) -> tuple[Facts, str]:
    """``edited`` for one file."""
    return edited(repo, {path: (before, after)})
