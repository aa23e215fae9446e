"""A plain house's phrasing, learned from its own history: case, mood, prefixes by area, its verbs."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.precedent import Precedent, features
from segmint_core.planning.style import HouseStyle, Wording, house_style, plain_prefix
from segmint_core.planning.writer import offline_title, read_plan
from segmint_core.planning.tense import imperative
from tests.support.repo import Repo


def title(repo: Repo) -> str:
    git = Git.discover(repo.path)
    return offline_message([(c, c.hunks) for c in capture(git).changes], style=house_style(git)).title


def test_a_subjects_verb_in_any_form_is_one_verb() -> None:
    assert [imperative(w) for w in ("Added", "adds", "fixes", "Fixed", "updating", "simplifies", "docs")] == [
        "add",
        "add",
        "fix",
        "fix",
        "update",
        "simplify",
        "docs",
    ]
    assert plain_prefix("cmd: Fix the dir") == ("cmd:", "Fix the dir")
    assert plain_prefix("[vim] add a key") == ("[vim]", "add a key")
    assert plain_prefix("Fix the dir: at last") == (None, "Fix the dir: at last")


def prefixed_history(repo: Repo) -> None:
    """A house writing lower case, ``printer:`` for its printer and no prefix elsewhere."""
    for n in range(12):
        repo.write(f"src/printer/part{n}.rs", f"fn part{n}() {{}}\n")
        repo.commit(f"printer: add part{n}")
        repo.write(f"src/walk/step{n}.rs", f"fn step{n}() {{}}\n")
        repo.commit(f"add step{n} to the walk")


def test_a_lower_case_house_with_prefixes_is_said_so_and_followed(repo: Repo) -> None:
    prefixed_history(repo)
    style = house_style(Git.discover(repo.path))
    assert style.sentence() == (
        "following 24 of the last 24 subjects: plain lower-case imperative sentences, prefixes by area (printer:)"
    )
    repo.write("src/printer/colour.rs", "fn colour() {}\n")
    assert title(repo) == "printer: add colour"
    (repo.path / "src/printer/colour.rs").unlink()
    repo.write("src/walk/depth.rs", "fn depth() {}\n")
    assert title(repo) == "add depth"


def test_a_house_that_calls_such_edits_fixes_gets_fix(repo: Repo) -> None:
    repo.write("src/app.py", "def run(x):\n    return x\n")
    repo.commit("Add app")
    for n in range(12):
        repo.write("src/app.py", f"def run(x):\n    value = x * {n + 2}\n    return value\n")
        repo.commit(f"Fix run for case {n}")
    repo.write("src/app.py", "def run(x):\n    value = x * 40\n    return value\n")
    assert title(repo) == "Fix run"


def test_a_changelog_entry_keeps_its_authors_verb_where_the_house_votes_another(repo: Repo) -> None:
    # black's "Update GitHub Action to support ..." became "Add --verbose to GitHub Action to ...":
    # the verb the house's neighbours vote for replaced the author's, as it replaces ours
    repo.write("CHANGES.md", "## Unreleased\n")
    for n in range(12):
        repo.write("action/main.py", "".join(f"OPTION_{i} = {i}\n" for i in range(n + 1)))
        repo.commit(f"Add OPTION_{n} to the action")
    repo.write("CHANGES.md", "## Unreleased\n\n- Update GitHub Action to support version specifiers (#3265)\n")
    repo.write("action/main.py", "".join(f"OPTION_{i} = {i}\n" for i in range(12)) + "VERBOSE = '--verbose'\n")
    assert title(repo) == "Update GitHub Action to support version specifiers"


def test_a_release_in_the_houses_own_wording_takes_no_prefix(repo: Repo) -> None:
    # express titles releases "4.4.2" and bumps "deps: send@0.4.3", each touching History.md and
    # package.json: its release 4.4.3 was titled `deps: 4.4.3`, its neighbours by files being bumps
    manifest = '{{\n  "name": "web",\n  "version": "{}"\n}}\n'
    repo.write("History.md", "1.0.0 / 2014-06-01\n==================\n")
    repo.write("package.json", manifest.format("1.0.0"))
    repo.commit("1.0.0")
    repo.write("History.md", "1.0.1 / 2014-06-11\n==================\n\n1.0.0 / 2014-06-01\n==================\n")
    repo.write("package.json", manifest.format("1.0.1"))
    git = Git.discover(repo.path)
    parts = [(c, c.hunks) for c in capture(git).changes]
    facts, touched = read_plan(parts)
    bumped = Precedent(features(touched), "deps", "deps:", intent="deps")  # most neighbours prefixed bumps
    released = Precedent(features(touched), "1", None, intent="release")  # its releases: "4.4.2"
    phrasings = [bumped] * 10 + [released] * 2
    style = HouseStyle(seen=30, phrasings=phrasings, release=Wording(None, None, "{version}", 5))
    assert offline_title(facts, touched, style) == "1.0.1"


def test_a_file_the_house_edits_alone_under_one_subject_gets_that_subject(repo: Repo) -> None:
    """fd writes ``Update CHANGELOG`` for most of its changelog's edits alone; a new one was
    titled ``Add changelog entries``. black's ``[pre-commit.ci] pre-commit autoupdate``
    (``(#5005)`` and the like left out) is kept as the bot writes it."""
    hooks = "repos:\n  - repo: https://github.com/pycqa/isort\n    rev: {v}\n"
    repo.write("CHANGELOG.md", "# Changes\n")
    repo.write(".pre-commit-config.yaml", hooks.format(v="0.1.0"))
    repo.commit("Start")
    for n in range(4):
        repo.write("CHANGELOG.md", "# Changes\n" + "".join(f"- change {i}\n" for i in range(n + 1)))
        repo.commit("Update CHANGELOG" if n != 1 else "Add the first changes")
        repo.write(".pre-commit-config.yaml", hooks.format(v=f"{n + 1}.0.0"))
        repo.commit(f"[pre-commit.ci] pre-commit autoupdate (#{100 + n})")
        repo.write(f"src/part{n}.py", f"def part{n}():\n    return {n}\n")
        repo.commit(f"Add part{n}")
    repo.write("README.md", "# App\n")
    repo.commit("Update README.md")
    repo.write("README.md", "# App\n\nIt runs.\n")
    repo.commit("Update README.md")
    style = house_style(Git.discover(repo.path))
    assert style.habits == {
        "CHANGELOG.md": "Update CHANGELOG",
        ".pre-commit-config.yaml": "[pre-commit.ci] pre-commit autoupdate",
    }  # README.md's subject is written twice only: no habit yet
    repo.write("CHANGELOG.md", "# Changes\n- change 0\n- a new change\n")
    assert title(repo) == "Update CHANGELOG"
    repo.write("src/part0.py", "def part0():\n    return -1\n")
    assert title(repo) != "Update CHANGELOG"  # two files: no habit of one
    repo.git("checkout", "--", "CHANGELOG.md", "src/part0.py")
    repo.write(".pre-commit-config.yaml", hooks.format(v="9.0.0"))
    assert title(repo) == "[pre-commit.ci] pre-commit autoupdate"
