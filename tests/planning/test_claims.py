"""A title's verb is a claim the diff backs: Format, Rename and Fix only with their evidence."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.claims import same_tokens, tokens
from segmint_core.planning.conventional import parse_subject
from segmint_core.planning.enclosing import Sections
from segmint_core.planning.facts import names_only_in
from segmint_core.planning.style import DEFAULT, HouseStyle
from segmint_core.planning.titles import TITLE_LIMIT
from segmint_core.planning.voice import FORMATTING, lowered
from segmint_core.planning.writer import read_plan
from tests.support.repo import Repo

PLAIN = HouseStyle(seen=30, conventional=0, capitalized=1.0)  # "Add x", "Update y": no type prefix


def title(repo: Repo, style: HouseStyle = DEFAULT) -> str:
    """The title as the planner writes it: each hunk read in its file (``Sections``) first."""
    git = Git.discover(repo.path)
    cs = capture(git)
    sections = Sections(cs.changes, git)
    parts = sections.resolve([(c, c.hunks) for c in cs.changes])
    return offline_message(parts, style=style, old_text=sections.old_text).title


def edit(repo: Repo, path: str, before: str, after: str, style: HouseStyle = DEFAULT) -> str:
    repo.write(path, before)
    repo.commit()
    repo.write(path, after)
    return title(repo, style)


def test_tokens_are_read_with_the_files_lexer() -> None:
    assert same_tokens("a.py", ["x = f('a', b)"], ["x = f(", '    "a",', "    b,", ")"])  # black's layout
    assert not same_tokens("a.py", ['x = ["a", "b"]'], ['x = ["a" "b"]'])  # two strings made one
    assert not same_tokens("a.py", ['x = "a b"'], ['x = "a  b"'])  # a string's spaces are its value
    assert not same_tokens("a.py", ["x = (a,)"], ["x = (a)"])  # a tuple of one is no longer one
    assert same_tokens("a.go", ["x := f(a,b)"], ["x := f(a, b)"])
    assert not same_tokens("a.py", ['q = """', "    a", '"""'], ['q = """', "  a", '"""'])  # however it is cut
    # rustfmt's own move: a line continued by a backslash skips the next one's leading whitespace
    assert same_tokens("a.rs", ['let a = "x \\', '          y";'], ['let a = "x \\', '   y";'])
    assert not same_tokens("a.rs", ['let a = "x', '          y";'], ['let a = "x', '   y";'])
    assert tokens("notes.unknown-kind", ["a"]) is None


def test_a_formatter_run_is_formatting(repo: Repo) -> None:
    before = "def call(a, b):\n    return request('get', a, b)\n"
    after = 'def call(a, b):\n    return request(\n        "get",\n        a,\n        b,\n    )\n'
    assert edit(repo, "pkg/api.py", before, after, PLAIN) == "Format api.py"


def test_a_comma_dropped_between_two_strings_is_no_formatting(repo: Repo) -> None:
    before = 'NAMES = [\n    "alpha",\n    "beta",\n]\n'
    after = 'NAMES = [\n    "alpha"\n    "beta",\n]\n'
    assert not edit(repo, "pkg/names.py", before, after, PLAIN).startswith("Format")
    assert parse_subject(title(repo)).text.split(" ", 1)[0] not in FORMATTING


def test_spaces_inside_a_string_are_no_formatting(repo: Repo) -> None:
    before = 'def greet():\n    return "hello  world"\n'
    after = 'def greet():\n    return "hello world"\n'
    assert not edit(repo, "pkg/greet.py", before, after, PLAIN).startswith("Format")


TEMPLATE = "package cmd\n\nfunc usage() string {\n\treturn `Usage:\n  app [command]\n\nAliases:\n  {{.Aliases}}\n{{end}}\nFlags:\n`\n}\n"


def test_a_line_break_taken_out_of_a_multiline_string_is_no_formatting(repo: Repo) -> None:
    # cobra's "Keep only one newline between Aliases and Flags in help": the help text changed
    after = TEMPLATE.replace("  {{.Aliases}}\n{{end}}", "  {{.Aliases}}{{end}}")
    assert not edit(repo, "command.go", TEMPLATE, after, PLAIN).startswith("Format")


def test_indentation_inside_an_unindented_string_is_no_formatting(repo: Repo) -> None:
    before = 'QUERY = """\nselect name,\n  email\nfrom users\n"""\n\n\ndef run(db):\n    return db.execute(QUERY)\n'
    after = before.replace("\n  email\n", "\n    email\n")
    assert not edit(repo, "pkg/users.py", before, after, PLAIN).startswith("Format")


def test_code_reformatted_below_a_multiline_string_is_still_formatting(repo: Repo) -> None:
    before = 'QUERY = """\nselect name\nfrom users\n"""\n\n\ndef run(db):\n    return db.execute(QUERY, limit=1)\n'
    after = before.replace("db.execute(QUERY, limit=1)", "db.execute(\n        QUERY,\n        limit=1,\n    )")
    assert edit(repo, "pkg/users.py", before, after, PLAIN) == "Format users.py"


def test_a_name_replaced_by_one_the_change_does_not_define_is_no_rename(repo: Repo) -> None:
    before = (
        "def strip_color(text):\n    return PATTERN.sub('', text)\n\n\n"
        "def show(text):\n    print(strip_color(text))\n\n\ndef width(text):\n    return len(strip_color(text))\n"
    )
    after = "def show(text):\n    print(strip_ansi(text))\n\n\ndef width(text):\n    return len(strip_ansi(text))\n"
    got = edit(repo, "pkg/term.py", before, after, PLAIN)
    assert not got.startswith("Rename"), got


def test_a_swap_to_a_name_the_file_already_held_is_no_rename(repo: Repo) -> None:
    """express's ``exports.mime = send.mime`` -> ``connect.mime``, in a commit of its own apart from
    the hunk that drops ``send``: ``connect`` stood in the file already, so nothing was renamed."""
    filler = "".join(f"exports.n{i} = {i};\n" for i in range(12))
    top = "var connect = require('connect')\n  , send = require('send')\n  , utils = connect.utils;\n"
    repo.write("lib/express.js", top + filler + "exports.mime = send.mime;\n")
    repo.commit()
    top = "var connect = require('connect')\n  , utils = connect.utils;\n"
    repo.write("lib/express.js", top + filler + "exports.mime = connect.mime;\n")
    (change,) = capture(Git.discover(repo.path)).changes
    assert len(change.hunks) == 2
    got = offline_message([(change, change.hunks[1:])], style=PLAIN).title
    assert got == "Use connect instead of send", got


def test_one_word_respelled_among_new_doc_comments_is_no_typo_fix(repo: Repo) -> None:
    """cobra's "Added godocs to public methods" rewrote a dozen comments and respelled one word
    ("Flage" -> "Flags") on the way: once titled "Fix typo in command.go"."""
    names = ["SetArgs", "SetUsageFunc", "SetHelpFunc", "OutOrStdout", "OutOrStderr", "UsageString", "Root"]
    old = "".join(f"// Can be set by the application.\nfunc (c *Command) {n}() {{\n\treturn\n}}\n\n" for n in names)
    new = "".join(
        f"// {n} can be set by the application.\nfunc (c *Command) {n}() {{\n\t\treturn\n}}\n\n" for n in names
    )
    tail = "// {} returns the complete FlagSet\nfunc (c *Command) Flags() {{\n}}\n"
    before = "package cobra\n\n" + old + tail.format("Flage")
    after = "package cobra\n\n" + new + tail.format("Flags")
    got = edit(repo, "command.go", before, after, PLAIN)
    assert "typo" not in got.lower(), got


def test_a_method_swapped_where_neither_is_defined_is_no_rename(repo: Repo) -> None:
    """express's ``.trimRight()`` -> ``.trimEnd()``: a built-in's name, renamed nowhere."""
    before = (
        "function clean(val) {\n  return val.trimRight();\n}\n\nfunction tidy(val) {\n  return val.trimRight();\n}\n"
    )
    got = edit(repo, "lib/request.js", before, before.replace("trimRight", "trimEnd"), PLAIN)
    assert got == "Use trimEnd instead of trimRight", got


def test_a_variable_renamed_where_it_is_assigned_is_a_rename(repo: Repo) -> None:
    before = "import logging\n\nlog = logging.getLogger(__name__)\n\n\ndef run():\n    log.debug('x')\n"
    got = edit(repo, "pkg/parse.py", before, before.replace("log.", "logger.").replace("log =", "logger ="), PLAIN)
    assert got == "Rename log to logger", got


def test_a_name_swapped_everywhere_is_a_rename(repo: Repo) -> None:
    before = "def load(path):\n    return read(path)\n\n\ndef main():\n    return load('a') + load('b')\n"
    after = "def load_file(path):\n    return read(path)\n\n\ndef main():\n    return load_file('a') + load_file('b')\n"
    assert edit(repo, "pkg/io.py", before, after, PLAIN) == "Rename load to load_file"


def test_a_definition_renamed_while_the_file_still_calls_the_old_name_is_no_rename(repo: Repo) -> None:
    """The old name is not gone: a line far below the hunk (out of its context) still calls it."""
    filler = "".join(f"\n\ndef step{i}():\n    return {i}\n" for i in range(6))
    before = f"def load_config(path):\n    return read(path)\n{filler}\n\ndef main():\n    return load_config('a')\n"
    after = before.replace("def load_config(", "def load_settings(")
    got = edit(repo, "pkg/io.py", before, after, PLAIN)
    assert not got.startswith("Rename"), got
    everywhere = before.replace("load_config", "load_settings")
    assert edit(repo, "pkg/io.py", before, everywhere, PLAIN) == "Rename load_config to load_settings"
    # a docstring's word is no name still written
    told = '"""\nReads what load_config used to read.\n"""\n\n\n'
    assert edit(repo, "pkg/io.py", told + before, told + everywhere, PLAIN) == "Rename load_config to load_settings"


def test_a_plain_edit_of_code_is_no_fix_without_evidence(repo: Repo) -> None:
    before = "def total(items):\n    return sum(items)\n"
    after = "def total(items):\n    values = list(items)\n    return sum(values)\n"
    assert edit(repo, "pkg/maths.py", before, after, PLAIN) == "Update total"


def test_a_condition_rewritten_is_evidence_of_a_fix(repo: Repo) -> None:
    before = "def pick(items, n):\n    if n > len(items):\n        return None\n    return items[n]\n"
    after = "def pick(items, n):\n    if n >= len(items):\n        return None\n    return items[n]\n"
    assert edit(repo, "pkg/pick.py", before, after, PLAIN) == "Fix pick"


def test_the_changelog_entry_the_change_adds_titles_it(repo: Repo) -> None:
    repo.write("CHANGES.rst", "Unreleased\n----------\n\n")
    repo.write("pkg/core.py", "def run(args):\n    return args\n")
    repo.commit()
    repo.write("CHANGES.rst", "Unreleased\n----------\n\n-   Avoid an extra process with one worker. :issue:`12`\n")
    repo.write("pkg/core.py", "def run(args):\n    if len(args) == 1:\n        return args[0]\n    return args\n")
    assert title(repo, PLAIN) == "Avoid an extra process with one worker"


def test_a_changelog_written_whole_gives_only_its_pending_entries(repo: Repo) -> None:
    """cobra's new CHANGELOG.md held its change's entry under ``Pending``, then v1.0.0's notes:
    the change was titled by one of those, ``Fish completion (including support for Go ...)``."""
    repo.write("pkg/man.go", "package doc\n\nfunc tag() bool { return true }\n")
    repo.commit()
    repo.write("pkg/man.go", "package doc\n\nfunc tag(off bool) bool { return !off }\n")
    repo.write(
        "CHANGELOG.md",
        "# Changelog\n\n## Pending\n* Leave out the generated tag when asked\n\n"
        "## v1.0.0\n* Fish completion (including support for Go custom completion)\n* Add a Makefile\n",
    )
    git = Git.discover(repo.path)
    facts = read_plan([(c, c.hunks) for c in capture(git).changes])[0]
    assert facts.changelog_entries == ["Leave out the generated tag when asked"]
    assert title(repo, PLAIN) == "Leave out the generated tag when asked"


_ATOMS = st.sampled_from(["a", "b", "total", "'x'", '"y"', "1", "2.5", "None", "f(a)", "[a, b]", "(a,)"])
_OPS = st.sampled_from([" + ", " - ", ", ", " or ", " == "])


@st.composite
def _lines(draw) -> list[str]:
    count = draw(st.integers(1, 4))
    out = []
    for n in range(count):
        atoms = draw(st.lists(_ATOMS, min_size=1, max_size=4))
        ops = [draw(_OPS) for _ in atoms[1:]]
        expr = atoms[0] + "".join(op + atom for op, atom in zip(ops, atoms[1:]))
        out.append(f"    v{n} = {expr}")
    return out


_EDITS = st.sampled_from(["spaces", "quotes", "comma", "token", "split", "string"])
# a string opened further up than a hunk's context reaches
QUERY = ['    query = """', "    select a,", "      b,", "      c,", "      d,", "      e", "    from t", '    """']


def _string_edited(at: int) -> list[str]:
    """``QUERY`` with whitespace inside its string changed: the string's value."""
    return [*QUERY[:4], "      d, e", *QUERY[6:]] if at % 2 else [*QUERY[:5], "  e", *QUERY[6:]]


