"""The test cases a change adds, changes or removes, read off a real diff and named in words."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning.cases import ADDED, CHANGED, REMOVED, cases, words
from tests.support.repo import Repo


def cases_of(repo: Repo) -> list[tuple[str, str, str]]:
    cs = capture(Git.discover(repo.path))
    return [(c.path, c.words, c.status) for c in cases([(ch.file_path, ch.hunks) for ch in cs.changes])]


def test_test_names_read_as_words() -> None:
    assert words("test_empty_config_gives_the_defaults") == "empty config gives the defaults"
    assert words("TestParseHTTPHeader") == "parse HTTP header"
    assert words("rejects a negative   limit") == "rejects a negative limit"


def test_cases_added_changed_and_removed_in_python_go_js_and_rust(repo: Repo) -> None:
    py = (
        "def test_keeps_order():\n    a = 1\n    b = 2\n    c = 3\n\n    def helper():\n        return 1\n\n    assert helper()\n\n\n"
        "def test_old_way():\n    assert 1\n"
    )
    repo.write("tests/test_order.py", py)
    repo.write("pkg/order_test.go", "package pkg\n")
    repo.write("test/limit.test.js", "const x = 1\n")
    repo.write("tests/cli.rs", "use x;\n")
    repo.write("src/lib.py", "def test_helper_outside_tests():\n    pass\n")
    repo.commit()
    repo.write(
        "tests/test_order.py",
        py.replace("assert helper()\n", "assert helper() == 1\n").replace("def test_old_way():\n    assert 1\n", "")
        + "\n\ndef test_an_empty_list_stays_empty():\n    assert []\n",
    )
    repo.write("pkg/order_test.go", "package pkg\n\nfunc TestSortStable(t *testing.T) {\n}\n")
    repo.write("test/limit.test.js", "const x = 1\nit('rejects a negative limit', () => {\n  expect(1)\n})\n")
    repo.write("tests/cli.rs", "use x;\n\n#[test]\nfn prints_help() {\n}\n")
    repo.write("src/lib.py", "def test_helper_outside_tests():\n    return 1\n")
    assert sorted(cases_of(repo)) == sorted(
        [
            ("tests/test_order.py", "keeps order", CHANGED),
            ("tests/test_order.py", "old way", REMOVED),
            ("tests/test_order.py", "an empty list stays empty", ADDED),
            ("pkg/order_test.go", "sort stable", ADDED),
            ("test/limit.test.js", "rejects a negative limit", ADDED),
            ("tests/cli.rs", "prints help", ADDED),
        ]
    )


def test_a_decorator_changed_is_the_case_it_decorates(repo: Repo) -> None:
    """git's hunk header names the definition above a decorator; the decorator's changed lines are
    the next case's, whether its opening line is in the hunk or only the bracket closing it."""
    listed = (
        "import pytest\n\n\ndef test_first():\n    assert True\n\n\n"
        '@pytest.mark.parametrize(\n    "path, expected",\n    [\n        ("/a", "a"),\n    ],\n)\n'
        "def test_route_path(path, expected):\n    assert route_path(path) == expected\n"
    )
    marked = "def test_first():\n    assert True\n\n\ndef test_second():\n    assert True\n"
    repo.write("tests/test_paths.py", listed)
    repo.write("tests/test_marks.py", marked)
    repo.commit()
    repo.write("tests/test_paths.py", listed.replace('("/a", "a"),\n', '("/a", "a"),\n        ("/a/", "a"),\n'))
    repo.write("tests/test_marks.py", marked.replace("def test_second", "@pytest.mark.slow\ndef test_second"))
    assert sorted(cases_of(repo)) == [
        ("tests/test_marks.py", "second", CHANGED),
        ("tests/test_paths.py", "route path", CHANGED),
    ]


def test_a_rust_unit_test_beside_the_code_is_a_case(repo: Repo) -> None:
    """Rust's unit tests live in the source file, under ``#[cfg(test)]``: fd's ``src/exit_codes.rs``."""
    code = "pub fn merge() -> u32 {\n    0\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"
    repo.write("src/exit_codes.rs", code)
    repo.commit()
    repo.write(
        "src/exit_codes.rs",
        code.replace(
            "use super::*;\n",
            "use super::*;\n\n    #[test]\n    fn merge_is_zero() {\n        assert_eq!(merge(), 0);\n    }\n",
        ),
    )
    assert cases_of(repo) == [("src/exit_codes.rs", "merge is zero", ADDED)]


def test_a_case_whose_signature_spans_lines_is_added_and_its_parameters_change_it(repo: Repo) -> None:
    # pluggy's ``def test_register_while_calling(`` over its parameters: the ``) -> None:`` closing
    # them at the case's own indentation was read as the end of an expression above it
    repo.write("tests/test_calls.py", "def test_one(\n    pm,\n) -> None:\n    assert pm\n")
    repo.commit()
    repo.write(
        "tests/test_calls.py",
        "def test_one(\n    pm,\n    historic: bool,\n) -> None:\n    assert pm\n\n\n"
        "@pytest.mark.parametrize('historic', [False, True])\n"
        "def test_register_while_calling(\n    pm,\n    historic: bool,\n) -> None:\n    assert pm\n",
    )
    assert cases_of(repo) == [
        ("tests/test_calls.py", "one", CHANGED),
        ("tests/test_calls.py", "register while calling", ADDED),
    ]


def test_a_bracket_in_a_default_s_string_leaves_no_signature_open(repo: Repo) -> None:
    repo.write("tests/test_parens.py", "def test_keep():\n    assert 1\n")
    repo.commit()
    repo.write(
        "tests/test_parens.py",
        'def test_open_paren(s="("):\n    assert s\n\n\ndef test_keep():\n    assert 2\n',
    )
    assert cases_of(repo) == [
        ("tests/test_parens.py", "open paren", ADDED),
        ("tests/test_parens.py", "keep", CHANGED),
    ]
