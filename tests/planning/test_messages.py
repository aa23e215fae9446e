"""Offline commit messages read like an engineer wrote them."""

from __future__ import annotations

import textwrap

import pytest

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.facts import lines_named
from segmint_core.planning.cases import words as words_of_test
from segmint_core.planning.enclosing import Sections
from segmint_core.planning.messages import is_test_name
from segmint_core.planning.style import HouseStyle
from segmint_core.session.session import Session
from tests.support.groups import one_group_per_hunk
from tests.support.repo import Repo
from tests.support.titles import edited, titled


def message_for(repo: Repo):
    cs = capture(Git.discover(repo.path))
    return offline_message([(c, c.hunks) for c in cs.changes])


def why_of(repo: Repo) -> str:
    """The message's body, its lines wrapped at 72 joined again: why, from the comments added."""
    body = message_for(repo).description
    assert all(len(line) <= 72 for line in body.splitlines()), body
    return " ".join(body.split())


def title_of_edit(repo: Repo, path: str, before: str, after: str) -> str:
    """The title of ``path`` edited from ``before`` (committed) to ``after``."""
    repo.write(path, before)
    repo.commit()
    repo.write(path, after)
    return message_for(repo).title


def test_new_function_is_a_feature_scoped_by_package(repo: Repo) -> None:
    repo.write("src/shop/auth/tokens.py", "def issue(user):\n    return sign(user)\n")
    repo.commit()
    repo.write(
        "src/shop/auth/tokens.py",
        "def issue(user):\n    return sign(user)\n\n\n"
        "def validate_token_expiry(token, now):\n    # Tokens older than a day are refused\n"
        "    return token.expires_at > now\n",
    )
    msg = message_for(repo)
    assert msg.title == "feat(auth): add validate_token_expiry"
    assert msg.description == "Tokens older than a day are refused."  # the why; git shows the file


def test_guard_added_inside_a_function_is_a_fix(repo: Repo) -> None:
    repo.write("app/config.py", "def parse_config(text):\n    data = load(text)\n    return data\n")
    repo.commit()
    repo.write(
        "app/config.py",
        "def parse_config(text):\n    data = load(text)\n    if data is None:\n"
        "        raise ValueError('empty config')\n    return data\n",
    )
    msg = message_for(repo)
    assert msg.title == "fix(config): raise ValueError in parse_config"


def test_a_raise_only_rewritten_raises_nothing_new(repo: Repo) -> None:
    """click's error message given a new link was titled ``Raise RuntimeError in ...``: the
    removed lines raised it too, so the title says only that the raise changed."""
    body = "def verify(env):\n    if env.ascii:\n        raise RuntimeError('see {}')\n    return env\n"
    repo.write("app/env.py", body.format("http://old.example/python3/"))
    repo.commit()
    repo.write("app/env.py", body.format("https://new.example/python3/"))
    title = message_for(repo).title
    assert title.endswith("update the RuntimeError raised in verify")
    assert "raise RuntimeError" not in title


def test_a_presence_test_turned_round_handles_nothing_missing(repo: Repo) -> None:
    """express's ``if (part.name) { ... }`` rewritten as ``if (!part.name) return`` was titled
    ``Handle missing name in run``: the old code tested the same value."""
    before = "function run(part) {\n  if (part.name) {\n    merge(part)\n  }\n}\n"
    after = "function run(part) {\n  if (!part.name) return\n  merge(part)\n}\n"
    facts, title = titled(repo, "lib/core.js", before, after)
    assert facts.missing == [] and "missing" not in title
    _, title = titled(repo, "lib/core.js", after.replace("if (!part.name) return\n  ", ""), after)
    assert "handle missing name" in title  # a test the old code did not make


def test_strings_only_made_raw_fix_invalid_escapes_where_the_old_ones_were(repo: Repo) -> None:
    """click's ``re.search('-v\\s+Verbosity', ...)`` made raw was ``Update test for counting``."""
    before = "import re\n\n\ndef test_counting(out):\n    assert re.search('-v\\s+Verbosity', out)\n"
    _, title = titled(repo, "tests/test_options.py", before, before.replace("search('", "search(r'"))
    assert title.endswith("fix invalid escape sequences in test_options.py")
    doc = 'def get_app_dir(name):\n    """Returns the folder.\n\n    Windows: ``C:\\\\Foo``\n    """\n'
    _, title = titled(repo, "app/utils.py", doc, doc.replace('    """Returns', '    r"""Returns'))
    assert title.endswith("use raw strings in utils.py")  # every backslash already escaped: nothing was invalid


def test_caught_exception_is_handled(repo: Repo) -> None:
    repo.write("app/net.py", "def fetch(url):\n    return get(url)\n")
    repo.commit()
    repo.write(
        "app/net.py",
        "def fetch(url):\n    try:\n        return get(url)\n    except TimeoutError:\n        return None\n",
    )
    assert message_for(repo).title == "fix(net): handle TimeoutError in fetch"


def test_new_command_line_flag_is_a_feature(repo: Repo) -> None:
    repo.write("tool/cli.py", "def main(argv):\n    parser = make()\n    return parser.parse_args(argv)\n")
    repo.commit()
    repo.write(
        "tool/cli.py",
        "def main(argv):\n    parser = make()\n"
        "    parser.add_argument('-v', '--verbose', action='store_true')\n    return parser.parse_args(argv)\n",
    )
    assert message_for(repo).title == "feat(tool): add --verbose option to main"


@pytest.mark.parametrize(
    ("path", "before", "line", "flag"),
    [
        (
            "src/app.rs",
            'fn build_app() -> App {\n    App::new("fd")\n}\n',
            '        .long("path-separator")',
            "--path-separator",
        ),
        (
            "cmd/root.go",
            "func init() {\n\tsetup()\n}\n",
            '\trootCmd.Flags().StringVarP(&pkg, "package", "p", "", "x")',
            "--package",
        ),
        (
            "bin/express",
            "program\n  .version(version)\n",
            "  .option('-c, --css <engine>', 'add stylesheet support')",
            "--css",
        ),
    ],
)
def test_an_option_declared_in_rust_go_or_javascript_is_named(
    repo: Repo, path: str, before: str, line: str, flag: str
) -> None:
    """fd's ``.long("path-separator")`` was titled ``Add --help to ...`` (from an error message's
    "See 'fd --help'"); cobra's ``Flags().StringVarP(&pkg, "package", ...)`` ``Fix init``."""
    lines = before.splitlines(keepends=True)
    after = "".join(lines[:-1]) + line + "\n" + "    eprintln!(\"See 'fd --help'\");\n" + lines[-1]
    facts, title = titled(repo, path, before, after)
    assert facts.options == [flag]
    assert f"add {flag} option" in title


def test_a_flag_only_read_is_no_option_added(repo: Repo) -> None:
    go = "func init() {\n\tsetup()\n}\n"
    after = go.replace("\tsetup()", '\tsetup()\n\tname, _ := cmd.Flags().GetString("package")')
    facts, _ = titled(repo, "cmd/root.go", go, after)
    assert facts.options == []


def test_the_help_flag_mentioned_is_no_name_the_change_adds(repo: Repo) -> None:
    """fd's ``"See 'fd --help'"`` in a new error message titled the change ``Add --help to ...``."""
    rust = "fn run() {\n    go();\n}\n"
    after = rust.replace("    go();", "    go();\n    print_error(\"See 'fd --help'.\", path_separator);")
    facts, _ = titled(repo, "src/main.rs", rust, after)
    assert "--help" not in facts.new_names and "path_separator" in facts.new_names


def test_three_options_added_are_counted_not_called_one(repo: Repo) -> None:
    repo.write("tool/cli.py", "def main(argv):\n    parser = make()\n    return parser.parse_args(argv)\n")
    repo.commit()
    flags = "".join(f"    parser.add_argument('--{name}')\n" for name in ("parent", "package", "license"))
    repo.write("tool/cli.py", f"def main(argv):\n    parser = make()\n{flags}    return parser.parse_args(argv)\n")
    assert message_for(repo).title == "feat(tool): add --parent and 2 more options to main"


def test_a_name_glued_to_a_printf_conversion_is_a_template_not_a_name(repo: Repo) -> None:
    """cobra's bash script written through ``fmt.Fprintf`` (``__%[1]s_debug``) gave ``Add s_debug``."""
    go = "func writeScript(buf io.Writer, name string) {\n\tfmt.Fprintf(buf, `\n__%[1]s_init\n`, name)\n}\n"
    after = go.replace("__%[1]s_init\n", '__%[1]s_init\n__%[1]s_debug "two words"\n__%s_handle_flag\n')
    facts, _ = titled(repo, "bash_completions.go", go, after)
    assert not {"s_debug", "s_handle_flag", "_debug"} & set(facts.new_names)


