"""Code commented out is disabled, and named by what it is; trailing blanks removed are said so."""

from __future__ import annotations

from tests.support.repo import Repo
from tests.support.titles import titled

TRAVIS = """matrix:
  include:
    # Code formatting check
    - os: linux
      script: cargo fmt -- --write-mode=diff
    - os: linux
      rust: nightly
"""
BLOCK = TRAVIS.splitlines()[2:5]


def _commented(text: str, lines: list[str], marker: str = "# ") -> str:
    for line in lines:
        text = text.replace(line + "\n", marker + line + "\n")
    return text


def test_a_block_commented_out_is_disabled_by_its_own_comment(repo: Repo) -> None:
    facts, title = titled(repo, ".travis.yml", TRAVIS, _commented(TRAVIS, BLOCK))
    assert facts.commented is not None and facts.commented.disabled
    assert title.endswith("disable code formatting check in .travis.yml"), title


def test_a_function_commented_back_in_is_enabled_and_an_edit_beside_it_is_not_hidden(repo: Repo) -> None:
    code = "package cli\n\nfunc Run() {\n\tstart()\n}\n\nfunc Stop() {\n\tend()\n}\n"
    lines = ["func Stop() {", "\tend()", "}"]
    off = _commented(code, lines, "// ")
    _, title = titled(repo, "cli/run.go", off, code)
    assert title.endswith("enable Stop in run.go"), title
    facts, _ = titled(repo, "cli/run.go", code, off.replace("\tstart()", "\tstart(ctx)"))
    assert facts.commented is None


def test_comments_reworded_are_not_code_commented_out(repo: Repo) -> None:
    code = "def run():\n    # start it\n    return 1\n"
    facts, _ = titled(repo, "app/run.py", code, code.replace("# start it", "# # start it"))
    assert facts.commented is None


def test_trailing_blanks_removed_are_said_so(repo: Repo) -> None:
    text = "# Examples\n\nRun it so. \nOr so.\t\n"
    facts, title = titled(repo, "README.md", text, "# Examples\n\nRun it so.\nOr so.\n")
    assert facts.trailing_spaces
    assert title.endswith("remove trailing whitespace from README.md"), title
    facts, _ = titled(repo, "README.md", text, "# Examples\n\nRun it so.\nOr so, too.\n")
    assert not facts.trailing_spaces
