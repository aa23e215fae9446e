"""Punctuation alone added or taken out, the code's words in the same order, is said for what
it is; nothing moved, so it is never "rearrange"."""

from __future__ import annotations

import pytest

from tests.support.repo import Repo
from tests.support.titles import titled

RUST = 'fn sizes() {\n    let re: Regex = { Regex::new(r"^(\\d+)$").unwrap() };\n}\n'
GO = "func check(x int) bool {\n\tif (x > 1) {\n\t\treturn true\n\t}\n\treturn false\n}\n"
PY = "def greet(name):\n    return 'hello ' + name\n"
CONFIG = "contact_links:\n  - about: |\n      handled via the \\#black-formatter channel\n"


@pytest.mark.parametrize(
    ("path", "before", "after", "title"),
    [
        ("src/size.rs", RUST, RUST.replace("= { ", "= ").replace(" };", ";"), "Remove braces in size.rs"),
        ("check.go", GO, GO.replace("if (x > 1)", "if x > 1"), "Remove parentheses in check.go"),
        (".github/config.yml", CONFIG, CONFIG.replace("\\#", "#"), "Remove a backslash in config.yml"),
        # Python's quotes are the same tokens: a formatter's work
        ("app/greet.py", PY, PY.replace("'hello '", '"hello "'), "Format greet.py"),
    ],
)
def test_punctuation_alone_is_named_by_the_marks_it_adds_or_removes(
    repo: Repo, path: str, before: str, after: str, title: str
) -> None:
    assert titled(repo, path, before, after)[1].endswith(title.split(" ", 1)[1])


def test_operands_swapped_are_rearranged_not_a_punctuation_change(repo: Repo) -> None:
    before = "def keep(entry, files):\n    return (entry.is_file() and not files)\n"
    after = "def keep(entry, files):\n    return (not files and entry.is_file())\n"
    facts, title = titled(repo, "app/keep.py", before, after)
    assert facts.punctuation is None and "rearrange" in title.lower()