def test_code_with_its_tests_and_docs_is_named_by_the_code(repo: Repo) -> None:
    repo.write("inventory/config.py", "import os\n\n\ndef load_config(path):\n    return parse(open(path))\n")
    repo.write("README.md", "Settings are INI.\n")
    repo.commit()
    repo.write(
        "inventory/config.py", "import json\nimport os\n\n\ndef load_config(path):\n    return json.load(open(path))\n"
    )
    repo.write("README.md", "Settings are JSON.\n")
    repo.write("tests/test_config.py", "def test_load_config_reads_json():\n    assert True\n")
    # the test's new function is not the feature; the README does not set the scope
    assert message_for(repo).title == "fix(inventory): use json in load_config"


def test_docs_heading(repo: Repo) -> None:
    repo.write("README.md", "# Tool\n")
    repo.commit()
    repo.write("README.md", "# Tool\n\n## Installation\n\npip install tool\n")
    assert message_for(repo).title == "docs(readme): document Installation"


def test_a_heading_that_is_a_sentence_names_no_section(repo: Repo) -> None:
    # body-parser 1.20.3: an option's section, and its error's ("document depth and The input exceeded the depth")
    repo.write("README.md", "# Tool\n\n## Options\n\n## Errors\n")
    repo.commit()
    option = "#### depth\n\nThe maximum depth.\n\n"
    error = "### The input exceeded the depth\n\nIt is a 400.\n\n"
    repo.write("README.md", f"# Tool\n\n## Options\n\n{option}## Errors\n\n{error}")
    assert message_for(repo).title == "docs(readme): document depth"


def readme_title(repo: Repo, before: str, after: str) -> str:
    """The title of README.md's edit as the planner writes it: each hunk read in its file first."""
    repo.write("README.md", before)
    repo.commit()
    repo.write("README.md", after)
    git = Git.discover(repo.path)
    cs = capture(git)
    return offline_message(Sections(cs.changes, git).resolve([(c, c.hunks) for c in cs.changes])).title


def test_a_shell_comment_in_a_fenced_code_block_is_no_heading(repo: Repo) -> None:
    example = "```sh\npip install tool\n# curl 'http://localhost:5000/'\n```\n"
    title = readme_title(repo, "# Tool\n", f"# Tool\n\n## Installation\n\n{example}")
    assert title == "docs(readme): document Installation"


USAGE = "## Usage\n\n```python\nimport tool\n\n\n\n\ntool.run()\n```\n"


def test_a_block_closed_in_a_hunks_context_leaves_no_fence_open(repo: Repo) -> None:
    example = "```python\n# test_script.py\nimport tool\n```\n"
    before = "# Tool\n\n## Usage\n\n```\nimport tool\n```\n"
    after = f"# Tool\n\n## Usage\n\n```python\nimport tool\n```\n\n## Logging\n\n{example}"
    assert readme_title(repo, before, after) == "docs(readme): document Logging"


def test_a_heading_below_a_block_the_hunk_starts_in_is_read(repo: Repo) -> None:
    usage = USAGE.replace("tool.run()", "tool.run()\ntool.stop()")
    title = readme_title(repo, f"# Tool\n\n{USAGE}", f"# Tool\n\n{usage}\n## Logging\n\nOn.\n")
    assert title == "docs(readme): document Logging"


TEAM = "# Tool\n\n## Triagers\n\n* [alice](https://github.com/alice)\n* [bob](https://github.com/bob)\n\n## License\n"
BOB = "* [bob](https://github.com/bob)\n"


@pytest.mark.parametrize(
    ("after", "title"),
    [
        (
            TEAM.replace(BOB, BOB + "* [krzysdz](https://github.com/krzysdz)\n"),
            "docs(readme): add @krzysdz to README.md",
        ),
        (TEAM.replace(BOB, ""), "docs(readme): remove @bob from README.md"),
        (TEAM.replace("https://github.com/bob", "https://github.com/bob2"), "docs(readme): fix link in README.md"),
        # a new address is a link fixed, not a typo ("github" -> "gitlab" is two letters apart)
        (TEAM.replace("https://github.com/bob", "https://gitlab.com/bob"), "docs(readme): fix link in README.md"),
    ],
)
def test_small_docs_edit_is_named_by_what_it_adds_or_removes(repo: Repo, after: str, title: str) -> None:
    assert title_of_edit(repo, "README.md", TEAM, after) == title


PAGE = "# Async\n\nIf you're making [parallel requests](../parallel/), use the async API.\n\n![Demo](demo.svg)\n"


@pytest.mark.parametrize(
    ("after", "title"),
    [
        (PAGE.replace("../parallel/", "parallel.md#requests"), "docs(async): fix link in async.md"),
        # a new image, or a new address to write to, is no link fixed
        (PAGE.replace("demo.svg", "demo2.svg"), "docs(async): replace demo with demo2 in async.md"),
        (PAGE.replace("../parallel/", "mailto:bob@example.com"), "docs(async): update async.md"),
    ],
)
def test_a_markdown_link_pointed_elsewhere_is_a_link_fixed(repo: Repo, after: str, title: str) -> None:
    assert title_of_edit(repo, "docs/async.md", PAGE, after) == title


def test_entries_only_added_to_a_changelog_are_changelog_entries(repo: Repo) -> None:
    """Two entries or more (one is titled in its own words)."""
    before = "Version 1.1\n-----------\n\n- Old entry.\n"
    after = before.replace("\n\n- Old", "\n\n- Stdout is non blocking.\n- Paths are canonical.\n- Old")
    assert title_of_edit(repo, "CHANGES.rst", before, after) == "docs(changes): add changelog entries"


def test_an_entry_moved_to_another_release_is_moved_not_updated(repo: Repo) -> None:
    """click's ``Move #1572 changelog entry to correct version entry`` was ``Update CHANGES.rst``;
    an entry edited where it stands (a reference added) is no move."""
    entry = "-   Fix the pager on Windows. :pr:`1572`\n"
    before = f"Version 8.4.0\n-------------\n\n-   Add a prompt.\n\nVersion 8.3.0\n-------------\n\n{entry}"
    after = f"Version 8.4.0\n-------------\n\n-   Add a prompt.\n{entry}\nVersion 8.3.0\n-------------\n\n"
    assert title_of_edit(repo, "CHANGES.rst", before, after) == "docs(changes): move changelog entry for #1572"
    edited = before.replace("-   Add a prompt.", "-   Add a prompt. :pr:`1600`")
    assert "move" not in title_of_edit(repo, "CHANGES.rst", before, edited)


NOTE = "Python 3\n========\n\nThe bytes and text split takes care in handling them.\n"


@pytest.mark.parametrize(
    ("after", "title"),
    [
        # a sentence's first word, after a full stop or a comment's mark, names nothing
        (NOTE.replace("them.\n", "them.  For examples, see python-future.\n"), "add python-future to python3.rst"),
        (NOTE.replace("them.\n", "them.  # Replace by any tag\n"), "update python3.rst"),
        # a code span holding an address is no term (never ``Client(proxies=" ")``)
        (NOTE.replace("them.\n", 'them.  Try `Client(proxies="http://localhost:8030")`.\n'), "update python3.rst"),
    ],
)
def test_words_a_sentence_starts_with_and_spans_holding_addresses_are_no_terms(
    repo: Repo, after: str, title: str
) -> None:
    assert title_of_edit(repo, "docs/python3.rst", NOTE, after) == f"docs(python3): {title}"


def test_a_badge_removed_is_named_by_its_images_text(repo: Repo) -> None:
    badge = "[![Packaging status](https://repology.org/badge/fd.svg)](https://repology.org/project/fd)\n"
    page = "# fd\n\nA tool.\n\n" + badge + "\n## Install\n"
    assert title_of_edit(repo, "README.md", page, page.replace(badge, "")) == (
        "docs(readme): remove Packaging status badge from README.md"
    )


