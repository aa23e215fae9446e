"""Paths read by kind without ``PurePosixPath``: the same answers on the edges it handled."""

import pytest

from segmint_core.changes.kinds import (
    CHANGELOG,
    CODE,
    CONFIG,
    DOCS,
    TEST,
    file_kind,
    is_build_path,
    is_ci_path,
    is_doc_path,
    is_ignore_file,
    is_test_path,
)


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("src/app.py", CODE),
        ("tests/test_app.py", TEST),
        ("a//tests/helpers.py", TEST),  # an empty part is no folder
        ("./docs/guide.txt", DOCS),
        ("CHANGES.rst", CHANGELOG),
        ("changelog.py", CODE),  # a module named so is code
        (".github/workflows/uvloop_test.yml", CONFIG),  # CI that runs tests is CI
        ("requirements/dev.txt", CONFIG),
    ],
)
def test_file_kind(path: str, kind: str) -> None:
    assert file_kind(path) == kind


def test_doc_paths_read_stem_and_suffix_as_a_path_does() -> None:
    assert is_doc_path("README")
    assert is_doc_path("docs/notes.txt")
    assert not is_doc_path("notes.txt")  # a .txt outside docs names data, unless its stem is a doc's
    assert is_doc_path("LICENSE.txt")
    assert not is_doc_path(".bashrc")
    assert not is_doc_path("src/changelog.py")


def test_test_ci_build_and_ignore_paths() -> None:
    assert is_test_path("pkg/spec/user_spec.rb") and is_test_path("src/Button.test.tsx")
    assert not is_test_path(".github/workflows/unit_test.yml")
    assert is_ci_path(".GitHub/workflows/ci.yml") and is_ci_path(".travis.yml")
    assert not is_ci_path("src/github.py")
    assert is_build_path("black.egg-info/PKG-INFO") and is_build_path("test_requirements.txt")
    assert not is_build_path("egg-info")
    assert is_ignore_file("web/.dockerignore") and not is_ignore_file(".ignore")
