"""A docs edit whose every line is a badge is titled by the badges; a changelog line that only
gains a reference to a pull request or an issue is titled by the reference."""

from __future__ import annotations

import time

from segmint_core.planning.prose import read_edit
from tests.support.repo import Repo
from tests.support.titles import edited, titled

GODOC = "[![GoDoc](https://godoc.org/github.com/x/y?status.svg)](https://godoc.org/github.com/x/y)\n"
GOREF = "[![Go Reference](https://pkg.go.dev/badge/github.com/x/y.svg)](https://pkg.go.dev/github.com/x/y)\n"
CI = "[![CI](https://github.com/x/y/actions/workflows/ci.yml/badge.svg)](https://github.com/x/y/actions)\n"
PAGE = "# y\n\nA tool.\n\n{badges}\n## Install\n\nRun it.\n"


def test_a_badge_swapped_for_another_is_an_updated_badge(repo: Repo) -> None:
    facts, title = edited(repo, {"README.md": (PAGE.format(badges=CI + GODOC), PAGE.format(badges=CI + GOREF))})
    assert facts.prose is not None and facts.prose.badges == (("Go Reference",), ("GoDoc",))
    assert title.endswith("update Go Reference badge in README.md")


def test_badges_added_or_removed_are_named_once_each(repo: Repo) -> None:
    _, title = edited(repo, {"README.md": (PAGE.format(badges=""), PAGE.format(badges=CI))})
    assert title.endswith("add CI badge to README.md")
    twice = GODOC + "\n" + GODOC.replace("x/y", "x/z")
    _, title = edited(repo, {"README.md": (PAGE.format(badges=CI + twice), PAGE.format(badges=CI))})
    assert title.endswith("remove GoDoc badges from README.md")


def test_a_line_beside_the_badge_is_no_badge_edit() -> None:
    edit = read_edit([("README.md", GOREF.strip()), ("README.md", "Now on pkg.go.dev.")], [])
    assert edit is None or edit.badges is None


CHANGES = "Unreleased\n\n-   Drop Python 3.7. :pr:`2588`\n-   Use flit_core as build backend.\n"


def test_a_pull_request_reference_added_to_an_entry_is_named(repo: Repo) -> None:
    after = CHANGES.replace("backend.", "backend. :pr:`2543`")
    facts, title = edited(repo, {"CHANGES.rst": (CHANGES, after)})
    assert facts.prose is not None and facts.prose.references == ("PR 2543",)
    assert title.endswith("add PR 2543 to CHANGES.rst")


def test_issue_numbers_added_are_named_and_a_reworded_entry_is_not_a_reference() -> None:
    edit = read_edit([("CHANGELOG.md", "- Fix the hang (#12, GH-14)")], [("CHANGELOG.md", "- Fix the hang")])
    assert edit is not None and edit.references == ("#12", "GH-14")
    reworded = read_edit([("CHANGELOG.md", "- Fix the deadlock (#12)")], [("CHANGELOG.md", "- Fix the hang")])
    assert reworded is None or not reworded.references
    anchor = read_edit([("a.md", "see https://x.org/#12 here")], [("a.md", "see https://x.org/ here")])
    assert anchor is None or not anchor.references


def test_a_line_of_blanks_is_read_quickly() -> None:
    line = "[![" + " " * 20_000 + "#1 '" + " " * 20_000 + "'"
    start = time.perf_counter()
    read_edit([("README.md", line)], [("README.md", " " * 20_000)])
    assert time.perf_counter() - start < 1.0


INSTALL = "# Install\n\nTo serve it, run `pip install black[d]` to install it.\n"


def test_a_term_put_in_quotes_is_named(repo: Repo) -> None:
    facts, title = edited(repo, {"docs/install.md": (INSTALL, INSTALL.replace("black[d]", "'black[d]'"))})
    assert facts.prose is not None and facts.prose.quoted == ("black[d]",)
    assert title.endswith("quote black[d] in install.md")


def test_a_wrapped_line_still_reads_as_quoting_and_a_reworded_one_does_not() -> None:
    old = [("a.md", "install with `pip install black[jupyter]`.")]
    wrapped = read_edit([("a.md", "install with"), ("a.md", "`pip install 'black[jupyter]'`.")], old)
    assert wrapped is not None and wrapped.quoted == ("black[jupyter]",)
    reworded = read_edit([("a.md", "install it with `pip install 'black[jupyter]'`.")], old)
    assert reworded is None or not reworded.quoted
    assert read_edit([("a.md", "it's the 'one'")], [("a.md", "its the one")]) is None


def test_a_roles_target_mark_is_no_part_of_the_name_it_adds(repo: Repo) -> None:
    # click's docs gained {attr}`~Context.max_content_width` and were titled `Add ~Context.max_content_width`
    before = "Text is wrapped to a maximum of 80 characters.\n"
    after = "Text is wrapped to a maximum of 80 characters, or {attr}`~Context.max_content_width`.\n"
    facts, title = titled(repo, "docs/documentation.md", before, after)
    assert facts.prose is not None and facts.prose.added == ("`Context.max_content_width`",)
    assert "~" not in title and "Context.max_content_width" in title
    assert read_edit([("docs/setup.md", "Edit `~/.config/app.toml` to set it.")], []) is not None
