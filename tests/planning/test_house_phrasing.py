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
    facts, _, touched = read_plan(parts)
    bumped = Precedent(features(touched), "deps", "deps:", intent="deps")  # most neighbours prefixed bumps
    released = Precedent(features(touched), "1", None, intent="release")  # its releases: "4.4.2"
    phrasings = [bumped] * 10 + [released] * 2
    style = HouseStyle(seen=30, phrasings=phrasings, release=Wording(None, None, "{version}", 5))
    assert offline_title(facts, touched, style) == "1.0.1"