def _edited(lines: list[str], how: str, at: int) -> list[str]:
    line = lines[at % len(lines)]
    if how == "spaces":
        new = line.replace(" = ", " =  ").replace(", ", ",")
    elif how == "quotes":
        new = line.replace("'", "\x00").replace('"', "'").replace("\x00", '"')
    elif how == "comma":
        new = line.replace(", ", " ", 1)
    elif how == "token":
        new = line.replace("a", "c", 1) if "a" in line.split("=", 1)[1] else line + " + 1"
    else:
        head, _, expr = line.partition(" = ")
        new = f"{head} = (\n        {expr}\n    )"
    return [*lines[: at % len(lines)], new, *lines[at % len(lines) + 1 :]]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_lines(), _EDITS, st.integers(0, 3), st.booleans())
def test_format_only_for_token_identical_changes_and_every_title_clean(lines, how, at, plain) -> None:
    before = ["def compute(a, b, total):", *lines, *QUERY, "    return v0", ""]
    edited = [*lines, *_string_edited(at)] if how == "string" else [*_edited(lines, how, at), *QUERY]
    after = ["def compute(a, b, total):", *edited, "    return v0", ""]
    assume(before != after)
    with tempfile.TemporaryDirectory() as folder:
        repo = Repo(Path(folder) / "repo")
        repo.write("pkg/compute.py", "\n".join(before))
        repo.commit()
        repo.write("pkg/compute.py", "\n".join(after))
        got = title(repo, PLAIN if plain else DEFAULT)
    identical = tokens("compute.py", before) == tokens("compute.py", after)
    if parse_subject(got).text.split(" ", 1)[0].lower() in FORMATTING:
        assert identical, (before, after, got)
    assert got and "\n" not in got and len(got) <= TITLE_LIMIT and not got.endswith(("...", "…"))


