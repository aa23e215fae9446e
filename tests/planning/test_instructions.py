"""A page that gains commands to run gains instructions, as engineers call them."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.writer import read_plan
from tests.support.repo import Repo

README = "# fd\n\n## Install\nWith cargo you can build it with\n```\ncargo build --release\n```\n\n## License\nMIT\n"


def _titled(repo: Repo, before: str, after: str):
    repo.write("README.md", before)
    repo.commit()
    repo.write("README.md", after)
    parts = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    return read_plan(parts)[0], offline_message(parts).title


def test_an_install_command_added_is_install_instructions(repo: Repo) -> None:
    after = README.replace("cargo build --release\n", "cargo build --release\ncargo install fd-find\n")
    facts, title = _titled(repo, README, after)
    assert facts.prose is not None and facts.prose.instructions == "install instructions"
    assert title.endswith("add fd-find install instructions to README.md"), title


def test_a_fenced_block_of_settings_added_is_instructions(repo: Repo) -> None:
    vim = "\nFor Vim, put this in your `.vimrc`:\n```\nautocmd BufWritePre *.py execute ':Black'\n```\n"
    facts, title = _titled(repo, README, README + vim)
    assert facts.prose is not None and facts.prose.instructions == "instructions"
    assert "instructions" in title


def test_prose_alone_added_is_no_instructions(repo: Repo) -> None:
    facts, title = _titled(repo, README, README.replace("MIT\n", "MIT, see LICENSE.txt\n"))
    assert facts.prose is None or facts.prose.instructions is None
    assert "instructions" not in title