def test_docs_edit_names_the_reference_it_removes_and_the_words_it_replaces(repo: Repo) -> None:
    repo.write(
        "CONTRIBUTING.rst",
        "Contributing\n============\n\nAsk on `gitter`_ or open an issue.\n\n.. _gitter: https://gitter.im/x/y\n",
    )
    repo.commit()
    repo.write("CONTRIBUTING.rst", "Contributing\n============\n\nOpen an issue.\n")
    assert message_for(repo).title == "docs(contributing): remove gitter from CONTRIBUTING.rst"
    repo.commit()
    repo.write("docs/usage.md", "Use a dummy value in `Config.token`.\n")
    repo.commit()
    repo.write("docs/usage.md", "Use a placeholder value in `Config.token`.\n")
    assert message_for(repo).title == "docs(usage): replace dummy with placeholder in usage.md"


def test_a_docs_edit_over_two_files_names_the_file_that_holds_the_name(repo: Repo) -> None:
    repo.write("README.md", TEAM)
    repo.write("docs/thanks.md", "Thanks!\n")
    repo.commit()
    repo.write("README.md", TEAM.replace(BOB, BOB + "* [krzysdz](https://github.com/krzysdz)\n"))
    repo.write("docs/thanks.md", "Thanks.\n")
    assert message_for(repo).title.endswith(": add @krzysdz to README.md")


def test_a_rewritten_paragraph_is_still_an_update(repo: Repo) -> None:
    old = "".join(f"Line {n} of the Guide says one thing.\n" for n in range(8))
    repo.write("docs/guide.md", old)
    repo.commit()
    repo.write("docs/guide.md", old.replace("one thing", "another Thing"))
    assert message_for(repo).title == "docs(guide): update guide.md"


CI = (
    "on:\n  push:\n  pull_request:\n\njobs:\n  test:\n    strategy:\n      matrix:\n"
    "        node-version: [18, 20, 22]\n        os: [ubuntu-latest]\n    steps:\n      - uses: actions/checkout@v4\n"
)


@pytest.mark.parametrize(
    ("after", "title"),
    [
        (
            CI.replace("[ubuntu-latest]", "[ubuntu-latest, macos-latest]"),
            "ci(workflows): add macos-latest to os in ci.yml",
        ),
        (CI.replace("[18, 20, 22]", "[18, 20, 22, 24]"), "ci(workflows): test on Node.js 24"),  # the versions tested
        (
            CI.replace("  pull_request:\n", "  pull_request:\n  workflow_dispatch:\n"),
            "ci(workflows): add workflow_dispatch to ci.yml",
        ),
        (
            CI.replace("checkout@v4\n", "checkout@v4\n        with:\n          persist-credentials: false\n"),
            "ci(workflows): set persist-credentials to false in ci.yml",
        ),
        (CI.replace("  push:\n", ""), "ci(workflows): remove push from ci.yml"),
    ],
)
def test_a_settings_edit_is_named_by_the_keys_it_touches(repo: Repo, after: str, title: str) -> None:
    assert title_of_edit(repo, ".github/workflows/ci.yml", CI, after) == title


def test_a_comment_after_a_setting_is_no_part_of_its_value(repo: Repo) -> None:
    """fd's ``osx_image: xcode11.4 # Catalina`` was titled ``Set osx_image to xcode11.4 # Catalina``."""
    travis = "matrix:\n  include:\n    - os: osx\n{image}      rust: stable\n"
    assert (
        title_of_edit(
            repo, ".travis.yml", travis.format(image=""), travis.format(image="      osx_image: xcode11.4 # Catalina\n")
        )
        == "ci(travis): set osx_image to xcode11.4 in .travis.yml"
    )


def test_a_code_example_added_to_a_docs_section_is_an_example_there(repo: Repo) -> None:
    """starlette's ``Add example on how to use SessionMiddleware`` was titled ``Add SessionMiddleware
    to SessionMiddleware in middleware.md``: the section's own name, read from the example's code."""
    page = "# Middleware\n\n## SessionMiddleware\n\nAdds sessions.\n\n{example}## CORSMiddleware\n\nAdds CORS.\n"
    example = (
        "```python\nfrom starlette.middleware.sessions import SessionMiddleware\n\n"
        "middleware = [Middleware(SessionMiddleware, secret_key=...)]\n```\n\n"
    )
    repo.write("docs/middleware.md", page.format(example=""))
    repo.commit()
    repo.write("docs/middleware.md", page.format(example=example))
    session = Session.open(str(repo.path))
    assert [p.title for p in session.propose_commits()] == [
        "docs(middleware): add an example to SessionMiddleware in middleware.md"
    ]


def test_a_toml_table_added_whole_is_named_by_its_header(repo: Repo) -> None:
    """fd's ``[badges]`` table was ``Add 3 lines to Cargo.toml``."""
    cargo = '[package]\nname = "fd-find"\nlicense = "MIT"\n'
    badges = '\n[badges]\nappveyor = { repository = "sharkdp/fd" }\ntravis-ci = { repository = "sharkdp/fd" }\n'
    assert title_of_edit(repo, "Cargo.toml", cargo, cargo + badges) == "build(cargo): add badges to Cargo.toml"


def test_a_workflow_that_runs_tests_is_ci_and_its_action_bump_a_bump(repo: Repo) -> None:
    """``uvloop_test.yml`` is a workflow, not a test: the action it moves, with the setting
    the new version takes, is bumped in every workflow."""
    for name in ("ci.yml", "uvloop_test.yml"):
        repo.write(f".github/workflows/{name}", CI.replace("checkout@v4", "setup-python@v3"))
    repo.commit()
    for name in ("ci.yml", "uvloop_test.yml"):
        repo.write(
            f".github/workflows/{name}",
            CI.replace("checkout@v4\n", 'setup-python@v4\n        with:\n          python-version: "*"\n'),
        )
    assert message_for(repo).title == "build(deps): bump actions/setup-python from 3 to 4"


def test_a_setting_changed_in_pyproject_is_set(repo: Repo) -> None:
    before = '[tool.semantic_release]\nbranch = "main"\nupload_to_pypi = true\n'
    assert (
        title_of_edit(repo, "pyproject.toml", before, before.replace("main", "trunk"))
        == "build(pyproject): set branch to trunk in pyproject.toml"
    )


def test_tests_are_scoped_by_what_they_test(repo: Repo) -> None:
    repo.write("tests/test_config.py", "import config\n")
    repo.commit()
    repo.write(
        "tests/test_config.py", "import config\n\n\ndef test_parse_empty():\n    assert config.parse('') == {}\n"
    )
    assert message_for(repo).title == "test(config): add test for parse empty"


def test_go_tests_added_are_named_by_what_their_names_share(repo: Repo) -> None:
    repo.write("fish_test.go", "package cobra\n")
    repo.commit()
    repo.write(
        "fish_test.go",
        "package cobra\n\nfunc TestGenFishCompletionFile(t *testing.T) {\n}\n\n"
        "func TestFailGenFishCompletionFile(t *testing.T) {\n}\n",
    )
    assert message_for(repo).title == "test(fish): add tests for gen fish completion file"


def test_a_go_function_type_is_a_definition_and_func_no_name(repo: Repo) -> None:
    # cobra's ``type CompletionFunc func(...) (...)`` was read as a C function named ``func``
    added = (
        "package cobra\n\n// CompletionFunc provides completion results.\n"
        "type CompletionFunc func(cmd *Command, args []string, toComplete string) ([]string, ShellCompDirective)\n"
    )
    facts, title = titled(repo, "completions.go", "package cobra\n", added)
    assert facts.added_defs == ["CompletionFunc"]
    assert "CompletionFunc" in title


def test_one_test_edited_is_named_by_its_name_in_words(repo: Repo) -> None:
    suite = "def test_elapsed_delay():\n    assert elapsed() > 0\n\n\ndef test_other():\n    assert 1\n"
    repo.write("tests/test_client.py", suite)
    repo.commit()
    repo.write("tests/test_client.py", suite.replace("elapsed() > 0", "elapsed() >= 0.1"))
    assert message_for(repo).title == "test(client): update test for elapsed delay"


def test_a_tests_name_reads_as_words_its_acronyms_as_written() -> None:
    assert [words_of_test(n) for n in ("test_parse_empty", "TestHTTPServer", "TestSetOut")] == [
        "parse empty",
        "HTTP server",
        "set out",
    ]
    assert not any(map(is_test_name, ("Testament", "testing", "contest_x")))