def entries_title(repo: Repo, entries: str, style: HouseStyle = PLAIN) -> str:
    """The title of a code edit that adds ``entries`` (a changelog's added lines) under Unreleased."""
    repo.write("CHANGES.md", "## Unreleased\n\n")
    repo.write("pkg/run.py", "def run(x):\n    return x\n")
    repo.commit()
    repo.write("CHANGES.md", f"## Unreleased\n\n{entries}")
    repo.write("pkg/run.py", "def run(x):\n    return x or None\n")
    return title(repo, style)


def test_a_later_changelog_entry_titles_the_change_where_the_first_is_too_long(repo: Repo) -> None:
    long = (
        "- The temporary file pager backend forwards any parameters the user set in\n"
        "  `PAGER` to the pager command instead of silently dropping them. {pr}`3777`\n"
    )
    entries = f"{long}- Improve raw mode detection by parsing the option tokens.\n"
    assert entries_title(repo, entries) == "Improve raw mode detection by parsing the option tokens"


def test_a_long_entrys_clause_never_ends_inside_a_code_span(repo: Repo) -> None:
    entry = "- Keep the comments above `# fmt: off` blocks: Jupytext's `# %% [markdown]` cells lost them (#4845)\n"
    assert entries_title(repo, entry) == "Keep the comments above `# fmt: off` blocks"


