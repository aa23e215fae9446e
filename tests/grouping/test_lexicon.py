"""Words and file kinds."""

from __future__ import annotations

import pytest

from segmint_core.changes.kinds import CHANGELOG, CODE, CONFIG, DOCS, TEST, file_kind
from segmint_core.grouping.lexicon import identifiers, specificity, stem, subtokens


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("src/click/core.py", CODE),
        ("tests/test_core.py", TEST),
        ("pkg/core_test.go", TEST),
        ("web/app.spec.ts", TEST),
        ("CHANGES.rst", CHANGELOG),
        ("CHANGELOG.md", CHANGELOG),
        ("changes/1234.bugfix.rst", CHANGELOG),
        ("segmint_core/changes/models.py", CODE),
        ("segmint_core/mcp/tools/changes.py", CODE),
        ("CHANGES", CHANGELOG),
        ("tests/changes/test_split.py", TEST),
        ("docs/options.rst", DOCS),
        ("README.md", DOCS),
        ("docs/conf.py", CODE),
        ("pyproject.toml", CONFIG),
        (".github/workflows/ci.yml", CONFIG),
        ("requirements/dev.txt", CONFIG),
        ("src/CMakeLists.txt", CONFIG),
        ("docs/notes.txt", DOCS),
    ],
)
def test_file_kinds(path: str, kind: str) -> None:
    assert file_kind(path) == kind


def test_stems_pair_tests_with_their_source() -> None:
    assert stem("tests/test_auth.py") == stem("src/auth.py") == stem("httpx/_auth.py") == "auth"
    assert stem("pkg/server_test.go") == stem("pkg/server.go") == "server"
    assert stem("src/pkg/apply/__init__.py") == "apply"


def test_identifiers_drop_keywords_and_split_into_subtokens() -> None:
    assert identifiers("def parse_config(self, text): return None") == ["parse_config", "text"]
    assert subtokens("parseConfigFile") == ("parse", "config", "file")
    assert subtokens("HTTPServer_config") == ("http", "server", "config")


def test_short_one_word_names_are_generic() -> None:
    assert specificity("help_option_names") == ""
    assert specificity("show") == ":generic"
    assert specificity("version 1.2.0") == ""
