"""Commit bodies say what git does not: why, what the change does, or nothing at all."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from tests.support.repo import Repo

# What ``git show --stat`` says: a file with its counts, in either of the forms a body used to show it.
FILE_WITH_COUNTS = re.compile(r"\(\+\d+ -\d+\)|\(-\d+\)|\(binary\)|\|\s*\d+\s*[+-]+")


def body_of(repo: Repo) -> str:
    cs = capture(Git.discover(repo.path))
    return offline_message([(c, c.hunks) for c in cs.changes]).description


def test_a_change_with_nothing_to_say_beyond_its_title_has_no_body(repo: Repo) -> None:
    repo.write("app/config.py", "def load(path):\n    return open(path).read()\n")
    repo.commit()
    repo.write("app/config.py", "def load(path):\n    return open(path, encoding='utf-8').read()\n")
    repo.write("app/notes.txt", "one\n")
    assert body_of(repo) == ""


def test_the_changelog_entries_the_title_does_not_say_are_its_body(repo: Repo) -> None:
    repo.write("CHANGES.rst", "Version 2.2.3\n-------------\n\nUnreleased\n\n")
    repo.write("src/app.py", "EXTENSIONS = ('.html', '.htm')\n")
    repo.commit()
    repo.write(
        "CHANGES.rst",
        "Version 2.2.3\n-------------\n\nUnreleased\n\n"
        "-   Add ``.svg`` to the template extensions.\n"
        "-   Autoescape is enabled by default for ``.svg`` template files.\n    :issue:`4831`\n",
    )
    repo.write("src/app.py", "EXTENSIONS = ('.html', '.htm', '.svg')\n")
    cs = capture(Git.discover(repo.path))
    message = offline_message([(c, c.hunks) for c in cs.changes])
    assert message.title.endswith("add `.svg` to the template extensions")
    assert message.description == "- Autoescape is enabled by default for `.svg` template files.\n\nRefs #4831."


def test_a_changelog_converted_to_another_format_adds_no_entry(repo: Repo) -> None:
    # click moved CHANGES.rst to CHANGES.md: its 555 old entries were listed as the change's own
    old = "Version 8.3\n-----------\n\n-   Fix the pager. :issue:`12`\n-   Add ``--color``. :pr:`14`\n"
    new = "## Version 8.3\n\n- Fix the pager. {issue}`12`\n- Add `--color`. {pr}`14`\n"
    repo.write("CHANGES.rst", old)
    repo.commit()
    repo.delete("CHANGES.rst")
    repo.write("CHANGES.md", new + "- Support incremental output in the pager. {pr}`3534`\n")
    cs = capture(Git.discover(repo.path))
    message = offline_message([(c, c.hunks) for c in cs.changes])
    assert message.description.startswith("- Support incremental output in the pager.")
    assert "Fix the pager" not in message.description and "color" not in message.description
    assert message.title.endswith("convert CHANGES.rst to CHANGES.md")


def test_a_myst_role_names_an_issue_as_a_sphinx_role_does(repo: Repo) -> None:
    repo.write("CHANGES.md", "## Unreleased\n\n")
    repo.write("src/pager.py", "RAW = False\n")
    repo.commit()
    repo.write("CHANGES.md", "## Unreleased\n\n- Improve raw mode detection. {issue}`3416` {pr}`3777`\n")
    repo.write("src/pager.py", "RAW = True\n")
    assert body_of(repo).endswith("Refs #3416, #3777.")


def test_an_issue_named_in_a_comment_is_referenced_and_a_colour_is_not(repo: Repo) -> None:
    repo.write("web/theme.py", "COLOUR = 'black'\n")
    repo.commit()
    repo.write(
        "web/theme.py",
        "# fixes #812: dark terminals hid the prompt\nCOLOUR = '#333'\nBORDER = '#444'\n",
    )
    body = body_of(repo)
    assert "Refs #812." in body and "#333" not in body and "#444" not in body


def test_issues_a_line_names_again_and_again_are_referenced_once(repo: Repo) -> None:
    """A line naming one issue thousands of times was read once per naming against all of them."""
    repo.write("web/theme.py", "COLOUR = 'black'\n")
    repo.commit()
    repo.write("web/theme.py", "# fixes #812" + ", see #812 and #90" * 3000 + "\nCOLOUR = 'grey'\n")
    assert "Refs #812, #90." in body_of(repo)


def test_an_issue_linked_by_its_number_and_its_address_is_referenced_once(repo: Repo) -> None:
    repo.write("CHANGELOG.rst", "Changelog\n=========\n\n")
    repo.write("src/hooks.py", "ORDER = 1\n")
    repo.commit()
    link = "`#441 <https://github.com/pytest-dev/pluggy/issues/441>`_"
    repo.write("CHANGELOG.rst", f"Changelog\n=========\n\n- {link}: Fix the order of extra calls.\n")
    repo.write("src/hooks.py", "ORDER = 2\n")
    assert body_of(repo).endswith("Refs #441.")


def test_a_new_function_s_docstring_says_what_it_does(repo: Repo) -> None:
    repo.write("src/shop/prices.py", "RATE = 2\n")
    repo.commit()
    repo.write(
        "src/shop/prices.py",
        'RATE = 2\n\n\ndef with_tax(\n    amount,\n    rate=RATE,\n):\n    """The amount a customer pays, tax included."""\n'
        "    return amount * rate\n",
    )
    assert body_of(repo) == "- with_tax: The amount a customer pays, tax included."


def test_overloads_sharing_a_docstring_are_quoted_once(repo: Repo) -> None:
    repo.write("src/pager.py", "import typing\n")
    repo.commit()
    overload = '@typing.overload\ndef get_pager_file(color: bool) -> int:\n    """Context manager."""\n\n\n'
    repo.write("src/pager.py", "import typing\n\n\n" + overload + overload.replace("bool", "None"))
    assert body_of(repo) == "- get_pager_file: Context manager."


def test_a_comment_that_labels_a_setting_is_not_quoted_as_a_why(repo: Repo) -> None:
    repo.write("pyproject.toml", '[tool.ruff.lint]\nselect = ["E"]\n')
    repo.commit()
    repo.write(
        "pyproject.toml",
        '[tool.ruff.lint]\nselect = [\n    "E",\n    # Bugbear opinions implicit str concat\n    "B",\n]\n',
    )
    assert "Bugbear" not in body_of(repo)


def test_a_new_flag_and_the_test_for_it_are_said_in_words(repo: Repo) -> None:
    repo.write("tool/cli.py", "import argparse\n\np = argparse.ArgumentParser()\n")
    repo.write("tests/test_cli.py", "def test_runs():\n    assert True\n")
    repo.commit()
    repo.write("tool/cli.py", "import argparse\n\np = argparse.ArgumentParser()\np.add_argument('--dry-run')\n")
    repo.write(
        "tests/test_cli.py",
        "def test_runs():\n    assert True\n\n\ndef test_dry_run_writes_nothing():\n    assert True\n",
    )
    body = body_of(repo)
    assert "Tested: dry run writes nothing." in body


def test_a_long_why_is_wrapped_at_72_columns(repo: Repo) -> None:
    repo.write("svc/retry.py", "def run():\n    return 1\n")
    repo.commit()
    repo.write(
        "svc/retry.py",
        "def run():\n    # The upstream service drops the first request after every deploy, so one retry is "
        "always needed before we give up and report the outage to the caller\n    return 1\n",
    )
    body = body_of(repo)
    assert body.startswith("The upstream service drops") and len(body.splitlines()) == 3
    assert all(len(line) <= 72 for line in body.splitlines())


LINE = st.sampled_from(
    [
        "x = 1",
        "# the cache must be flushed first, because readers hold it",
        "# see #42",
        "def helper(a, b):",
        '    """Join two names with a dot."""',
        "    return a + b",
        "-   Fixed a crash on empty input. :issue:`77`",
        "* Added the --quiet flag (#78)",
        "## 1.2.0",
        "COLOUR = '#333'",
        "    assert helper(1, 2) == 3",
        "def test_helper_joins_names():",
        "import os",
        "parser.add_argument('--quiet')",
        "",
    ]
)
PATHS = st.sampled_from(
    ["src/pkg/core.py", "src/pkg/cli.py", "tests/test_core.py", "CHANGELOG.md", "docs/usage.md", "README.md"]
)
FILES = st.dictionaries(PATHS, st.lists(LINE, min_size=1, max_size=8), min_size=1, max_size=4)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=FILES, after=FILES)
def test_no_body_lists_files_with_counts_and_every_line_fits_72(before: dict, after: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repo(Path(tmp) / "r")
        for path, lines in before.items():
            repo.write(path, "\n".join(lines) + "\n")
        repo.write("keep.txt", "x\n")
        repo.commit()
        for path in before:
            repo.delete(path)
        for path, lines in after.items():
            repo.write(path, "\n".join(lines) + "\n")
        cs = capture(Git.discover(repo.path))
        if not cs.changes:
            return
        body = offline_message([(c, c.hunks) for c in cs.changes]).description
        assert not FILE_WITH_COUNTS.search(body), body
        for line in body.splitlines():
            assert len(line) <= 72 or " " not in line.strip(), line
            for change in cs.changes:
                assert not line.lstrip("- ").startswith(change.file_path + " "), line


def test_a_generated_file_s_header_is_no_why(repo: Repo) -> None:
    repo.write("requirements/tests.txt", "attrs==22.1.0\npytest==7.1.2\n")
    repo.commit()
    header = "# This file is autogenerated by pip-compile with python 3.10\n# by the following command:\n#\n"
    repo.write("requirements/tests.txt", header + "#    pip-compile tests.in\n#\nattrs==22.2.0\npytest==7.2.0\n")
    assert body_of(repo) == "attrs: 22.1.0 -> 22.2.0\npytest: 7.1.2 -> 7.2.0"


def test_a_docstring_s_first_sentence_is_read_over_its_lines_and_its_roles_as_code(repo: Repo) -> None:
    repo.write("src/shop/stock.py", "LIMIT = 2\n")
    repo.commit()
    repo.write(
        "src/shop/stock.py",
        'LIMIT = 2\n\n\ndef _hide_unset(value):\n    """Present the :data:`UNSET` sentinel as ``None`` at a\n'
        '    boundary that shows a value. Callers never see it.\n\n    More.\n    """\n    return value\n',
    )
    assert body_of(repo) == (
        "- _hide_unset: Present the `UNSET` sentinel as `None` at a boundary that\n  shows a value."
    )


