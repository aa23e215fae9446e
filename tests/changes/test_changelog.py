"""A changelog's added lines read as entries: each entry's lines, and the pull request it names."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from segmint_core.changes.changelog import changelog_entry, entry_lines, entry_reference
from segmint_core.changes.kinds import is_doc_path
from segmint_core.planning.facts import is_changelog
from tests.support.examples import examples


def test_each_bulleted_entry_keeps_its_wrapped_lines() -> None:
    added = ["- Forward PAGER's parameters to", "  the pager.", "- Improve raw mode detection.", "", "Version 2"]
    assert entry_lines(added) == [
        ["- Forward PAGER's parameters to", "  the pager."],
        ["- Improve raw mode detection."],
    ]


def test_lines_with_no_list_item_are_no_entries() -> None:
    assert entry_lines(["Fixed the pager.", "Thanks to everyone."]) == []


def test_the_pull_request_is_named_before_the_issue() -> None:
    assert entry_reference(["-   Fix a rare race.", "    :issue:`2993` :pr:`2991`"]) == "#2991"
    assert entry_reference(["- Improve raw mode detection. {issue}`3416`"]) == "#3416"
    assert entry_reference(["* Fixed the pager (#12)"]) == "#12"


def test_an_entry_naming_nothing_has_no_reference() -> None:
    assert entry_reference(["* Colours as &#123; in HTML", "* see docs/#install"]) is None


def test_an_entry_ends_with_no_comma_its_references_left_behind() -> None:
    lines = ["-   Always return one of the passed choices for ``click.Choice``", "    :issue:`1277`, :pr:`1318`"]
    assert changelog_entry(lines) == "Always return one of the passed choices for ``click.Choice``"


def test_the_brackets_of_references_go_and_a_call_keeps_its_own() -> None:
    assert changelog_entry(["- `echo()` no longer flushes the stream when there is nothing to write."]) == (
        "`echo()` no longer flushes the stream when there is nothing to write"
    )
    assert changelog_entry(["- Fix the parser (:issue:`123`, :pr:`45`)"]) == "Fix the parser"
    assert changelog_entry(["- Call foo() less often (#12)"]) == "Call foo() less often"


def test_the_word_that_led_in_to_a_reference_goes_with_it() -> None:
    # click's "Fix Fish shell completion broken in `8.4.0` by {pr}`3126`." read "... by"
    assert changelog_entry(["- Fix Fish shell completion broken in `8.4.0` by {pr}`3126`."]) == (
        "Fix Fish shell completion broken in `8.4.0`"
    )
    assert changelog_entry(["- Complete the partial fix from {pr}`3527`."]) == "Complete the partial fix"


def test_a_fence_or_a_directive_is_no_words_of_an_entry() -> None:
    # click's docs/changes.md swapped ``.. include:: ../CHANGES.rst`` for ```` ```{include} ../CHANGES.md ````
    assert changelog_entry(["```{include} ../CHANGES.md", "```"]) is None
    assert changelog_entry([".. include:: ../CHANGES.rst"]) is None


def test_an_abbreviations_stop_ends_no_sentence() -> None:
    # black's entry was cut to "... version specifiers (e.g"
    lines = ["- Update GitHub Action to support version specifiers (e.g. `<23`) for Black (#3265)"]
    assert changelog_entry(lines) == "Update GitHub Action to support version specifiers (e.g. `<23`) for Black"
    assert changelog_entry(["- Fixed the pager. Also the prompt."]) == "Fixed the pager"


def test_a_paragraph_indented_after_a_blank_line_is_no_entry() -> None:
    # python-semantic-release's changelog: "* docs: clarify ...", a blank line, "  Resolves: #907"
    added = ["* docs(github-actions): clarify the usage docs (#1011)", "", "  Resolves: #907", "", "* chore: tidy"]
    assert entry_lines(added) == [["* docs(github-actions): clarify the usage docs (#1011)"], ["* chore: tidy"]]


def test_a_module_named_for_a_changelog_is_code_not_a_changelog_page() -> None:
    # python-semantic-release's cli/commands/changelog.py was read as a changelog, its code as entries
    assert is_doc_path("CHANGES.rst") and is_doc_path("HISTORY") and is_doc_path("docs/changelog.md")
    assert not is_doc_path("semantic_release/cli/commands/changelog.py")
    assert not is_doc_path("src/history.ts") and not is_changelog("semantic_release/cli/commands/changelog.py")
    assert is_changelog("CHANGELOG.md") and is_changelog("History.md")


def test_a_restructuredtext_link_reads_as_its_text_and_an_issue_link_as_nothing() -> None:
    # pluggy's towncrier entries open on a link to their issue: the entry read "` <https://...>`_: A warning"
    issue = "`#463 <https://github.com/pytest-dev/pluggy/issues/463>`_"
    assert changelog_entry([f"- {issue}: Warn when a hookwrapper raises."]) == "Warn when a hookwrapper raises"
    assert changelog_entry(["- See `the docs <https://x.org/a>`__ for the details."]) == "See the docs for the details"


def test_an_issue_label_leading_an_entry_reads_as_nothing_and_a_named_reference_as_its_text() -> None:
    # pathspec's "- `Issue #84`_: PathSpec.match_file() ..." read "`Issue `_: PathSpec.match_file() ..."
    said = "PathSpec.match_file() returns None since 0.12.0"
    assert changelog_entry([f"- `Issue #84`_: {said}."]) == said
    assert changelog_entry([f"- Issue #84: {said}."]) == said
    assert changelog_entry(["- Fix `the parser`_ on empty input."]) == "Fix the parser on empty input"
    assert changelog_entry(["- Fixes issue #12 in the parser."]) == "Fixes issue in the parser"  # no label


def test_a_role_reads_as_sphinx_shows_it() -> None:
    titled = "- Add :func:`PluginManager.unblock <pluggy.PluginManager.unblock>` to unblock a plugin."
    assert changelog_entry([titled]) == "Add `PluginManager.unblock` to unblock a plugin"
    assert changelog_entry(["- Fix :func:`~pluggy.HookCaller.call_extra` ordering."]) == "Fix `call_extra` ordering"


def test_markdown_references_to_an_issue_and_a_handle_read_as_keep_a_changelog_means_them() -> None:
    # python-dotenv 1.0.1: "([#466] by [@eumiro])" read "( by [@eumiro])", and its links' definitions as an entry
    entry = ["* Use pathlib.Path in tests ([#466] by [@eumiro])"]
    assert changelog_entry(entry) == "Use pathlib.Path in tests (by @eumiro)"
    assert changelog_entry(entry, credits=False) == "Use pathlib.Path in tests"
    assert changelog_entry(["[#466]: https://github.com/theskumar/python-dotenv/issues/466"]) is None
    assert changelog_entry(["[@eumiro]: https://github.com/eumiro", "[@bob]: https://github.com/bob"]) is None


def test_a_cross_reference_role_reads_as_its_words_and_a_code_role_as_code() -> None:
    entry = ["- Add :func:`unblock <pluggy.PluginManager.unblock>`, see :ref:`blocking plugins <blocking>`."]
    assert changelog_entry(entry) == "Add `unblock`, see blocking plugins"


def test_the_word_naming_a_reference_taken_out_goes_with_it() -> None:
    # build 1.2.0's entries ended "(PR :pr:`752`)" and read "(PR )"
    assert changelog_entry(["- Avoid compiling unused bytecode when using `pip` (PR :pr:`752`)"]) == (
        "Avoid compiling unused bytecode when using `pip`"
    )


def test_an_empty_role_reads_as_empty_code() -> None:
    # click's history holds a MyST role with nothing inside: the messages bench stopped on it
    assert changelog_entry(["- Fix {func}`` and :meth:`run` handling."]) == "Fix `` and `run` handling"


# The pieces entries are written with: roles, links, references, credits, code spans, brackets.
PIECES = [
    "{func}",
    ":meth:",
    "`",
    "``",
    "<",
    ">",
    "~",
    "_",
    "__",
    "#12",
    "(",
    ")",
    "[",
    "]",
    "@bob",
    "https://x.org",
    " ",
    "Fix",
    "the",
    "pager",
    ".",
    ",",
    ":",
    "-",
    "* ",
    "\n",
    "by",
    "see",
]


@settings(max_examples=examples(300))
@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=20).map("".join), min_size=1, max_size=4))
def test_any_markup_reads_as_an_entry_or_none(lines: list[str]) -> None:
    entry = changelog_entry(lines)
    assert entry is None or "\n" not in entry
