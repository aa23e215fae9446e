"""A release: the changelog's block for a version and the version bump it names are one intent;
so are a dependency's changelog entry and its bump."""

from __future__ import annotations

import pytest

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import group_changes
from tests.support.repo import Repo

CHANGES = "# Changes\n\n## 1.1.0\n\n- Add `export`.\n"
CODE = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"


def grouped(repo: Repo):
    changes = capture(Git.discover(repo.path))
    grouping = group_changes(changes, timeline=None, root=str(repo.path))
    paths = {c.id: c.file_path for c in grouping.changes}
    return [
        (sorted({paths[h.split(":")[0]] for h in g.hunk_ids} | {paths[c] for c in g.change_ids}), g)
        for g in grouping.groups
    ]


@pytest.mark.parametrize(
    ("version_file", "before", "after"),
    [
        (
            "pyproject.toml",
            '[project]\nname = "shapes"\nversion = "1.1.0"\n',
            '[project]\nname = "shapes"\nversion = "1.2.0"\n',
        ),
        ("src/shapes/__init__.py", '__version__ = "1.2.0.dev"\n', '__version__ = "1.2.0"\n'),
        (
            "package.json",
            '{\n  "name": "shapes",\n  "version": "1.1.0"\n}\n',
            '{\n  "name": "shapes",\n  "version": "1.2.0"\n}\n',
        ),
    ],
)
def test_a_changelog_block_and_the_version_it_names_are_one_group(
    repo: Repo, version_file: str, before: str, after: str
) -> None:
    repo.write("CHANGES.md", CHANGES)
    repo.write(version_file, before)
    repo.write("src/shapes/geometry.py", CODE)
    repo.commit()
    repo.write("CHANGES.md", CHANGES.replace("## 1.1.0", "## 1.2.0\n\n- Fix `area` for negative sizes.\n\n## 1.1.0"))
    repo.write(version_file, after)
    repo.write("src/shapes/geometry.py", CODE.replace("return 2 * (w + h)", "return 2 * (abs(w) + abs(h))"))
    groups = grouped(repo)
    release = next(g for paths, g in groups if "CHANGES.md" in paths)
    assert sorted(next(paths for paths, g in groups if g is release)) == sorted(["CHANGES.md", version_file])
    assert "the release of 1.2.0: its changelog block and the version it sets" in release.reasons
    assert release.summary == "Release 1.2.0"


def test_a_changelog_block_dated_on_release_joins_its_version(repo: Repo) -> None:
    """Click's way: the block is written while unreleased, and the release dates it."""
    changes = "## Version 8.4.2\n\nUnreleased\n\n- Fix `echo`.\n"
    repo.write("CHANGES.md", changes)
    repo.write("pyproject.toml", '[project]\nname = "click"\nversion = "8.4.2.dev"\n')
    repo.write("src/click/core.py", CODE)
    repo.commit()
    repo.write("CHANGES.md", changes.replace("Unreleased", "Released 2026-06-24"))
    repo.write("pyproject.toml", '[project]\nname = "click"\nversion = "8.4.2"\n')
    repo.write("src/click/core.py", CODE.replace("w * h", "abs(w * h)"))
    groups = grouped(repo)
    assert ["CHANGES.md", "pyproject.toml"] in [paths for paths, _ in groups]


def test_a_dependency_moved_to_the_same_number_is_no_release(repo: Repo) -> None:
    """Only a line that changes nothing but its version sets one: a new dependency pin does not."""
    repo.write("CHANGES.md", CHANGES)
    repo.write("requirements.txt", "shapes-core==1.1.0\n")
    repo.commit()
    repo.write("CHANGES.md", CHANGES.replace("## 1.1.0", "## 1.2.0\n\n- Fix `area`.\n\n## 1.1.0"))
    repo.write("requirements.txt", "shapes-core==1.1.0\nshapes-extra==1.2.0\n")
    groups = grouped(repo)
    release = next(g for paths, g in groups if "CHANGES.md" in paths)
    assert not any("the release of" in reason for reason in release.reasons)


HISTORY = "unreleased\n==========\n\n* deps: supertest@^6.3.4\n\n5.0.1 / 2024-10-08\n"
MANIFEST = '{\n  "name": "web",\n  "dependencies": {\n    "once": "^1.4.0",\n    "qs": "^6.13.0",\n    "send": "^1.1.0"\n  }\n}\n'


def test_a_dependency_entry_in_the_changelog_joins_its_bump(repo: Repo) -> None:
    """Express's way: ``* deps: qs@^6.14.0`` in History.md with the bump in package.json."""
    repo.write("History.md", HISTORY)
    repo.write("package.json", MANIFEST)
    repo.write("lib/request.js", "req.query = function query() {\n  return this.parse();\n};\n")
    repo.commit()
    repo.write("History.md", HISTORY.replace("supertest@^6.3.4\n", "supertest@^6.3.4\n* deps: qs@^6.14.0\n"))
    repo.write("package.json", MANIFEST.replace('"^6.13.0"', '"^6.14.0"'))
    repo.write("lib/request.js", "req.query = function query() {\n  return this.parse() || {};\n};\n")
    groups = grouped(repo)
    entry = next(g for paths, g in groups if "History.md" in paths)
    assert next(paths for paths, g in groups if g is entry) == ["History.md", "package.json"]
    assert "the changelog entry for qs 6.14.0 with the bump it describes" in entry.reasons


def test_an_entry_naming_another_version_stays_apart(repo: Repo) -> None:
    """The entry must name the version the manifest sets: an older note about the package is not its bump."""
    repo.write("History.md", HISTORY)
    repo.write("package.json", MANIFEST)
    repo.commit()
    repo.write("History.md", HISTORY.replace("supertest@^6.3.4\n", "supertest@^6.3.4\n* deps: qs@^6.12.0\n"))
    repo.write("package.json", MANIFEST.replace('"^6.13.0"', '"^6.14.0"'))
    groups = grouped(repo)
    entry = next(g for paths, g in groups if "History.md" in paths)
    assert not any("changelog entry" in reason for reason in entry.reasons)