def test_a_model_s_body_loses_its_lines_of_files_with_counts() -> None:
    from segmint_core.planning.writer import Message, parse_reply

    reply = "feat: add x\n\n- src/a.py (+3 -1)\nsrc/b.py | 4 ++--\nThe cache must be flushed before reading."
    assert parse_reply(reply, Message("feat: y", "")).description == "The cache must be flushed before reading."


def test_a_docstring_the_changelog_entry_already_says_is_not_quoted(repo: Repo) -> None:
    repo.write("CHANGELOG.md", "# Changelog\n\n## Unreleased\n")
    repo.write("src/urls.py", "class URL:\n    def join(self, url):\n        return url\n")
    repo.commit()
    repo.write(
        "CHANGELOG.md",
        "# Changelog\n\n## Unreleased\n\n* `URL.without_query()` returns the URL without its query string.\n",
    )
    repo.write(
        "src/urls.py",
        "class URL:\n    def without_query(self):\n"
        '        """Return a copy of the URL with its query string removed."""\n'
        "        return self\n\n    def join(self, url):\n        return url\n\n\n"
        'def scheme(url):\n    """The part before the colon."""\n    return url\n',
    )
    body = body_of(repo)
    assert "Return a copy" not in body and "- scheme: The part before the colon." in body


def test_an_attribute_s_sphinx_comment_is_read_without_its_marker_and_a_reference_as_words(repo: Repo) -> None:
    """pluggy 1.5's ``#:`` comment came out as ": Whether the hook warns when `certain arguments are requested :`."."""
    repo.write("src/hooks.py", "class HookspecOpts:\n    historic: bool\n")
    repo.commit()
    repo.write(
        "src/hooks.py",
        "class HookspecOpts:\n    historic: bool\n"
        "    #: Whether the hook warns when :ref:`certain arguments are requested\n"
        "    #: <warn_on_impl>`.\n    #:\n    #: .. versionadded:: 1.5\n"
        "    warn_on_impl_args: Mapping[str, Warning] | None\n",
    )
    assert body_of(repo) == "Whether the hook warns when certain arguments are requested."