def test_a_long_entry_is_cut_before_the_phrase_that_makes_it_too_long(repo: Repo) -> None:
    entry = (
        "- Fix `fmt_skip_in_one_liners` preview feature to respect `# fmt: skip` for compound\n"
        "  statements with semicolon-separated bodies (#4800)\n"
    )
    assert entries_title(repo, entry) == "Fix `fmt_skip_in_one_liners` preview feature to respect `# fmt: skip`"


def test_a_long_entry_is_cut_before_what_it_says_lies_between(repo: Repo) -> None:
    # black's entry had no place to cut, so the change was titled `Add --preview to CHANGES.md and 2 more files`
    entry = (
        "- Keep requiring two empty lines between module-level docstring and first function or\n"
        "  class definition. (#4028)\n"
    )
    assert entries_title(repo, entry) == "Keep requiring two empty lines"


def test_a_long_entry_is_never_cut_to_a_dangling_word(repo: Repo) -> None:
    entry = "- Allow empty lines at the beginning of all blocks, except immediately before a docstring (#4130)\n"
    assert entries_title(repo, entry) == "Allow empty lines at the beginning of all blocks"
    entry = "- `edit` accepts `os.PathLike` values for `filename`, in addition to strings, like `open` does\n"
    assert entries_title(repo, entry) == "`edit` accepts `os.PathLike` values for `filename`"


