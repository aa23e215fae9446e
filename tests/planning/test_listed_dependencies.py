"""A dependency added to or taken out of the file listing it is titled by its name."""

from __future__ import annotations

import pytest

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.style import HouseStyle
from segmint_core.wording import counted
from tests.support.repo import Repo

PLAIN = HouseStyle(seen=30, conventional=0, capitalized=1.0)
REQUIREMENTS = "mkdocs==1.3.0\nmkautodoc==0.1.0\nmarkdown==3.3.7  # https://python-markdown.github.io/change_log/\n"
PACKAGE = '{\n  "name": "web",\n  "version": "1.0.0",\n  "dependencies": {\n    "debug": "2.6.9",\n    "qs": "6.11.0"\n  }\n}\n'
PYPROJECT = '[project]\nname = "tool"\nversion = "1.0"\ndependencies = [\n    "click>=8.0",\n    "six>=1.16",\n]\n'


def title(repo: Repo, path: str, before: str, after: str) -> str:
    repo.write(path, before)
    repo.commit()
    repo.write(path, after)
    changes = capture(Git.discover(repo.path)).changes
    return offline_message([(c, c.hunks) for c in changes], style=PLAIN).title


@pytest.mark.parametrize(
    ("path", "before", "after", "expected"),
    [
        # a web address in a comment names nothing
        (
            "requirements.txt",
            REQUIREMENTS,
            REQUIREMENTS.replace(REQUIREMENTS.splitlines()[2] + "\n", ""),
            "Remove markdown from requirements.txt",
        ),
        ("requirements.txt", REQUIREMENTS, REQUIREMENTS + "httpx-sse\n", "Add httpx-sse to requirements.txt"),
        (
            "package.json",
            PACKAGE,
            PACKAGE.replace('"2.6.9",\n    "qs": "6.11.0"', '"2.6.9"'),
            "Remove qs from package.json",
        ),
        (
            "pyproject.toml",
            PYPROJECT,
            PYPROJECT.replace('"six>=1.16"', '"typing-extensions>=4.0"'),
            "Replace six with typing-extensions in pyproject.toml",
        ),
    ],
)
def test_a_dependency_listed_or_taken_out_is_named(
    repo: Repo, path: str, before: str, after: str, expected: str
) -> None:
    assert title(repo, path, before, after) == expected


def test_a_version_moved_is_a_bump_not_a_dependency_added(repo: Repo) -> None:
    assert title(repo, "requirements.txt", REQUIREMENTS, REQUIREMENTS.replace("1.3.0", "1.3.1")) == (
        "Bump mkdocs from 1.3.0 to 1.3.1"
    )


def test_a_setting_with_a_number_is_no_dependency(repo: Repo) -> None:
    before = "[tool.black]\nline-length = 88\n"
    assert "line-length" not in title(repo, "pyproject.toml", before, before + "skip-magic-trailing-comma = 1\n")


def test_dependencies_are_counted_in_their_plural() -> None:
    assert [counted(n, "dependency") for n in (1, 4)] == ["1 dependency", "4 dependencies"]
    assert counted(2, "key") == "2 keys"