def test_one_comment_added_in_two_places_is_not_read_as_one_sentence(repo: Repo) -> None:
    """exceptiongroup 1.2.1 wrote "# for type tests, the code itself isn't type checked in CI" over two
    settings; the body read "For type tests, ... in CI for type tests, ... in CI."."""
    repo.write("pyproject.toml", "[tool.mypy]\nstrict = true\n\n[tool.pyright]\nstrict = true\n")
    repo.write("src/group.py", "SPLIT = 1\n")
    repo.commit()
    repo.write("src/group.py", "SPLIT = 2\n")
    note = "# for type tests, the code itself isn't type checked in CI\n"
    repo.write("pyproject.toml", f"[tool.mypy]\n{note}strict = true\n\n[tool.pyright]\n{note}strict = true\n")
    assert body_of(repo) == "For type tests, the code itself isn't type checked in CI."


def test_a_comment_going_on_with_a_class_s_name_is_one_sentence(repo: Repo) -> None:
    """anyio 4.4's "... instead of adding one more" / "CancelledError to the exceptions list." read as two."""
    repo.write("src/tasks.py", "def cancel(task):\n    return task\n")
    repo.commit()
    repo.write(
        "src/tasks.py",
        "def cancel(task):\n    # The task was cancelled, so return now instead of adding one more\n"
        "    # CancelledError to the exceptions list.\n    return task\n",
    )
    assert body_of(repo) == (
        "The task was cancelled, so return now instead of adding one more\nCancelledError to the exceptions list."
    )


