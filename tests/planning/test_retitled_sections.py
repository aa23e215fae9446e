"""A docs heading reworded renames a section; it documents nothing new."""

from __future__ import annotations

from tests.support.repo import Repo
from tests.support.titles import titled

README = "# fd\n\n### Running *fd* without any arguments\n\n*fd* can be called with no arguments.\n"


def test_a_heading_reworded_renames_the_section(repo: Repo) -> None:
    after = README.replace("Running *fd* without any arguments", "List all files")
    facts, title = titled(repo, "README.md", README, after)
    assert facts.retitled == [("Running fd without any arguments", "List all files")]
    assert "document" not in title.lower()
    assert "rename section" in title, title


def test_a_heading_and_its_text_changed_or_a_heading_added_is_no_rename(repo: Repo) -> None:
    after = README.replace("Running *fd* without any arguments", "List all files").replace("called", "run")
    facts, _ = titled(repo, "README.md", README, after)
    assert facts.retitled == []
    facts, _ = titled(repo, "README.md", README, README + "\n### Excluding files\n")
    assert facts.retitled == []
