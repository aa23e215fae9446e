"""A docs heading reworded renames a section; it documents nothing new."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.writer import read_plan
from tests.support.repo import Repo

README = "# fd\n\n### Running *fd* without any arguments\n\n*fd* can be called with no arguments.\n"


def _titled(repo: Repo, before: str, after: str):
    repo.write("README.md", before)
    repo.commit()
    repo.write("README.md", after)
    parts = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    return read_plan(parts)[0], offline_message(parts).title


def test_a_heading_reworded_renames_the_section(repo: Repo) -> None:
    after = README.replace("Running *fd* without any arguments", "List all files")
    facts, title = _titled(repo, README, after)
    assert facts.retitled == [("Running *fd* without any arguments", "List all files")]
    assert "document" not in title.lower()
    assert "rename section" in title, title


def test_a_heading_and_its_text_changed_or_a_heading_added_is_no_rename(repo: Repo) -> None:
    after = README.replace("Running *fd* without any arguments", "List all files").replace("called", "run")
    facts, _ = _titled(repo, README, after)
    assert facts.retitled == []
    facts, _ = _titled(repo, README, README + "\n### Excluding files\n")
    assert facts.retitled == []