def test_a_comment_that_tells_a_tool_something_is_not_quoted(repo: Repo) -> None:
    """commander 12.1's body quoted "@param {boolean} [passThrough] for unknown options." and
    "@ts-ignore because signals not typed to known strings."."""
    repo.write("lib/command.js", "function run(args) {\n  return args;\n}\n")
    repo.commit()
    repo.write(
        "lib/command.js",
        "/**\n * @param {boolean} [passThrough] for unknown options.\n */\nfunction run(args, passThrough) {\n"
        "  // @ts-ignore because signals not typed to known strings.\n  process.on(args);\n"
        "  // eslint-disable-next-line no-console because the user asked for output\n  return args;\n}\n",
    )
    body = body_of(repo)
    assert "@param" not in body and "@ts-ignore" not in body and "eslint" not in body, body


def test_a_comment_line_ending_on_a_word_no_sentence_ends_on_goes_on_below(repo: Repo) -> None:
    """typing_extensions 4.11's "... if and when" / "PEP 728 is implemented in CPython." read as two."""
    repo.write("src/extensions.py", "READ_ONLY = False\n")
    repo.commit()
    repo.write(
        "src/extensions.py",
        "# Update this check to a later release if and when\n# PEP 728 is implemented in CPython.\nREAD_ONLY = True\n",
    )
    assert body_of(repo) == "Update this check to a later release if and when PEP 728 is implemented\nin CPython."
