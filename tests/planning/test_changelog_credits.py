"""A changelog entry titled by its own words: the people it credits and the issues it cites left out."""

from __future__ import annotations

import pytest

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.credits import uncredited
from segmint_core.planning.style import DEFAULT, HouseStyle, house_style
from tests.support.repo import Repo

CHANGELOG = "# Changelog\n\n## Unreleased\n\n- Read the settings file once.\n"


def add_entry(repo: Repo, entry: str, plain_commits: int = 0) -> HouseStyle:
    """The changelog committed (after ``plain_commits`` plain-style ones), then ``entry`` added to it."""
    repo.write("CHANGELOG.md", CHANGELOG)
    repo.commit("Start the changelog")
    for n in range(plain_commits):
        repo.write(f"notes/{n}.txt", f"{n}\n")
        repo.commit(f"Add note number {n}")
    repo.write("CHANGELOG.md", CHANGELOG.replace("- Read", f"{entry}\n- Read"))
    git = Git.discover(repo.path)
    return house_style(git) if plain_commits else DEFAULT


def title_of(repo: Repo, style: HouseStyle) -> str:
    git = Git.discover(repo.path)
    return offline_message([(c, c.hunks) for c in capture(git).changes], style=style).title


CREDITED = [
    "- Fix crash when the config file is empty. (#123) @alice @bob",
    "- Fix crash when the config file is empty (#123) by @alice, @bob and @carol",
    "- Fix crash when the config file is empty ([#123](https://github.com/o/r/pull/123)). Thanks @alice!",
    "- Fix crash when the config file is empty (@alice)",
]


@pytest.mark.parametrize("entry", CREDITED)
def test_a_credited_entry_is_titled_by_its_words_in_a_conventional_house(repo: Repo, entry: str) -> None:
    title = title_of(repo, add_entry(repo, entry))
    assert title == 'docs(changelog): add "Fix crash when the config file is empty"'


@pytest.mark.parametrize("entry", CREDITED)
def test_a_credited_entry_is_titled_by_its_words_in_a_plain_house(repo: Repo, entry: str) -> None:
    title = title_of(repo, add_entry(repo, entry, plain_commits=12))
    assert title == 'Add "Fix crash when the config file is empty" to CHANGELOG.md'


@pytest.mark.parametrize("entry", ["- Thanks to @x and @y", "- @alice @bob (#12)"])
def test_an_entry_of_credits_alone_takes_the_usual_changelog_title(repo: Repo, entry: str) -> None:
    assert title_of(repo, add_entry(repo, entry)) == "docs(changelog): update CHANGELOG.md"
    assert "@" not in title_of(repo, house_style(Git.discover(repo.path)))


def test_a_handle_that_is_the_subject_stays() -> None:
    """A decorator or a scoped package is what the entry is about, not whom it thanks."""
    assert uncredited("- Support @dataclass fields (@bob)") == "- Support @dataclass fields"
    assert uncredited("- Bump @types/node to 20 by @renovate") == "- Bump @types/node to 20"
    assert uncredited("- Fix a crash with @dataclass") == "- Fix a crash with @dataclass"


def test_a_line_of_hundreds_of_handles_or_spaces_is_read_whole() -> None:
    # Nested quantifiers once tried every shorter run of handles and spaces: the first line alone,
    # 600 characters, took minutes; each is now read in a moment.
    from segmint_core.planning.credits import uncredited

    many = "@a " * 300 + "!x"
    assert uncredited(many) == many.rstrip()
    assert uncredited("@a" + " " * 900 + "x") == "@a" + " " * 900 + "x"
    assert uncredited("Fix. " + "@a @b " * 150 + "#12") == "Fix."
    assert uncredited("- Fix foo, thanks to " + "@a, " * 200 + "@b") == "- Fix foo"


def test_a_call_s_brackets_are_no_empty_brackets_left_by_a_reference() -> None:
    # "Fix `call_extra()` ordering" titled "Fix `call_extra` ordering"
    assert uncredited("- Fix `call_extra()` ordering (#441) (@bob)") == "- Fix `call_extra()` ordering"
    assert uncredited("- Fix echo() on Windows ( #12 )") == "- Fix echo() on Windows"