def test_new_test_cases_are_tests_added_not_updated(repo: Repo) -> None:
    suite = "describe('res.type()', function () {\n  it('should set the type', function () {})\n})\n"
    repo.write("test/res.type.js", suite)
    repo.commit()
    repo.write("test/res.type.js", suite.replace("})\n})", "})\n  it('should keep a charset', function () {})\n})"))
    assert message_for(repo).title == "test(res.type): add test for res.type"
    repo.write("test/res.type.js", suite.replace("set the type", "set the content type"))
    assert message_for(repo).title == "test(res.type): update tests for res.type"


def test_consistent_rename_is_a_refactor(repo: Repo) -> None:
    repo.write("lib/a.py", "def load_cfg():\n    pass\n\nx = load_cfg()\n")
    repo.write("lib/b.py", "from a import load_cfg\ny = load_cfg()\n")
    repo.commit()
    repo.write("lib/a.py", "def load_config():\n    pass\n\nx = load_config()\n")
    repo.write("lib/b.py", "from a import load_config\ny = load_config()\n")
    assert message_for(repo).title == "refactor: rename load_cfg to load_config"  # "lib" says nothing


def test_a_word_changed_in_a_docstring_is_docs_not_a_rename(repo: Repo) -> None:
    before = 'def toggle(flag, value):\n    """Turn the flag of."""\n    return value\n'
    after = before.replace("flag of.", "flag off.")
    assert title_of_edit(repo, "lib/flags.py", before, after) == "docs(flags): replace of with off in flags.py"


def test_a_test_added_after_another_changes_only_itself(repo: Repo) -> None:
    repo.write("stats.py", "def average(xs):\n    return sum(xs) / len(xs)\n")
    repo.write(
        "test_stats.py", "from stats import average\n\n\ndef test_average():\n    assert average([1, 2]) == 1.5\n"
    )
    repo.commit()
    repo.write("stats.py", "def average(xs):\n    if not xs:\n        return 0.0\n    return sum(xs) / len(xs)\n")
    repo.write(
        "test_stats.py",
        "from stats import average\n\n\ndef test_average():\n    assert average([1, 2]) == 1.5\n"
        "\n\n@slow\ndef test_average_of_nothing():\n    assert average([]) == 0.0\n",
    )
    # the blank lines and the decorator above the new test are the new test's, not test_average's
    assert message_for(repo).description == "Tested: average of nothing."


def test_a_comment_in_a_settings_file_is_no_heading(repo: Repo) -> None:
    repo.write(".editorconfig", "# http://editorconfig.org\nroot = true\n")
    repo.write("GUIDE.md", "# Guide\n\nSee [the style](http://standardjs.com/) and [semver](http://semver.org/).\n")
    repo.commit()
    repo.write(".editorconfig", "# https://editorconfig.org\nroot = true\n")
    repo.write("GUIDE.md", "# Guide\n\nSee [the style](https://standardjs.com/) and [semver](https://semver.org/).\n")
    assert message_for(repo).title.endswith("docs(editorconfig): fix links in GUIDE.md")  # not "document https://..."


def test_dependency_bump_is_build(repo: Repo) -> None:
    repo.write("requirements.txt", "numpy==1.26.0\nrequests==2.31.0\n")
    repo.commit()
    repo.write("requirements.txt", "numpy==2.1.0\nrequests==2.31.0\n")
    assert message_for(repo).title == "build(deps): bump numpy from 1.26.0 to 2.1.0"


def test_a_go_module_is_bumped_by_its_whole_path(repo: Repo) -> None:
    repo.write("go.mod", "module x\n\ngo 1.21\n\nrequire github.com/spf13/cobra v1.7.0\n")
    repo.write("go.sum", "github.com/spf13/cobra v1.7.0 h1:abc=\ngithub.com/spf13/cobra v1.7.0/go.mod h1:def=\n")
    repo.commit()
    repo.write("go.mod", "module x\n\ngo 1.21\n\nrequire github.com/spf13/cobra v1.8.0\n")
    repo.write("go.sum", "github.com/spf13/cobra v1.8.0 h1:abc=\ngithub.com/spf13/cobra v1.8.0/go.mod h1:def=\n")
    assert message_for(repo).title == "build(deps): bump github.com/spf13/cobra from 1.7.0 to 1.8.0"


PRE_COMMIT = """repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: {ruff}
    hooks:
      - id: ruff
  - repo: local
    hooks:
      - id: mypy
"""


def test_a_pre_commit_hook_moved_to_a_new_rev_is_a_bump_of_its_repository(repo: Repo) -> None:
    repo.write(".pre-commit-config.yaml", PRE_COMMIT.format(ruff="v0.4.9"))
    repo.commit()
    repo.write(".pre-commit-config.yaml", PRE_COMMIT.format(ruff="v0.5.0"))
    assert message_for(repo).title == "build(deps): bump astral-sh/ruff-pre-commit from 0.4.9 to 0.5.0"


def test_a_frozen_pre_commit_hook_is_bumped_by_the_version_in_its_comment(repo: Repo) -> None:
    repo.write(
        ".pre-commit-config.yaml", PRE_COMMIT.format(ruff="3b4bc031619cde2e0a9f3c4441ac7cc8227245a4  # frozen: v0.14.1")
    )
    repo.commit()
    repo.write(
        ".pre-commit-config.yaml", PRE_COMMIT.format(ruff="488940d9de1b658fac229e34c521d75a6ea476f2  # frozen: v0.14.5")
    )
    assert message_for(repo).title == "build(deps): bump astral-sh/ruff-pre-commit from 0.14.1 to 0.14.5"


def test_whitespace_only_is_style(repo: Repo) -> None:
    repo.write("m.py", "x = [1,2,3]\n")
    repo.commit()
    repo.write("m.py", "x = [1, 2, 3]\n")
    assert message_for(repo).title == "style(m): format m.py"


def test_deleted_files_are_removed_not_corrected(repo: Repo) -> None:
    repo.write("pkg/old.py", "def gone():\n    return 1\n")
    repo.commit()
    repo.delete("pkg/old.py")
    assert message_for(repo).title == "refactor(old): remove old.py"


def test_a_plan_holding_only_an_edit_of_a_file_deleted_later_modifies_it(repo: Repo) -> None:
    """Staged with an edit, then deleted in the work tree: the edit's plan changes the file;
    only the plan holding the deletion removes it."""
    repo.write("b/b.txt", "one\ntwo\n")
    repo.commit()
    repo.write("b/b.txt", "one\ntwo\nthree\n")
    repo.add("b/b.txt")
    repo.delete("b/b.txt")
    session = Session.open(str(repo.path))
    one_group_per_hunk(session)
    edit, deletion = session.propose_commits()
    assert edit.hunk_ids == ["change-1:1"]
    assert "remove" not in edit.title and edit.title.endswith("update b.txt")
    assert edit.description == ""  # git says which file and how many lines
    assert deletion.title.endswith("remove b.txt") and deletion.description == ""
    session.apply_commit(edit.id)
    assert repo.git("show", "--format=", "--name-status", "HEAD").split() == ["M", "b/b.txt"]