def test_a_long_entry_opened_by_a_phrase_before_its_subject_is_cut_from_its_subject(repo: Repo) -> None:
    # black's entry was titled by its opening phrase alone: `In `.pyi` stub files`
    entry = (
        "- In `.pyi` stub files, enforce a blank line after a function that has a docstring\n"
        "  body when another comment or statement follows it (#5158)\n"
    )
    assert entries_title(repo, entry) == "Enforce a blank line after a function that has a docstring body"


def test_a_changelog_entry_led_by_a_name_keeps_its_case(repo: Repo) -> None:
    assert entries_title(repo, "- `ParamType` typing improvements.\n") == "`ParamType` typing improvements"
    lower = HouseStyle(seen=30, conventional=0, capitalized=0.0)
    assert entries_title(repo, "- `ParamType` typing improvements.\n", lower) == "`ParamType` typing improvements"


def test_only_a_word_leading_a_subject_is_lowered() -> None:
    assert [lowered(w) for w in ["Add", "Don't", "Re-enable", "a"]] == ["add", "don't", "re-enable", "a"]
    assert [lowered(w) for w in ["HTTP", "macOS", "`ParamType`", "ParamType", "I"]] == [
        "HTTP",
        "macOS",
        "`ParamType`",
        "ParamType",
        "I",
    ]


def test_a_name_that_repeats_the_verb_is_quoted(repo: Repo) -> None:
    before = "app.error(function(err) {\n  log(err);\n});\n\napp.error(function(err) {\n  send(err);\n});\n"
    got = edit(repo, "examples/app.js", before, before.replace("app.error", "app.use"), PLAIN)
    assert got == "Use `use` instead of error", got


def test_a_comment_reworded_is_updated_not_documented(repo: Repo) -> None:
    body = "    drop(lock)\n    // Generate a command, {} it and store its exit code.\n    results.push(run(value))\n"
    before = "pub fn job(value: u32) {\n" + body.format("executes") + "}\n"
    assert edit(repo, "src/job.rs", before, before.replace("executes", "execute"), PLAIN) == "Update comment in job"
    added = before.replace("    drop(lock)\n", "    drop(lock)\n    // Let other threads read.\n")
    assert edit(repo, "src/job.rs", before, added, PLAIN) == "Add docs to job"


def test_a_name_a_removed_comment_mentions_is_not_what_the_change_removes(repo: Repo) -> None:
    # black's "minor: remove wrong comment in .flake8" was titled `Remove setup.cfg from .flake8`
    config = "[flake8]\nignore = E203, E266\nmax-line-length = 80\n"
    before = "# An example .flake8 config, used when developing itself.\n# Keep in sync with setup.cfg.\n\n" + config
    assert edit(repo, ".flake8", before, config, PLAIN) == "Remove comments from .flake8"


def test_a_flag_a_command_line_passes_is_no_name_the_change_adds() -> None:
    # click's "Test with and without colorama" was titled `Added --editable` (``pip install --editable .``
    # in .travis.yml), express's "Added PREFIX to makefile" `Added -fs to Makefile` (``ln -fs``)
    assert names_only_in(["  - pip install --editable .", "\tln -fs $(PREFIX)/bin"], []) == []
    assert names_only_in(['parser.add_argument("--max-depth", type=int)'], [])[0] == "--max-depth"  # declared
    assert names_only_in(["- Add `--owner` to filter by owner"], []) == ["--owner"]  # documented


