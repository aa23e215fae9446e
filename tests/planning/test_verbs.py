"""A plain title's lead verb from what the diff does, in the house's own word for it."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.facts import Facts, lines_named, names_only_in
from segmint_core.planning.style import HouseStyle, house_style
from segmint_core.planning.verbs import worded
from tests.support.repo import Repo

PLAIN = HouseStyle(seen=30, conventional=0, capitalized=1.0)


def title(repo: Repo, style: HouseStyle = PLAIN) -> str:
    cs = capture(Git.discover(repo.path))
    return offline_message([(c, c.hunks) for c in cs.changes], style=style).title


def edit(repo: Repo, path: str, before: str, after: str, style: HouseStyle = PLAIN) -> str:
    repo.write(path, before)
    repo.commit()
    repo.write(path, after)
    return title(repo, style)


def test_lines_only_added_lead_with_add_and_name_what_they_add(repo: Repo) -> None:
    before = "make_deb() {\n    cp a b\n}\n"
    after = 'make_deb() {\n    local gcc_prefix="$(gcc_prefix)"\n    cp a b\n}\n'
    assert edit(repo, "ci/deploy.sh", before, after) == "Add gcc_prefix to make_deb"


def test_a_name_that_is_the_place_itself_is_not_what_is_added(repo: Repo) -> None:
    """starlette's check that pyyaml is installed names its function in the message it raises."""
    body = "".join(f"    line{n} = {n}\n" for n in range(6))  # its def line out of the hunk's sight
    before = f"def parse_docstring(func):\n{body}    docstring = func.__doc__\n    return docstring\n"
    after = before.replace(
        "    return", '    assert yaml is not None, "`pyyaml` must be installed to use parse_docstring."\n    return'
    )
    got = edit(repo, "starlette/schemas.py", before, after)
    assert got.startswith("Add ") and not got.startswith("Add parse_docstring to"), got


def test_lines_only_removed_lead_with_remove(repo: Repo) -> None:
    before = "def run(args):\n    check_version(args)\n    legacy_setup(args)\n    return args\n"
    after = "def run(args):\n    check_version(args)\n    return args\n"
    assert edit(repo, "pkg/run.py", before, after) == "Remove legacy_setup from run"


def test_an_existing_file_grown_is_added_to_never_added(repo: Repo) -> None:
    before = "Changes\n=======\n\n- One thing.\n"
    after = "Changes\n=======\n\n- One thing.\n- Another thing.\n- A third thing.\n"
    assert edit(repo, "CHANGES.rst", before, after) == "Add changelog entries"


def test_lines_that_add_no_name_are_said_for_what_they_are(repo: Repo) -> None:
    """Never the object-less "Add to status.py" or "Remove from build_app"."""
    before = 'fn build_app() {\n    arg.long("regex")\n        .help("Perform a search")\n        .hidden(true);\n}\n'
    after = 'fn build_app() {\n    arg.long("regex")\n        .hidden(true);\n}\n'
    assert edit(repo, "src/app.rs", before, after) == "Remove a help text from build_app"
    doc = '"""HTTP codes.\n\nRFC 7231\n"""\nOK = 200\n'
    assert edit(repo, "pkg/status.py", doc, doc.replace("RFC 7231\n", "RFC 7231\nRFC 5842\n")) == (
        "Add a line to status.py"
    )


def test_an_email_address_is_no_name_a_title_gives() -> None:
    """black's contributors list, one commit: once titled "Add iki.fi to Authors in README.md"."""
    lines = ["- [Allan Simon](mailto:allan.simon@supinfo.com)", "- Jon Doe <jon@iki.fi>", "- run_fast helper"]
    assert names_only_in(lines, []) == ["run_fast"]


def test_a_list_grown_by_several_entries_is_named_by_their_count(repo: Repo) -> None:
    before = "# Authors\n\n- Ann Lee\n"
    more = ["[Bob Ray](mailto:bob@ray.net)", "LukasDrude", "Eve Stone", "Ian Oak", "Jo Fir", "Kim Ash", "Lu Elm"]
    after = before + "".join(f"- {name}\n" for name in more)
    assert edit(repo, "README.md", before, after) == "Add 7 entries to README.md"


def test_what_lines_are_is_read_from_the_lines() -> None:
    assert lines_named(["# why this is so"]) == "a comment"
    assert lines_named(["import time", "import os"]) == "imports"
    assert lines_named(["if cmds[i] == c {", '    panic("no")', "}"]) == "a check"
    assert lines_named(['    .help("a")', '    .help("b")']) == "help calls"
    assert lines_named(["- one", "- two"]) == "2 entries"
    assert lines_named(["x = 1", "y = 2", "z = 3"]) == "3 lines"
    assert lines_named(["", "  "]) == ""


def test_an_edit_that_neither_grows_nor_shrinks_stays_an_update(repo: Repo) -> None:
    before = "def total(items):\n    return sum(items)\n"
    after = "def total(items):\n    values = list(items)\n    return sum(values)\n"
    assert edit(repo, "pkg/maths.py", before, after) == "Update total"


def manifest(version: str) -> str:
    return f'{{\n  "dependencies": {{\n    "qs": "{version}"\n  }}\n}}\n'