def test_a_plan_holding_only_an_edit_of_a_file_created_in_another_plan_updates_it(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.commit()
    repo.write("notes/b.txt", "one\ntwo\n")
    repo.add("notes/b.txt")
    repo.write("notes/b.txt", "one\ntwo\nthree\n")
    session = Session.open(str(repo.path))
    one_group_per_hunk(session)
    creation, edit = session.propose_commits()
    assert creation.title.endswith("add b.txt") and creation.description == ""
    assert edit.title.endswith("update b.txt") and edit.description == ""


def test_workflow_change_is_ci(repo: Repo) -> None:
    repo.write(".github/workflows/test.yml", "on: push\n")
    repo.commit()
    repo.write(".github/workflows/test.yml", "on: [push, pull_request]\n")
    assert message_for(repo).title.startswith("ci")


@pytest.mark.parametrize("long_name", ["a" * 120])
def test_title_fits_72_characters(repo: Repo, long_name: str) -> None:
    repo.write("pkg/m.py", "pass\n")
    repo.commit()
    repo.write("pkg/m.py", f"pass\n\n\ndef {long_name}():\n    pass\n")
    title = message_for(repo).title
    assert len(title) <= 72 and "…" not in title and title == "feat(m): add a definition"


def test_submodule_pointer_change_names_the_new_commit(repo: Repo, tmp_path) -> None:
    inner = repo.add_submodule(tmp_path / "sub-origin", "sub")
    inner.write("s.txt", "2\n")
    new = inner.commit("s2")
    inner.write("s.txt", "local edit\n")  # the checkout is dirty too
    # Not "refactor(sub): rename <sha> to <sha>" with the leading digits cut.
    assert message_for(repo).title == f"chore(sub): update submodule sub to {new[:7]}"


def test_a_release_regenerating_its_lock_file_is_still_a_release(repo: Repo) -> None:
    """npm's lock file repeats the project's version, and a release regenerating it moves a
    transitive dependency or two: that is the release, not a bump."""

    def lock(version: str, lodash: str) -> str:
        return (
            '{\n  "name": "shapes",\n  "version": "' + version + '",\n  "packages": {\n    "": {\n'
            '      "name": "shapes",\n      "version": "' + version + '"\n    },\n'
            '    "node_modules/lodash": {\n      "version": "' + lodash + '"\n    }\n  }\n}\n'
        )

    repo.write("CHANGELOG.md", "# Changelog\n\n## 1.1.0\n\n* first\n")
    repo.write("package.json", '{\n  "name": "shapes",\n  "version": "1.1.0"\n}\n')
    repo.write("package-lock.json", lock("1.1.0", "4.18.1"))
    repo.commit()
    repo.write("CHANGELOG.md", "# Changelog\n\n## 1.2.0\n\n* second\n\n## 1.1.0\n\n* first\n")
    repo.write("package.json", '{\n  "name": "shapes",\n  "version": "1.2.0"\n}\n')
    repo.write("package-lock.json", lock("1.2.0", "4.17.23"))
    cs = capture(Git.discover(repo.path))
    assert "release 1.2.0" in offline_message([(c, c.hunks) for c in cs.changes]).title


def test_a_toolchain_raised_beside_pinned_requirements_leaves_their_bumps_theirs(repo: Repo) -> None:
    """blinker 1.7.0 raised ``requires-python`` (and mypy's ``python_version``) in pyproject.toml as
    pip-compile moved twenty pins: the title was "bump requires-python and python_version", the pins
    read as what those two pulled in."""

    def pins(build: str, click: str) -> str:
        return (
            f"# This file is autogenerated by pip-compile-multi\nbuild=={build}\n    # via pip-tools\nclick=={click}\n"
        )

    def pyproject(python: str) -> str:
        return (
            f'[project]\nname = "blinker"\nrequires-python = ">={python}"\n\n[tool.mypy]\npython_version = "{python}"\n'
        )

    facts, _ = edited(
        repo,
        {
            "pyproject.toml": (pyproject("3.7"), pyproject("3.8")),
            "requirements/dev.txt": (pins("0.10.0", "8.1.3"), pins("1.0.3", "8.1.7")),
        },
    )
    assert {"build", "click"} <= {b.name for b in facts.bumps}


def test_the_python_a_tool_checks_for_is_no_dependency_bumped(repo: Repo) -> None:
    """build 1.2.0 moved mypy and the Python mypy checks for: "bump mypy and python_version"."""

    def pyproject(mypy: str, python: str) -> str:
        return f'[project.optional-dependencies]\ntyping = ["mypy ~= {mypy}"]\n\n[tool.mypy]\npython_version = "{python}"\n'

    facts, title = edited(repo, {"pyproject.toml": (pyproject("1.5.0", "3.7"), pyproject("1.9.0", "3.8"))})
    assert [b.name for b in facts.bumps] == ["mypy"]
    assert "python_version" not in title, title


def test_a_version_in_a_dependencys_own_cargo_table_is_that_dependency_not_a_release(repo: Repo) -> None:
    """fd's ``[dependencies.clap]`` table moved ``version = "3.0"`` to ``"3.1"``: a bump of clap,
    once titled "Release 3.1"; the ``[package]`` table's version is still the project's own."""

    def cargo(own: str, clap: str) -> str:
        return (
            f'[package]\nname = "fd-find"\nversion = "{own}"\n\n[dependencies]\nregex = "1.5"\n\n'
            f'[dependencies.clap]\nversion = "{clap}"\nfeatures = ["suggestions"]\n\n[dev-dependencies]\ntempdir = "0.3"\n'
        )

    repo.write("Cargo.toml", cargo("8.3.0", "3.0"))
    repo.commit()
    repo.write("Cargo.toml", cargo("8.3.0", "3.1"))
    title = offline_message([(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]).title
    assert "clap from 3.0 to 3.1" in title and "release" not in title.lower()
    repo.write("Cargo.toml", cargo("8.4.0", "3.0"))
    title = offline_message([(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]).title
    assert "8.4.0" in title and "clap" not in title


def test_a_version_put_back_is_no_release(repo: Repo) -> None:
    """httpx once set ``__version__`` from 0.28.0 back to 0.27.2 inside a fix: not "Version 0.27.2"."""
    repo.write("httpx/__version__.py", '__title__ = "httpx"\n__version__ = "0.28.0"\n')
    repo.commit()
    repo.write("httpx/__version__.py", '__title__ = "httpx"\n__version__ = "0.27.2"\n')
    title = offline_message([(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]).title
    assert "release" not in title.lower() and not title.lower().startswith("version")
    repo.write("httpx/__version__.py", '__title__ = "httpx"\n__version__ = "0.28.1"\n')
    title = offline_message([(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]).title
    assert "0.28.1" in title


def test_a_version_in_a_docs_pages_example_is_no_release(repo: Repo) -> None:
    """click's docs once changed an example ``setup(version='0.1')`` to ``'0.1.0'``: not "Release 0.1.0"."""
    page = "Setup\n=====\n\nThese would be the contents of ``setup.py``::\n\n    setup(\n        name='yourpackage',\n        version='{}',\n    )\n"
    repo.write("docs/setuptools.rst", page.format("0.1"))
    repo.commit()
    repo.write("docs/setuptools.rst", page.format("0.1.0"))
    title = message_for(repo).title
    assert "release" not in title.lower() and "0.1.0" not in title.split(":")[0], title


def test_a_release_bumping_a_dependency_too_is_a_release_named_by_its_underlined_heading(repo: Repo) -> None:
    def project(version: str, click: str) -> str:
        return f'[project]\nname = "shapes"\nversion = "{version}"\ndependencies = ["click>={click}"]\n'

    changes = "Changes\n=======\n\nVersion 1.1.0\n-------------\n\n-   First.\n"
    repo.write("CHANGES.rst", changes)
    repo.write("pyproject.toml", project("1.1.0", "8.0"))
    repo.commit()
    repo.write(
        "CHANGES.rst", changes.replace("Version 1.1.0", "Version 1.2.0\n-------------\n\n-   Second.\n\nVersion 1.1.0")
    )
    repo.write("pyproject.toml", project("1.2.0", "8.1"))
    cs = capture(Git.discover(repo.path))
    assert offline_message([(c, c.hunks) for c in cs.changes]).title == "chore(pyproject): release 1.2.0"


def test_a_release_whose_manifest_also_widens_a_bound_is_a_release(repo: Repo) -> None:
    # httpcore 1.0.5: its version, its changelog's "## 1.0.5" and trio's bound "<0.25" to "<0.26"
    def project(trio: str) -> str:
        return f'[project]\nname = "httpcore"\ndynamic = ["version"]\ndependencies = ["trio>=0.22.0,<{trio}"]\n'

    changelog = "# Changelog\n\n## 1.0.4 (February 21st, 2024)\n\n- Add `target` request extension.\n"
    repo.write("CHANGELOG.md", changelog)
    repo.write("pyproject.toml", project("0.25.0"))
    repo.write("httpcore/__init__.py", '__version__ = "1.0.4"\n')
    repo.commit()
    entry = "## 1.0.5 (March 27th, 2024)\n\n- Allow trio `0.25.*` series in package dependencies. (#903)\n\n"
    repo.write("CHANGELOG.md", changelog.replace("## 1.0.4", entry + "## 1.0.4"))
    repo.write("pyproject.toml", project("0.26.0"))
    repo.write("httpcore/__init__.py", '__version__ = "1.0.5"\n')
    assert message_for(repo).title.endswith("release 1.0.5")


def test_a_markdown_heading_underlined_shorter_than_itself_names_the_release(repo: Repo) -> None:
    # finalhandler 1.3.0: "v1.3.0 / 2024-09-03" over 18 "=" (Markdown's setext heading), dependencies bumped
    def package(version: str, mocha: str) -> str:
        return f'{{\n  "name": "finalhandler",\n  "version": "{version}",\n  "devDependencies": {{\n    "mocha": "{mocha}"\n  }}\n}}\n'

    history = "1.2.0 / 2022-03-22\n==================\n\n  * Remove set content headers\n"
    repo.write("HISTORY.md", history)
    repo.write("package.json", package("1.2.0", "9.2.2"))
    repo.commit()
    block = "v1.3.0 / 2024-09-03\n==================\n\n  * ignore status message for HTTP/2 (#53)\n\n"
    repo.write("HISTORY.md", block + history)
    repo.write("package.json", package("1.3.0", "10.0.0"))
    assert message_for(repo).title == "chore(package): release 1.3.0"


def test_the_body_says_why_from_comments_not_from_a_licence_header_or_code_commented_out(repo: Repo) -> None:
    repo.write("x.py", "a = 1\n")
    repo.commit()
    repo.write(
        "pkg/tool.py",
        "# Copyright 2024 Example Corp.\n#\n"
        '# Licensed under the Apache License, Version 2.0 (the "License");\n'
        "# you may not use this file except in compliance with the License.\n\n"
        "def run(retries):\n    # print(debug_value_for_later_use)\n"
        "    # the service drops the first request after a deploy;\n"
        "    # Why not retry forever? Callers time out first\n    return retries\n",
    )
    assert (
        why_of(repo)
        == "The service drops the first request after a deploy. Why not retry forever? Callers time out first."
    )


def test_a_comment_wrapped_over_lines_is_one_sentence_in_the_body(repo: Repo) -> None:
    repo.write("x.py", "a = 1\n")
    repo.commit()
    repo.write(
        "pkg/flags.py",
        "# Sentinel for an option passed as a flag without a\n"
        "# value. Option.consume_value uses it to\n# prompt for one.\nFLAG = object()\n\n"
        "def read(value):\n    # Empty means unset.\n    return value or None\n",
    )
    assert why_of(repo) == (
        "Sentinel for an option passed as a flag without a value. Option.consume_value uses it to prompt for one. "
        "Empty means unset."
    )


def test_a_comment_edited_inside_its_paragraph_or_only_reworded_is_not_quoted_cut(repo: Repo) -> None:
    before = (
        "def run(ctx):\n    # Create a repo object and remember it as the context object.  From\n"
        "    # this point onwards other commands can refer to it.\n    return ctx\n\n\n"
        "def stop(ctx):\n    # Close the repository and forget the context object.  The\n"
        "    # next command opens it again.\n    return None\n"
    )
    repo.write("pkg/repo.py", before)
    repo.commit()
    repo.write(
        "pkg/repo.py",
        before.replace("it as the", "it as as the")
        .replace("return None", "return ctx")
        .replace("Close the repository", "Close the repository first and flush it"),
    )
    assert "\n\n" not in message_for(repo).description  # only reworded
    repo.write(
        "pkg/repo.py", before.replace("    # this point", "    # Flush the cache first.  Then, from\n    # this point")
    )
    assert message_for(repo).description == "Flush the cache first."  # not "... Then, from."


def test_an_ignore_file_edit_is_named_by_the_patterns_it_ignores(repo: Repo) -> None:
    base = "# build output\ndist/\n"
    assert title_of_edit(repo, ".gitignore", base, base + ".venv/\n*.swp\n") == "chore: ignore .venv/ and *.swp"
    assert (
        title_of_edit(repo, ".gitignore", base + ".venv/\n*.swp\n", base + "*.swp\n") == "chore: stop ignoring .venv/"
    )
    assert title_of_edit(repo, ".gitignore", base + "*.swp\n", base + "*.swo\n") == "chore: update .gitignore"
    assert (
        title_of_edit(repo, ".dockerignore", "node_modules\n", "node_modules\n.git\n# local checkouts\n")
        == "chore: ignore .git"
    )
    assert "\n\n" not in message_for(repo).description  # the comment labels a pattern: no why
    repo.delete(".dockerignore")
    assert message_for(repo).title == "chore: remove .dockerignore"  # not "stop ignoring node_modules and .git"


def test_a_file_made_executable_is_named_so(repo: Repo) -> None:
    repo.write("run.sh", "echo hi\n")
    repo.write("tools/gen.py", "print(1)\n", mode=0o755)
    repo.commit()
    (repo.path / "run.sh").chmod(0o755)
    msg = message_for(repo)
    assert (msg.title, msg.description) == ("chore(run): make run.sh executable", "")
    repo.write("tools/gen.py", "#!/usr/bin/env python\nprint(1)\n", mode=0o644)
    assert message_for(repo).description == ""  # the mode's change is git's to show


def test_a_package_init_file_gives_no_scope_of_init(repo: Repo) -> None:
    repo.write("app.py", "x = 1\n")
    repo.commit()
    repo.write("pkg/__init__.py", "VALUE = 1\n")
    assert message_for(repo).title == "feat: add __init__.py"
    repo.write("shop/__main__.py", "from shop import run\n\nrun()\n")
    repo.git("add", "pkg/__init__.py")
    repo.git("commit", "-qm", "feat: add pkg")
    assert message_for(repo).title == "feat(shop): add __main__.py"


def test_a_binary_file_is_said_to_be_binary_not_to_change_no_lines(repo: Repo) -> None:
    repo.write("img/logo.png", b"\x89PNG\r\n\x1a\n\x00\x01")
    repo.commit()
    repo.write("img/logo.png", b"\x89PNG\r\n\x1a\n\x00\x02")
    repo.write("img/icon.png", b"\x89PNG\r\n\x1a\n\x00\x03")
    assert message_for(repo).description == ""


def test_a_symbolic_link_pointed_elsewhere_is_named_so(repo: Repo) -> None:
    repo.write("v1.py", "A = 1\n")
    repo.write("v2.py", "A = 2\n")
    (repo.path / "current.py").symlink_to("v1.py")
    repo.commit()
    (repo.path / "current.py").unlink()
    (repo.path / "current.py").symlink_to("v2.py")
    msg = message_for(repo)
    assert (msg.title, msg.description) == ("chore(current): point current.py to v2.py", "")


@pytest.mark.parametrize(
    "heading",
    ["[Install](#install)", "Install {#install}", '<a name="install"></a>Install', "**Install**", "*Install*"],
)
def test_a_heading_is_named_by_its_words_not_its_markup(repo: Repo, heading: str) -> None:
    assert (
        title_of_edit(repo, "README.md", "# Tool\n", f"# Tool\n\n## {heading}\n\npip install tool\n")
        == "docs(readme): document Install"
    )


def test_a_changelog_heading_linking_its_release_still_names_the_version(repo: Repo) -> None:
    title = title_of_edit(
        repo,
        "CHANGELOG.md",
        "# Changelog\n",
        "# Changelog\n\n## [1.2.0](https://example.com/compare/v1.1.0...v1.2.0) (2026-01-01)\n\n* x\n",
    )
    assert title.endswith("release 1.2.0")


def test_the_plan_holding_a_staged_deletion_of_a_file_made_again_removes_it(repo: Repo) -> None:
    repo.write("b/b.txt", "one\ntwo\n")
    repo.commit()
    repo.git("rm", "-q", "b/b.txt")
    repo.write("b/b.txt", "one\ntwo\nthree\n")
    session = Session.open(str(repo.path))
    one_group_per_hunk(session)
    plans = {p.hunk_ids[0]: p for p in session.propose_commits()}
    deletion = plans["change-1:1"]
    assert deletion.title.endswith("remove b.txt") and deletion.description == ""
    session.apply_commit(deletion.id)
    assert repo.git("show", "--format=", "--name-status", "HEAD").split() == ["D", "b/b.txt"]


def test_the_plan_holding_a_staged_new_file_deleted_later_adds_it(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.commit()
    repo.write("n/new.txt", "a\n")
    repo.add("n/new.txt")
    repo.delete("n/new.txt")
    session = Session.open(str(repo.path))
    one_group_per_hunk(session)
    plans = {p.hunk_ids[0]: p for p in session.propose_commits()}
    creation = plans["change-1:1"]
    assert creation.title.endswith("add new.txt") and creation.description == ""
    session.apply_commit(creation.id)
    assert repo.git("show", "--format=", "--name-status", "HEAD").split() == ["A", "n/new.txt"]


@pytest.mark.parametrize(
    ("path", "before", "case"),
    [
        (
            "src/Button.test.tsx",
            "// tests\n",
            "test('renders twice', () => {\n  expect(Button()).toBe(Button());\n});\n",
        ),
        ("src/api.spec.mjs", "// tests\n", "it('answers twice', () => {\n  expect(api()).toBe(api());\n});\n"),
        ("shop/tests.py", "# tests\n", "def test_price_twice():\n    assert price() == price()\n"),
    ],
)
def test_tests_beside_the_code_are_tests(repo: Repo, path: str, before: str, case: str) -> None:
    title = title_of_edit(repo, path, before, before + case)
    assert title.startswith("test"), title


def test_a_function_only_reformatted_is_not_the_one_named(repo: Repo) -> None:
    before = (
        "def find_merged(labels, per_page=25):\n    return fetch(labels, per_page)\n\n\n"
        + "\n" * 8
        + "def open_pr(options):\n    checkpoint(\n        f'PR {options.url}/{\n            options.number\n"
        "        } remained the same'\n    )\n"
    )
    after = before.replace("per_page=25", "per_page=100").replace(
        "f'PR {options.url}/{\n            options.number\n        } remained the same'",
        "f'PR {options.url}/{options.number} remained the same'",
    )
    assert title_of_edit(repo, "src/github.py", before, after) == "fix(github): correct find_merged"


def test_a_file_rewritten_in_another_format_is_named_a_conversion_not_an_addition(repo: Repo) -> None:
    repo.write("docs/changes.md", "# Changes\n\n## 1.0\n\n- First.\n")
    repo.write("docs/api.md", "# API\n\nCall `run`.\n")
    repo.write("src/shapes.js", "exports.area = (w, h) => w * h\n")
    repo.commit()
    repo.delete("docs/changes.md")
    repo.write("docs/changes.rst", "Changes\n=======\n\n1.0\n---\n\n-   First.\n")
    assert message_for(repo).title == "docs: convert changes.md to changes.rst"
    repo.delete("docs/api.md")
    repo.write("docs/api.rst", "API\n===\n\nCall ``run``.\n")
    assert message_for(repo).title == "docs: convert api.md and changes.md to .rst"
    repo.write("docs/api.md", "# API\n\nCall `run`.\n")
    repo.delete("docs/api.rst")
    repo.write("docs/index.rst", "Index\n=====\n")
    assert "convert" not in message_for(repo).title  # a page added beside it: not only a conversion
    for path in ("docs/index.rst", "docs/changes.rst"):
        repo.delete(path)
    repo.write("docs/changes.md", "# Changes\n\n## 1.0\n\n- First.\n")
    repo.delete("src/shapes.js")
    repo.write("src/shapes.ts", "export const area = (w: number, h: number): number => w * h\n")
    assert message_for(repo).title == "refactor: convert shapes.js to shapes.ts"


def test_a_file_renamed_with_a_line_edited_is_named_by_its_rename(repo: Repo) -> None:
    body = "def load_cfg(path):\n    with open(path) as f:\n        return f.read()\n\n\ndef other():\n    return 1\n"
    repo.write("src/config_loader.py", body)
    repo.commit()
    repo.delete("src/config_loader.py")
    repo.write("src/settings.py", body.replace("f.read()", "f.read().strip()"))
    repo.git("add", "-A")
    assert message_for(repo).title == "refactor(settings): rename config_loader.py to settings.py"
    repo.write(
        "src/settings.py", body.replace("f.read()", "f.read().strip()").replace("return 1", "return 2\n    # two")
    )
    repo.git("add", "-A")
    assert "rename" not in message_for(repo).title  # more than a line or two edited: named by the edit


def test_words_in_a_docstring_or_a_callback_are_not_definitions(repo: Repo) -> None:
    assert (
        title_of_edit(
            repo,
            "pkg/utils.py",
            "import os\n",
            'import os\n\n\ndef format_filename(name):\n    """Formats a filename.  The main purpose of this\n'
            '    function is to ensure that it can be shown.\n    """\n    return name\n',
        )
        == "feat(utils): add format_filename"
    )
    assert (
        title_of_edit(
            repo,
            "lib/list.js",
            "exports.all = function(items){\n  return items\n}\n",
            "exports.all = function(items){\n  $(items).each(function(item){\n    log(item)\n  })\n  return items\n}\n",
        )
        == "fix(list): correct all"
    )


def test_a_value_or_a_comment_word_swapped_is_no_rename(repo: Repo) -> None:
    title = title_of_edit(
        repo,
        "pkg/run.py",
        "def run(fast=None):\n    return go(fast=None)\n",
        "def run(fast=False):\n    return go(fast=False)\n",
    )
    assert "rename" not in title and "None" not in title
    title = title_of_edit(
        repo, "pkg/walk.go", "// Walk return the files\nfunc Walk() {}\n", "// Walk returns the files\nfunc Walk() {}\n"
    )
    assert "rename" not in title


def test_restructuredtext_literals_are_one_code_span(repo: Repo) -> None:
    assert (
        title_of_edit(
            repo,
            "docs/quickstart.rst",
            "Examples\n\n*   ``complex``: `Complex example\n    <https://example.org/complex>`_\n",
            "Examples\n\n*   ``complex``: `Complex example\n    <https://example.org/complex>`_\n"
            "*   ``colors``: `Colors example\n    <https://example.org/colors>`_\n",
        )
        == "docs(quickstart): add colors to quickstart.rst"
    )  # not "colors and :"
    assert (
        title_of_edit(
            repo,
            "docs/config.rst",
            "Config\n======\n",
            "Config\n======\n\n``PYPI_TOKEN``\n--------------\n\nThe token.\n",
        )
        == "docs(config): document `PYPI_TOKEN`"
    )


def test_a_heading_only_recapitalized_documents_nothing_new(repo: Repo) -> None:
    title = title_of_edit(
        repo, "README.md", "# Tool\n\n### on Linux or macOS\n\nmake\n", "# Tool\n\n### On Linux or macOS\n\nmake\n"
    )
    assert "document" not in title and "section" not in title, title


def test_a_page_edited_in_one_section_is_named_by_its_title(repo: Repo) -> None:
    page = "# Tool\n\n## Install\n\nRun the installer.\n" + "\n" * 8 + "## Usage\n\nCall the tool.\n"
    repo.write("README.md", page)
    repo.commit()
    repo.write("README.md", page.replace("Run the installer.", "Run the installer as root."))
    plans = Session.open(str(repo.path)).propose_commits()
    assert [p.title for p in plans] == ["docs(readme): update Install in README.md"]


def test_a_word_only_recased_is_neither_added_nor_removed(repo: Repo) -> None:
    title = title_of_edit(
        repo,
        "README.md",
        "# Tool\n\n## Installation and Usage\n\nRun it.\n",
        "# Tool\n\n## Installation and usage\n\nRun it.\n",
    )
    assert "Usage" not in title and "remove" not in title, title


def test_headings_a_changelog_gains_document_nothing(repo: Repo) -> None:
    title = title_of_edit(
        repo,
        "CHANGELOG.md",
        "# Upcoming release\n\n## Features\n\n- Faster.\n",
        "# Upcoming release\n\n## Features\n## Bugfixes\n\n# Earlier\n\n## Features\n\n- Faster.\n",
    )
    assert title == "docs(changelog): update CHANGELOG.md", title  # not "document Features and Bugfixes"


@pytest.mark.parametrize(
    ("before", "after", "version"),
    [
        (
            "Version 8.3.2\n-------------\n\nReleased 2026-04-02\n\n-   Fix a.\n",
            "Version 8.3.3\n-------------\n\nUnreleased\n\n-   Fix b.\n\n"
            "Version 8.3.2\n-------------\n\nReleased 2026-04-02\n\n-   Fix a.\n",
            "8.3.3",
        ),
        (
            "# Changelog\n\n## 2.0.0\n\n- Fix a.\n",
            "# Changelog\n\n## 2.1.0 (unreleased)\n\n- Fix b.\n\n## 2.0.0\n\n- Fix a.\n",
            "2.1.0",
        ),
    ],
)
def test_a_changelog_section_opened_for_changes_to_come_is_no_release(
    repo: Repo, before: str, after: str, version: str
) -> None:
    """Pallets' ``Version 8.3.3`` over ``Unreleased``, Markdown's ``## 2.1.0 (unreleased)``:
    a section opened, the version not released."""
    repo.write("CHANGES.md", before)
    repo.commit()
    repo.write("CHANGES.md", after)
    assert message_for(repo).title == f"docs(changes): add unreleased {version} section to CHANGES.md"


def test_a_changelog_s_empty_upcoming_release_section_is_a_section_opened_not_comments(repo: Repo) -> None:
    # fd's "# Upcoming release" over empty "## Features", "## Bugfixes": titled "Add comments to CHANGELOG.md"
    repo.write("CHANGELOG.md", "# v8.5.1\n\n## Bugfixes\n\n- Fix a.\n")
    repo.commit()
    repo.write(
        "CHANGELOG.md", "# Upcoming release\n\n## Features\n\n\n## Bugfixes\n\n\n# v8.5.1\n\n## Bugfixes\n\n- Fix a.\n"
    )
    assert message_for(repo).title == "docs(changelog): add unreleased section to CHANGELOG.md"


def test_headings_added_to_markdown_are_no_comments() -> None:
    assert lines_named(["## Features", "", "## Bugfixes"], markdown=True) == "headings"
    assert lines_named(["# Features", "# Bugfixes"]) == "comments"  # in code, ``#`` opens a comment


@pytest.mark.parametrize(("quoted", "released"), [("2.1.0", True), ("2.0.5", False)])
def test_a_release_whose_docs_quote_its_new_version_is_a_release(repo: Repo, quoted: str, released: bool) -> None:
    """black's ``## Unreleased`` -> ``## 25.9.0``, its docs' ``rev: 25.1.0`` -> ``rev: 25.9.0``
    (the version comes from a tag, so no manifest sets it); docs quoting another version are
    no part of it."""
    changes = "# Changes\n\n## {}\n\n- Remove the old parser.\n\n## 2.0.0\n\n- First.\n"
    hook = (
        "```yaml\nrepos:\n  - repo: https://github.com/psf/black-pre-commit-mirror\n    rev: {0}\n```\n\n"
        "Or install the package: `sudo dpkg -i black_{0}_amd64.deb`.\n"  # a version inside a file name
    )
    repo.write("CHANGES.md", changes.format("Unreleased"))
    repo.write("docs/integrations.md", "# Integrations\n\n" + hook.format("2.0.0"))
    repo.commit()
    repo.write("CHANGES.md", changes.format("2.1.0"))
    repo.write("docs/integrations.md", "# Integrations\n\n" + hook.format(quoted))
    assert (message_for(repo).title == "chore: release 2.1.0") is released


def test_a_release_setting_its_code_version_and_quoting_it_in_docs_is_a_release(repo: Repo) -> None:
    """python-semantic-release's 9.9.0 sets ``__version__``, ``pyproject.toml`` and its docs'
    ``uses: python-semantic-release/python-semantic-release@v9.9.0``: the docs' quote is the
    release's own version, no bump (it was titled by a changelog line, ``resolves``)."""
    docs = "Use it:\n\n```yaml\n- uses: python-semantic-release/python-semantic-release@v{}\n```\n"
    changes = "# CHANGELOG\n\n## v9.8.9 (2024-09-27)\n\n* docs: fix it\n"
    repo.write("CHANGELOG.md", changes)
    repo.write("pyproject.toml", '[project]\nname = "python-semantic-release"\nversion = "9.8.9"\n')
    repo.write("semantic_release/__init__.py", '__version__ = "9.8.9"\n')
    repo.write("docs/github-actions.md", docs.format("9.8.9"))
    repo.commit()
    new_section = "## v9.9.0 (2024-09-28)\n\n* docs: clarify the usage docs (#1011)\n\n  Resolves: #907\n\n"
    repo.write("CHANGELOG.md", changes.replace("## v9.8.9", new_section + "## v9.8.9"))
    repo.write("pyproject.toml", '[project]\nname = "python-semantic-release"\nversion = "9.9.0"\n')
    repo.write("semantic_release/__init__.py", '__version__ = "9.9.0"\n')
    repo.write("docs/github-actions.md", docs.format("9.9.0"))
    assert message_for(repo).title == "chore: release 9.9.0"


@pytest.mark.parametrize("version", ["21.12b0", "2.1.0rc1", "2.1.0.post1"])
def test_a_pre_release_is_a_release_too(repo: Repo, version: str) -> None:
    """black's ``## Unreleased`` -> ``## 21.12b0``, ``rev: 21.11b1`` -> ``rev: 21.12b0`` (PEP 440)."""
    changes = "# Changes\n\n## {}\n\n- Remove the old parser.\n\n## 21.11b1\n\n- First.\n"
    repo.write("CHANGES.md", changes.format("Unreleased"))
    repo.write("docs/integrations.md", "# Integrations\n\n```yaml\n    rev: 21.11b1\n```\n")
    repo.commit()
    repo.write("CHANGES.md", changes.format(version))
    repo.write("docs/integrations.md", f"# Integrations\n\n```yaml\n    rev: {version}\n```\n")
    assert message_for(repo).title == f"chore: release {version}"


def test_a_github_expressions_functions_are_no_names_a_change_adds(repo: Repo) -> None:
    matrix = '    strategy:\n      matrix:\n        python: ["3.12", "3.13"]\n'
    steps = "".join(f"      - run: scripts/{step}\n" for step in ("install", "check", "build", "test"))
    workflow = f"jobs:\n  tests:\n    runs-on: ubuntu-latest\n{matrix}\n    steps:\n{steps}"
    repo.write(".github/workflows/test.yml", workflow)
    repo.commit()
    check = "  check:\n    needs: [tests]\n    steps:\n      - uses: re-actors/alls-green@v1\n        with:\n          jobs: ${{ toJSON(needs) }}\n"
    repo.write(".github/workflows/test.yml", workflow.replace('"3.13"]', '"3.13", "3.14"]') + "\n" + check)
    cs = capture(Git.discover(repo.path))
    plain = HouseStyle(seen=30, conventional=0, capitalized=1.0)
    assert "toJSON" not in offline_message([(c, c.hunks) for c in cs.changes], style=plain).title


def test_a_docs_term_holding_a_colon_keeps_its_backticks(repo: Repo) -> None:
    labels = "## Labels\n\n- **`skip news`**: for trivial pull requests\n"
    repo.write("docs/triage.md", labels)
    repo.commit()
    repo.write("docs/triage.md", labels + "- **`ci: build all wheels`**: when a full wheel build is needed\n")
    cs = capture(Git.discover(repo.path))
    plain = HouseStyle(seen=30, conventional=0, capitalized=1.0)
    assert offline_message([(c, c.hunks) for c in cs.changes], style=plain).title == (
        "Add `ci: build all wheels` to triage.md"
    )


def test_a_module_named_changelog_is_titled_by_its_code(repo: Repo) -> None:
    # python-semantic-release's changelog command was titled by one of its lines, read as an entry:
    # `fix(version): from git import Repo with Repo(str(runtime.repo_dir))`
    before = "def changelog(ctx):\n    repo = ctx.repo\n    return repo\n"
    after = "from git import Repo\n\n\ndef changelog(ctx):\n    with Repo(str(ctx.repo_dir)) as git_repo:\n        return git_repo\n"
    facts, title = titled(repo, "semantic_release/cli/commands/changelog.py", before, after)
    assert facts.changelog_entries == []
    assert "from git import" not in title, title


def test_a_page_deleted_with_its_table_of_contents_entry_is_the_page_removed(repo: Repo) -> None:
    """click's ``remove old upgrading notes`` (it read ``Remove run_server from index.rst and
    upgrading.rst``, a name from the page's own example)."""
    repo.write("docs/index.rst", "Docs\n====\n\n.. toctree::\n\n   quickstart\n   upgrading\n   license\n")
    repo.write(
        "docs/upgrading.rst", "Upgrading\n=========\n\n.. code-block:: python\n\n    def run_server():\n        pass\n"
    )
    repo.commit()
    repo.delete("docs/upgrading.rst")
    repo.write("docs/index.rst", "Docs\n====\n\n.. toctree::\n\n   quickstart\n   license\n")
    assert message_for(repo).title == "docs: remove upgrading.rst"


def test_prose_only_rewrapped_is_formatted_not_cut(repo: Repo) -> None:
    """httpx's ``Fix up license whitespacing``: each paragraph joined onto one line, every word
    kept (it read ``Drop 20 lines from LICENSE.md``)."""
    words = "Redistribution and use in source and binary forms, with or without modification, are permitted."
    wrapped = "\n".join(textwrap.wrap(words, 40))
    repo.write("LICENSE.md", f"Copyright 2019.\n\n{wrapped}\n\n{wrapped}\n")
    repo.commit()
    repo.write("LICENSE.md", f"Copyright 2019.\n\n{words}\n\n{words}\n")
    assert message_for(repo).title.split(": ", 1)[1] == "format LICENSE.md"
