"""A page that gains commands to run gains instructions, as engineers call them."""

from __future__ import annotations

from tests.support.repo import Repo
from tests.support.titles import titled

README = "# fd\n\n## Install\nWith cargo you can build it with\n```\ncargo build --release\n```\n\n## License\nMIT\n"


def test_an_install_command_added_is_install_instructions(repo: Repo) -> None:
    after = README.replace("cargo build --release\n", "cargo build --release\ncargo install fd-find\n")
    facts, title = titled(repo, "README.md", README, after)
    assert facts.prose is not None and facts.prose.instructions == "install instructions"
    assert title.endswith("add fd-find install instructions to README.md"), title


def test_a_fenced_block_of_settings_added_is_instructions(repo: Repo) -> None:
    vim = "\nFor Vim, put this in your `.vimrc`:\n```\nautocmd BufWritePre *.py execute ':Black'\n```\n"
    facts, title = titled(repo, "README.md", README, README + vim)
    assert facts.prose is not None and facts.prose.instructions == "instructions"
    assert "instructions" in title


def test_prose_alone_added_is_no_instructions(repo: Repo) -> None:
    facts, title = titled(repo, "README.md", README, README.replace("MIT\n", "MIT, see LICENSE.txt\n"))
    assert facts.prose is None or facts.prose.instructions is None
    assert "instructions" not in title