def test_a_house_that_drops_gets_drop_and_one_that_updates_deps_gets_update(repo: Repo) -> None:
    repo.write("pkg/core.py", "def run(x):\n    return x\n")
    repo.write("package.json", manifest("1.0.0"))
    repo.commit("Add core")
    for n in range(6):
        repo.write(f"pkg/part{n}.py", f"def part{n}():\n    return {n}\n")
        repo.commit(f"Add part{n}")
        repo.delete(f"pkg/part{n}.py")
        repo.commit(f"Drop part{n}")
        repo.write("package.json", manifest(f"1.0.{n + 1}"))
        repo.commit("Update qs")
    style = house_style(Git.discover(repo.path))
    repo.write("pkg/core.py", "def run(x):\n    return x\n\n\ndef legacy(y):\n    return y\n")
    repo.commit("Add legacy")
    repo.write("pkg/core.py", "def run(x):\n    return x\n")
    assert title(repo, style).startswith("Drop ")
    repo.git("checkout", "--", "pkg/core.py")
    repo.write("package.json", manifest("1.1.0"))
    assert title(repo, style) == "Update qs from 1.0.6 to 1.1.0"


def test_names_only_one_side_writes_are_code_names_flags_first() -> None:
    added = ['    .arg(Arg::new("max-depth").long("--maxdepth").alias("max_depth"))', "    self.cache_dir = dir"]
    assert names_only_in(added, ["    .arg(x)"]) == ["--maxdepth", "max_depth", "cache_dir"]
    assert names_only_in(["see e.g. github.com"], []) == []


def test_a_name_respelled_in_one_part_is_a_typo_fixed_not_a_replacement(repo: Repo) -> None:
    before = "def load(x):\n    a = urlib_response(x)\n    return urlib_response(a)\n"
    after = "def load(x):\n    a = urllib_response(x)\n    return urllib_response(a)\n"
    assert edit(repo, "pkg/load.py", before, after) == "Fix typo in load"


def test_one_test_added_is_a_test(repo: Repo) -> None:
    repo.write("tests/test_config.py", "import config\n")
    repo.commit()
    repo.write(
        "tests/test_config.py", "import config\n\n\ndef test_parse_empty():\n    assert config.parse('') == {}\n"
    )
    assert title(repo) == "Add test for parse empty"


def test_a_changelog_edited_alone_with_one_entry_is_that_entry_added_quoted(repo: Repo) -> None:
    before = "Changes\n=======\n\n- One thing.\n"
    after = "Changes\n=======\n\n- One thing.\n- Avoid an extra process when one worker runs.\n"
    assert (
        edit(repo, "CHANGES.rst", before, after) == 'Add "Avoid an extra process when one worker runs" to CHANGES.rst'
    )


def test_a_changelog_entry_too_long_for_a_title_is_added_by_its_pull_request(repo: Repo) -> None:
    before = "Unreleased\n----------\n\n-   One thing.\n"
    entry = (
        "-   Fix a rare race in ``click.testing.StreamMixer``'s finalization that manifested\n"
        "    as a ``ValueError`` on close in a multi-threaded test session.\n"
        "    :issue:`2993` :pr:`2991`\n"
    )
    assert edit(repo, "CHANGES.rst", before, before + entry) == "Add changelog entry for #2991"


def test_exports_version_is_the_projects_own_version_so_a_release_stays_one(repo: Repo) -> None:
    repo.write("History.md", "\n2.1.1 / 2011-03-01\n==================\n\n  * Fixed a thing\n")
    repo.write("package.json", '{\n  "name": "web",\n  "version": "2.1.1"\n}\n')
    repo.write("lib/web.js", "exports.version = '2.1.1';\n")
    repo.commit()
    repo.write(
        "History.md",
        "\n2.2.0 / 2011-03-30\n==================\n\n  * Added a thing\n" + repo.read("History.md").decode(),
    )
    repo.write("package.json", '{\n  "name": "web",\n  "version": "2.2.0"\n}\n')
    repo.write("lib/web.js", "exports.version = '2.2.0';\n")
    assert title(repo) == "Release 2.2.0"


def test_an_option_written_over_several_lines_is_added_to_the_function_it_decorates(repo: Repo) -> None:
    head = "import click\n\n\ndef check(value):\n    return value\n\n\n@click.command()\n"
    tail = '@click.option("--quiet", is_flag=True)\ndef main(quiet):\n    return quiet\n'
    added = '@click.option(\n    "--no-cache",\n    is_flag=True,\n    help="Skip the cache.",\n)\n'
    assert edit(repo, "pkg/cli.py", head + tail, head + added + tail) == "Add --no-cache option to main"


def test_a_name_that_is_the_section_it_is_added_to_is_not_said_twice() -> None:
    """``add SessionMiddleware to SessionMiddleware in middleware.md`` says the place twice."""
    facts = Facts(new_names=["SessionMiddleware", "secret_key"], new_lines="2 lines")
    said = worded("update SessionMiddleware in middleware.md", "add", facts, lambda n: n)
    assert said[0] == "add secret_key to SessionMiddleware in middleware.md"