def test_comments_reworded_outside_any_definition_are_comments_updated(repo: Repo) -> None:
    # httpx's "doc: Update comments about file types in _types.py" was titled `Fix _types.py`
    before = (
        "FileTypes = Union[\n    # file (or text)\n    FileContent,\n    # (filename, file (or text))\n    Tuple,\n]\n"
    )
    after = before.replace("(or text)", "(or bytes)")
    assert edit(repo, "httpx/_types.py", before, after, PLAIN) == "Update comments in _types.py"


def test_a_tests_comment_reworded_is_a_comment_updated_not_the_test(repo: Repo) -> None:
    # cobra's "chore: fix function name in comment" was titled `Update test for plugin`
    before = (
        "func TestPlugin(t *testing.T) {\n\tcheck(t)\n}\n\n"
        "// TestPlugin checks usage as plugin with sub commands.\nfunc TestPluginWithSubCommands(t *testing.T) {\n}\n"
    )
    after = before.replace("// TestPlugin checks", "// TestPluginWithSubCommands checks")
    assert edit(repo, "command_test.go", before, after, PLAIN) == "Update comment in command_test.go"


def test_explaining_lines_added_are_docs_added_and_rewritten_ones_documented(repo: Repo) -> None:
    # cobra's "Added godocs to public methods." was titled `Document command.go`
    before = "pub fn job(value: u32) {\n    // Run it.\n    run(value)\n}\n"
    grown = before.replace(
        "    // Run it.\n", "    // Run it, once.\n    // Its exit code is kept.\n    // Others wait.\n"
    )
    assert edit(repo, "src/job.rs", before, grown, PLAIN) == "Add docs to job"
    rewritten = before.replace("    // Run it.\n", "    // The value runs once, its exit code kept.\n")
    assert edit(repo, "src/job.rs", before, rewritten, PLAIN) == "Document job"
    typed = HouseStyle(seen=30, conventional=30)
    assert edit(repo, "src/job.rs", before, grown, typed) == "docs: document job"  # not "docs: add docs to job"


def test_a_workflow_step_removed_is_named_by_its_action(repo: Repo) -> None:
    # cobra's "Remove extra actions/checkout" was titled `Remove an entry from test.yml`
    steps = (
        "jobs:\n  lint:\n    steps:\n      - uses: actions/setup-go@v5\n        with:\n          cache: true\n\n"
        "{}      - uses: golangci/golangci-lint-action@v3\n        with:\n          version: latest\n"
    )
    repo.write(".github/workflows/test.yml", steps.format("      - uses: actions/checkout@v4\n\n"))
    repo.commit()
    repo.write(".github/workflows/test.yml", steps.format(""))
    assert title(repo, PLAIN) == "Remove actions/checkout from test.yml"
    repo.commit()
    repo.write(".github/workflows/test.yml", steps.format("").replace("setup-go@v5", "setup-go@v6"))
    assert "setup-go" not in title(repo, PLAIN) or "Bump" in title(repo, PLAIN)  # a new version is a bump
    repo.commit()
    repo.write(".github/workflows/lint.yml", steps.format(""))
    assert title(repo, PLAIN) == "Add lint.yml"  # a new workflow is the file, not its actions


def test_of_a_release_s_entries_the_one_naming_this_code_titles_it(repo: Repo) -> None:
    # pluggy 1.4.0: a release block's four entries went with the warning's code, titled by the unblock entry
    repo.write("CHANGES.md", "## 1.3.0\n\n- Fix a.\n")
    repo.write("pkg/hooks.py", "def call_extra(x):\n    return x\n")
    repo.commit()
    entries = "- Add `PluginManager.unblock` to unblock a plugin.\n- Fix `call_extra()` ordering extra methods first.\n"
    repo.write("CHANGES.md", f"## 1.4.0\n\n{entries}\n## 1.3.0\n\n- Fix a.\n")
    repo.write("pkg/hooks.py", "def call_extra(x):\n    return list(reversed(x))\n")
    assert title(repo, PLAIN) == "Fix `call_extra()` ordering extra methods first"


def test_an_entry_opening_on_an_article_says_what_happens_not_what_the_change_does(repo: Repo) -> None:
    entry = "- A warning `RaisedWarning` is now issued when a hookwrapper raises.\n"
    assert not entries_title(repo, entry).startswith("A warning")
