"""Messages in the repository's own voice: the house style learned from its history,
the rules for what changed, clean titles, the model held to the same rules."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable

import pytest

from segmint_core.changes import capture
from segmint_core.config import Settings
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.style import CACHE_NAME, house_style
from segmint_core.planning.type_model import load_model
from segmint_core.session.session import Session
from tests.conftest import shared_data
from tests.support.openai_standin import StandIn
from tests.support.pre_commit import HOOKS, mypy_at
from tests.support.repo import Repo


def propose(repo: Repo, settings: Settings | None = None):
    session = Session.open(str(repo.path), settings=settings or Settings())
    return session, session.propose_commits()


def message_for(repo: Repo):
    git = Git.discover(repo.path)
    cs = capture(git)
    return offline_message([(c, c.hunks) for c in cs.changes], style=house_style(git))


def conventional_history(repo: Repo) -> None:
    """Twelve commits in one house style: scopes named after folders, chore(deps) bumps."""
    repo.write("pyproject.toml", '[project]\nname = "shop"\ndependencies = [\n    "pytest-cov>=3.0.0",\n]\n')
    repo.commit("chore: start the shop")
    for n in range(4):
        repo.write(f"shop/parser/rule{n}.py", f"def rule{n}(text):\n    return text\n")
        repo.commit(f"feat(parser): add rule{n}")
        repo.write(f"shop/parser/rule{n}.py", f"def rule{n}(text):\n    return text.strip()\n")
        repo.commit(f"fix(parser): strip text in rule{n}")
    repo.write("docs/guide.md", "# Guide\n")
    repo.commit("docs: start the guide")
    repo.write("pyproject.toml", '[project]\nname = "shop"\ndependencies = [\n    "pytest-cov>=3.5.0",\n]\n')
    repo.commit("chore(deps): update dependency pytest-cov to v3.5.0")
    repo.write("pyproject.toml", '[project]\nname = "shop"\ndependencies = [\n    "pytest-cov>=4.1.0",\n]\n')
    repo.commit("chore(deps): update dependency pytest-cov to v4.1.0")


def test_no_history_gives_plain_conventional_commits(repo: Repo) -> None:
    repo.write("calc/ops.py", "def sub(a, b):\n    return a - b\n")
    repo.commit("init")
    repo.write("calc/ops.py", "def sub(a, b):\n    return a - b\n\n\ndef add(a, b):\n    return a + b\n")
    session, plans = propose(repo)
    assert plans[0].title == "feat(calc): add `add`"  # never "add add"
    assert (
        session.snapshot()["message_style"]
        == "in plain Conventional Commits (only 1 earlier commit to learn a house style from)"
    )


def test_house_scopes_types_and_bump_wording_are_followed(repo: Repo) -> None:
    conventional_history(repo)
    repo.write("shop/parser/rule1.py", "def rule1(text):\n    return text.strip().lower()\n")
    session, plans = propose(repo)
    assert plans[0].title == "fix(parser): correct rule1"
    assert (
        session.snapshot()["message_style"]
        == "following 12 of the last 12 subjects: Conventional Commits, scopes from paths"
    )
    cache = Git.discover(repo.path).git_dir + "/segmint/" + CACHE_NAME
    assert repo.head() in open(cache, encoding="utf-8").read()  # learned once per HEAD


def test_a_conventional_house_titles_code_by_the_changelog_entry_it_adds_as_a_command(repo: Repo) -> None:
    # fd's escape-sequence fix added its CHANGELOG.md entry and was titled `correct dir_entry.rs and
    # 5 more files`; express's History.md says "Fixed ..." where its subjects say "fix"
    conventional_history(repo)
    repo.write("CHANGELOG.md", "# Changelog\n\n## Unreleased\n")
    repo.commit("docs: start the changelog")
    repo.write("shop/parser/rule2.py", "def rule2(text):\n    return text.strip().casefold()\n")
    repo.write(
        "CHANGELOG.md", "# Changelog\n\n## Unreleased\n\n- Fixed rule2 matching words that differ only in case\n"
    )
    assert message_for(repo).title == "fix(parser): fix rule2 matching words that differ only in case"


@pytest.mark.parametrize("entry", ["fix(parser): strip case in rule2", "**parser:** strip case in rule2"])
def test_a_changelog_entry_written_as_a_subject_gives_its_description(repo: Repo, entry: str) -> None:
    # python-semantic-release's changelog lists subjects: the title was `fix: docs: clarify ...`
    conventional_history(repo)
    repo.write("CHANGELOG.md", "# Changelog\n\n## Unreleased\n")
    repo.commit("docs: start the changelog")
    repo.write("shop/parser/rule2.py", "def rule2(text):\n    return text.strip().casefold()\n")
    repo.write("CHANGELOG.md", f"# Changelog\n\n## Unreleased\n\n* {entry}\n")
    assert message_for(repo).title == "fix(parser): strip case in rule2"


def test_a_release_in_a_house_titling_none_by_a_type_is_a_chore(repo: Repo) -> None:
    # python-semantic-release titles its releases `9.9.0`, no Conventional subject: its release was
    # typed and scoped by the docs it touched, `docs(github-actions): release 9.9.0`
    conventional_history(repo)
    repo.write("CHANGELOG.md", "# Changelog\n\n## v1.0.0\n\n* first\n")
    repo.write("docs/guide.md", "# Guide\n\nInstall `shop==1.0.0`.\n")
    repo.write("shop/__init__.py", '__version__ = "1.0.0"\n')
    repo.commit("1.0.0")
    repo.write("CHANGELOG.md", "# Changelog\n\n## v1.1.0\n\n* second\n\n## v1.0.0\n\n* first\n")
    repo.write("docs/guide.md", "# Guide\n\nInstall `shop==1.1.0`.\n")
    repo.write("shop/__init__.py", '__version__ = "1.1.0"\n')
    assert message_for(repo).title == "chore: release 1.1.0"


def test_manifest_and_lock_change_is_one_bump_in_the_house_wording(repo: Repo) -> None:
    conventional_history(repo)
    repo.write(
        "poetry.lock",
        '[[package]]\nname = "pytest-cov"\nversion = "4.1.0"\n\n[[package]]\nname = "coverage"\nversion = "7.0.0"\n',
    )
    repo.commit("chore(deps): lock dependencies")
    repo.write("pyproject.toml", '[project]\nname = "shop"\ndependencies = [\n    "pytest-cov>=5.0.0",\n]\n')
    repo.write(
        "poetry.lock",
        '[[package]]\nname = "pytest-cov"\nversion = "5.0.0"\n\n[[package]]\nname = "coverage"\nversion = "7.0.0"\n',
    )
    msg = message_for(repo)
    assert msg.title == "chore(deps): update dependency pytest-cov to v5.0.0"
    assert "pytest-cov: 4.1.0 -> 5.0.0" in msg.description


def test_bump_without_history_names_package_and_both_versions(repo: Repo) -> None:
    repo.write("pyproject.toml", '[tool.poetry.dependencies]\npytest-cov = "^4.1.0"\n')
    repo.write("poetry.lock", '[[package]]\nname = "pytest-cov"\nversion = "4.1.0"\n')
    repo.commit()
    repo.write("pyproject.toml", '[tool.poetry.dependencies]\npytest-cov = "^5.0.0"\n')
    repo.write("poetry.lock", '[[package]]\nname = "pytest-cov"\nversion = "5.0.0"\n')
    _, plans = propose(repo)
    assert {p.title for p in plans} == {"build(deps): bump pytest-cov from 4.1.0 to 5.0.0"}


NPM_LOCK = (
    '{\n  "packages": {\n    "node_modules/handlebars": {\n      "version": "4.7.7",\n'
    '      "resolved": "https://registry.npmjs.org/handlebars/-/handlebars-4.7.7.tgz"\n    }\n  }\n}\n'
)


def test_a_bump_in_the_manifest_leaves_out_what_it_pulled_into_the_lock_file(repo: Repo) -> None:
    lock = NPM_LOCK.replace(
        '    "node_modules/handlebars"',
        '    "node_modules/wordwrap": {\n      "version": "1.0.0"\n    },\n    "node_modules/handlebars"',
    )
    repo.write("package.json", '{\n  "dependencies": {\n    "handlebars": "^4.7.7"\n  }\n}\n')
    repo.write("package-lock.json", lock)
    repo.commit()
    repo.write("package.json", '{\n  "dependencies": {\n    "handlebars": "^4.7.9"\n  }\n}\n')
    repo.write("package-lock.json", lock.replace("4.7.7", "4.7.9").replace("1.0.0", "1.0.2"))
    _, plans = propose(repo)
    assert [p.title for p in plans] == ["build(deps): bump handlebars from 4.7.7 to 4.7.9"]


def test_a_bump_with_its_changelog_entry_is_one_bump(repo: Repo) -> None:
    repo.write("package.json", '{\n  "dependencies": {\n    "qs": "6.13.0"\n  }\n}\n')
    repo.write("History.md", "unreleased\n==========\n\n4.0.0 / 2024-01-01\n==================\n\n  * Initial\n")
    repo.commit()
    repo.write("package.json", '{\n  "dependencies": {\n    "qs": "6.14.0"\n  }\n}\n')
    repo.write(
        "History.md",
        "unreleased\n==========\n\n  * deps: qs@6.14.0\n\n4.0.0 / 2024-01-01\n==================\n\n  * Initial\n",
    )
    assert message_for(repo).title == "build(deps): bump qs from 6.13.0 to 6.14.0"


def test_a_lock_file_alone_is_a_bump_of_the_package_it_moves(repo: Repo, monkeypatch) -> None:
    """A lock file is kept whole by grouping, never read line by line; its message still reads
    the versions (a transitive dependency bumped by a bot), unless it is too large to read."""
    repo.write("package-lock.json", NPM_LOCK)
    repo.commit()
    repo.write("package-lock.json", NPM_LOCK.replace("4.7.7", "4.7.9"))
    session, plans = propose(repo)
    assert [p.title for p in plans] == ["build(deps): bump handlebars from 4.7.7 to 4.7.9"]
    assert plans[0].hunk_ids == [] and plans[0].description == ""  # the title says both versions
    monkeypatch.setattr("segmint_core.session.units.LOCK_LINES_READ", 5)
    assert [p.title for p in session.propose_commits()] == ["build(package-lock): update package-lock.json"]


def test_new_file_is_added_deleted_removed_renamed_named(repo: Repo) -> None:
    repo.write("app/old_name.py", "def f():\n    return 1\n" * 3)
    repo.write("app/gone.py", "x = 1\n")
    repo.commit()
    repo.write("app/fresh.py", "VALUE = 2\n")
    assert message_for(repo).title == "feat(fresh): add fresh.py"
    repo.delete("app/fresh.py")
    repo.delete("app/gone.py")
    assert message_for(repo).title == "refactor(gone): remove gone.py"
    repo.git("checkout", "--", "app/gone.py")
    repo.git("mv", "app/old_name.py", "app/new_name.py")
    assert message_for(repo).title == "refactor(new-name): rename old_name.py to new_name.py"


def test_docstring_and_comment_only_edit_is_docs(repo: Repo) -> None:
    repo.write("lib/calc.py", 'def area(r):\n    """Area."""\n    # pi times r squared\n    return 3.14 * r * r\n')
    repo.commit()
    repo.write(
        "lib/calc.py",
        'def area(r):\n    """Area of a circle of radius r."""\n'
        "    # pi times r squared, with pi rounded\n    return 3.14 * r * r\n",
    )
    assert message_for(repo).title == "docs(calc): document area"


def test_a_test_class_is_never_named_as_the_fix(repo: Repo) -> None:
    repo.write("pkg/flags.py", "def get_debug_flag():\n    return False\n")
    repo.write("tests/test_flags.py", "class TestHelpers:\n    def test_debug(self):\n        assert True\n")
    repo.commit()
    repo.write("pkg/flags.py", "def get_debug_flag():\n    return bool(env())\n")
    repo.write(
        "tests/test_flags.py",
        "class TestHelpers:\n    def test_debug(self):\n        assert get_debug_flag() is False\n",
    )
    title = message_for(repo).title
    assert "TestHelpers" not in title and "get_debug_flag" in title


def test_titles_from_hostile_paths_are_one_clean_line(repo: Repo) -> None:
    repo.write("init.py", "x = 1\n")
    repo.commit()
    repo.write("docs/a\tb\nc\x1b[31m.md", "# Heading\n")
    _, plans = propose(repo)
    for plan in plans:
        assert len(plan.title) <= 72 and plan.title.isprintable() and "…" not in plan.title
        assert all(line.isprintable() for line in plan.description.splitlines())
    assert plans[0].title == "docs: add a\\tb\\nc\\x1b[31m.md"


def test_grouping_evidence_stays_out_of_the_commit_body(repo: Repo) -> None:
    repo.write("app/config.py", "def load_cfg(path):\n    return path\n")
    repo.write("app/main.py", "from config import load_cfg\n\nload_cfg('a')\n")
    repo.commit()
    repo.write("app/config.py", "def load_config(path):\n    return path\n")
    repo.write("app/main.py", "from config import load_config\n\nload_config('a')\n")
    session, plans = propose(repo)
    assert any(g.reasons for g in session.groups)
    assert all("Grouped because" not in p.description for p in plans)


def test_non_conventional_history_gets_its_own_style(tmp_path) -> None:
    clone = tmp_path / "click"
    subprocess.run(["git", "clone", "-q", str(shared_data("click.bundle")), str(clone)], check=True)
    repo = Repo(clone, init=False)
    core = clone / "src" / "click" / "termui.py"
    text = core.read_text()
    core.write_text(
        text.replace("def confirm(", "def confirm(  # asks yes or no\n    ", 1).replace(
            "    # asks yes or no\n    ", "", 1
        )
        + "\n\ndef ring_bell() -> None:\n    echo('\\a')\n"
    )
    session, plans = propose(repo)
    assert session.snapshot()["message_style"].endswith("plain capitalized imperative sentences, no type prefix")
    for plan in plans:
        assert ":" not in plan.title.split(" ", 1)[0], plan.title  # no `fix(x):` prefix
        assert plan.title[0].isupper()
    assert "Add ring_bell" in [p.title for p in plans]


def test_model_gets_the_house_style_and_is_held_to_clean_titles(repo: Repo) -> None:
    conventional_history(repo)
    repo.write("shop/parser/rule1.py", "def rule1(text):\n    return text.strip().lower()\n")
    with StandIn("fix(parser): lower-case rule1\n\nBecause case should not matter.") as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        _, plans = propose(repo, settings)
        assert (plans[0].title, plans[0].note) == ("fix(parser): lower-case rule1", None)
        system = standin.requests[-1]["body"]["messages"][0]["content"]
        assert "chore(deps): update dependency pytest-cov to v4.1.0" in system and "parser" in system
        standin.reply = "fix(parser): " + "make rule one lower-case everything it is given " * 3 + "\n\nWhy."
        _, plans = propose(repo, settings)
        assert plans[0].title == "fix(parser): correct rule1" and plans[0].note.startswith("Offline title:")
        standin.reply = "fix(parser):\tlower-case\x1b rule1…"
        _, plans = propose(repo, settings)
        assert plans[0].title == "fix(parser): correct rule1"
        standin.reply = "Lower-case rule1\n\nNo prefix."
        _, plans = propose(repo, settings)
        assert plans[0].note == "Offline title: the model's title was not in the Conventional Commits format"


def test_bench_messages_scores_real_commits_against_their_subjects(repo: Repo) -> None:
    from segmint_bench.messages.scoring import run_benchmark

    conventional_history(repo)
    repo.write("shop/parser/rule1.py", "def rule1(text):\n    return text.strip().upper()\n")
    repo.commit("fix(parser): upper-case rule1")
    before = repo.head()
    report = run_benchmark(str(repo.path), n=5, seed=0, confusion=True)
    assert repo.head() == before and repo.git("status", "--porcelain") == ""  # cloned, never touched
    summary = report.figures["summary"]
    assert report.figures["n"] == 3  # only the commits with ten or more before them
    assert summary["clean"] == 1.0 and 0 <= summary["f1"] <= 1
    assert {c["real"] for c in report.figures["cases"]} == {
        "fix(parser): upper-case rule1",
        "chore(deps): update dependency pytest-cov to v4.1.0",
        "chore(deps): update dependency pytest-cov to v3.5.0",
    }
    assert "majority type and scope" in report.text
    matrix = summary["confusion"]
    assert set(matrix) == {"fix", "chore"} and sum(sum(row.values()) for row in matrix.values()) == 3
    agreed = sum(row.get(real, 0) for real, row in matrix.items())
    assert agreed == round(3 * summary["type"])
    assert "real \\ proposed" in report.text and f"{matrix['chore'].get('chore', 0)}/2" in report.text
    whole, split = summary["type_whole"], summary["type_split"]
    assert whole[1] + split[1] == 3 and whole[0] + split[0] == agreed
    assert f"type agrees in {whole[0]}/{whole[1]} cases proposed as one commit" in report.text


def test_a_house_that_turned_to_conventional_commits_is_followed_by_its_recent_habit(repo: Repo) -> None:
    for n in range(150):  # an old stretch of plain subjects...
        repo.write("notes.txt", f"{n}\n")
        repo.commit(f"Update notes {n}")
    for n in range(60):  # ...then the house turned to Conventional Commits
        repo.write(f"app/part{n}.py", f"def part{n}():\n    return {n}\n")
        repo.commit(f"feat(app): add part{n}")
    repo.write("app/part1.py", "def part1():\n    return -1\n")
    session, plans = propose(repo)
    assert (
        session.snapshot()["message_style"]
        == "following 60 of the last 100 subjects: Conventional Commits, scopes from paths"
    )
    assert re.match(r"^[a-z]+\(app\): ", plans[0].title), plans[0].title


def action_history(repo: Repo, action: str, versions: list[str]) -> Callable[[str, str], str]:
    """A house that bumps ``action``, pinned to a commit, as ``ci(deps): bump `x@v1` to `v2```
    through ``versions``, then adds eight features; the workflow's text for a pin."""

    def workflow(sha: str, version: str) -> str:
        return f"jobs:\n  test:\n    steps:\n      - uses: {action}@{sha}  # v{version}\n"

    repo.write("app/main.py", "x = 1\n")
    repo.commit("chore: start")
    for n, version in enumerate(versions[1:]):
        repo.write(".github/workflows/ci.yml", workflow("abc"[n] * 40, version))
        repo.commit(f"ci(deps): bump `actions/checkout@v{versions[n]}` to `v{version}`")
    for n in range(8):
        repo.write(f"app/m{n}.py", f"def m{n}():\n    return {n}\n")
        repo.commit(f"feat(app): add m{n}")
    return workflow


def test_an_action_pinned_to_a_commit_is_bumped_in_the_house_wording(repo: Repo) -> None:
    workflow = action_history(repo, "actions/checkout", ["4.0.0", "4.1.0", "4.2.0", "4.2.1"])
    repo.write(".github/workflows/ci.yml", workflow("d" * 40, "5.0.0"))
    assert message_for(repo).title == "ci(deps): bump `actions/checkout@v4.2.1` to `v5.0.0`"


def test_an_action_whose_full_name_is_too_long_is_bumped_by_its_repository_name(repo: Repo) -> None:
    """``python-semantic-release/python-semantic-release@v10.6.0`` leaves no room for the
    versions; the house's wording with the repository's name alone keeps them."""
    workflow = action_history(
        repo, "python-semantic-release/python-semantic-release", ["10.3.0", "10.4.0", "10.5.0", "10.6.0"]
    )
    repo.write(".github/workflows/ci.yml", workflow("d" * 40, "10.6.1"))
    assert message_for(repo).title == "ci(deps): bump `python-semantic-release@v10.6.0` to `v10.6.1`"


def test_an_action_moved_to_another_commit_under_the_same_version_comment_is_bumped(repo: Repo) -> None:
    def workflow(sha: str) -> str:
        return "".join(f"      - uses: github/codeql-action/{step}@{sha} # v3.29.5\n" for step in ("init", "analyze"))

    repo.write(".github/workflows/codeql.yml", "jobs:\n  a:\n    steps:\n" + workflow("fe4161a" + "0" * 33))
    repo.commit()
    repo.write(".github/workflows/codeql.yml", "jobs:\n  a:\n    steps:\n" + workflow("5d4e8d1" + "0" * 33))
    assert message_for(repo).title == "build(deps): bump github/codeql-action from fe4161a to 5d4e8d1"


def test_sub_actions_moved_from_two_versions_are_one_bump_from_the_oldest(repo: Repo) -> None:
    """express's ``bump github/codeql-action and github/codeql-action``: ``init`` and ``analyze``
    left 3.24.7, ``upload-sarif`` 3.28.8, all for 3.28.11."""

    def steps(versions: list[str]) -> str:
        return "".join(
            f"      - uses: github/codeql-action/{step}@{'abc'[n] * 40} # v{version}\n"
            for n, (step, version) in enumerate(zip(("init", "analyze", "upload-sarif"), versions))
        )

    repo.write(".github/workflows/codeql.yml", "jobs:\n  a:\n    steps:\n" + steps(["3.24.7", "3.24.7", "3.28.8"]))
    repo.commit()
    repo.write(".github/workflows/codeql.yml", "jobs:\n  a:\n    steps:\n" + steps(["3.28.11"] * 3))
    assert message_for(repo).title == "build(deps): bump github/codeql-action from 3.24.7 to 3.28.11"


def test_a_tools_pre_commit_mirror_raised_with_it_is_the_tools_bump(repo: Repo) -> None:
    """python-semantic-release's ``bump mypy from 1.10.1 to 1.11.2``: the pin and its hook's
    mirror (from 1.10.0) raised together read ``bump pre-commit/mirrors-mypy and mypy``."""
    mypy_at(repo, "1.10.1", "1.10.0")
    repo.commit()
    mypy_at(repo, "1.11.2", "1.11.2")
    assert message_for(repo).title == "build(deps): bump mypy from 1.10.1 to 1.11.2"
    mypy_at(repo, "1.11.2", "1.11.1")  # to another version: two bumps
    assert "mirrors-mypy" in message_for(repo).title
    # black's ``mypy>=1.12`` pinned to the hook's new release
    repo.write("pyproject.toml", '[project.optional-dependencies]\ndev = [\n  "mypy>=1.12",\n]\n')
    repo.write(".pre-commit-config.yaml", HOOKS.format("1.10.0"))
    repo.commit()
    repo.write("pyproject.toml", '[project.optional-dependencies]\ndev = [\n  "mypy==1.17.1",\n]\n')
    repo.write(".pre-commit-config.yaml", HOOKS.format("1.17.1"))
    assert "mirrors-mypy" not in message_for(repo).title


def test_an_action_moved_to_one_version_from_two_is_bumped_from_the_oldest(repo: Repo) -> None:
    """httpx's ``Bump actions/setup-python from 1 to 3``: ``v1`` in one workflow, ``v2`` in the
    other (it read ``from 2 to 3``)."""
    step = 'jobs:\n  a:\n    steps:\n      - uses: "actions/setup-python@v{}"\n'
    repo.write(".github/workflows/publish.yml", step.format(1))
    repo.write(".github/workflows/test-suite.yml", step.format(2))
    repo.commit()
    repo.write(".github/workflows/publish.yml", step.format(3))
    repo.write(".github/workflows/test-suite.yml", step.format(3))
    assert message_for(repo).title.endswith("bump actions/setup-python from 1 to 3")


def test_requirements_quoted_in_a_list_are_bumped(repo: Repo) -> None:
    repo.write("pyproject.toml", '[project.optional-dependencies]\ndev = ["pre-commit", "tox", "ruff==0.1.8"]\n')
    repo.commit()
    repo.write("pyproject.toml", '[project.optional-dependencies]\ndev = ["pre-commit", "tox", "ruff==0.1.11"]\n')
    assert message_for(repo).title == "build(deps): bump ruff from 0.1.8 to 0.1.11"


def test_a_requirement_range_changed_is_named_with_both_ranges(repo: Repo) -> None:
    repo.write("pyproject.toml", '[project]\ndependencies = [\n  "python-gitlab>=2,<4",\n  "tomlkit~=0.11",\n]\n')
    repo.commit()
    repo.write("pyproject.toml", '[project]\ndependencies = [\n  "python-gitlab>=2, <5",\n  "tomlkit~=0.11",\n]\n')
    msg = message_for(repo)
    assert msg.title == "build(deps): update python-gitlab requirement from >=2,<4 to >=2,<5"
    assert msg.description == ""  # the title says both ranges


@pytest.mark.parametrize(
    ("path", "before", "after", "title"),
    [
        # ``gitpython==2.1.10`` -> ``gitpython~=2.1`` is not a bump "from 2.1.10 to 2.1"
        (
            "requirements/base.txt",
            "gitpython==2.1.10\nnumpy==1.26.0\n",
            "gitpython~=2.1\nnumpy==1.26.0\n",
            "build(deps): update gitpython requirement from ==2.1.10 to ~=2.1",
        ),
        (
            "requirements.txt",
            "click==6.2\ngitpython==2.1.10\nsemver==2.2.1\n",
            "click~=6.2\ngitpython~=2.1\nsemver~=2.2\n",
            "build(deps): update click, gitpython and semver requirements",
        ),
        (
            "requirements.txt",
            "pytest>=7.0  # tests\n",
            "pytest>=8.0  # tests\n",
            "build(deps): bump pytest from 7.0 to 8.0",
        ),
        # a version asked of a requirement that had none: pinned, left out, or a least one
        ("requirements.txt", "isort\nmypy==1.8\n", "isort==5.*\nmypy==1.8\n", "build(deps): pin isort to 5.*"),
        (
            "pyproject.toml",
            '[project]\ndependencies = [\n    "click",\n    "regex",\n]\n',
            '[project]\ndependencies = [\n    "click",\n    "regex!=2019.12.9",\n]\n',
            "build(deps): exclude regex 2019.12.9",
        ),
        ("requirements.txt", "isort\n", "isort>=5.10\n", "build(deps): require isort>=5.10"),
        # a bound added to a range: black's "Exclude pytest-xdist 3.0.2" read `update ... requirement`
        (
            "requirements-test.txt",
            "pytest-xdist >= 2.2.1\n",
            "pytest-xdist >= 2.2.1, < 3.0.2\n",
            "build(deps): pin pytest-xdist below 3.0.2",
        ),
        ("requirements.txt", "regex>=2019.8\n", "regex>=2019.8,!=2019.12.9\n", "build(deps): exclude regex 2019.12.9"),
        # a requirements file named as a test's lists dependencies: black's read `test: update tests for requirements`
        (
            "test_requirements.txt",
            "pytest-xdist >= 2.2.1\ntox\n",
            "pytest-xdist >= 2.2.1, < 3.0.2\ntox\n",
            "build(deps): pin pytest-xdist below 3.0.2",
        ),
    ],
)
def test_a_pin_loosened_to_a_range_is_a_requirement_change_and_a_pin_moved_a_bump(
    repo: Repo, path: str, before: str, after: str, title: str
) -> None:
    repo.write(path, before)
    repo.commit()
    repo.write(path, after)
    assert message_for(repo).title == title


def test_the_type_follows_what_the_house_called_past_changes_of_the_same_kind(repo: Repo) -> None:
    """In one file, with edits of one size, the house titles a new private helper `refactor`
    and a new guard `fix`: past commits are compared by what their diffs did, not only by
    the files they touched."""
    repo.write("app/core.py", "def run(x):\n    return x\n")
    repo.commit("chore: start")
    for n in range(1, 9):
        text = (repo.path / "app/core.py").read_text()
        repo.write(
            "app/core.py", text.replace("def run(x):\n", f"def run(x):\n    if x == {n}:\n        return {n}\n", 1)
        )
        repo.commit(f"fix(core): return early for {n} in run")
        text = (repo.path / "app/core.py").read_text()
        repo.write("app/core.py", f"def _helper{n}(x):\n    return x\n" + text)
        repo.commit(f"refactor(core): extract _helper{n}")
    text = (repo.path / "app/core.py").read_text()
    repo.write("app/core.py", "def _helper_last(x):\n    return x\n" + text)
    assert message_for(repo).title.startswith("refactor(core): ")
    repo.write("app/core.py", text.replace("def run(x):\n", "def run(x):\n    if x == 9:\n        return 9\n", 1))
    assert message_for(repo).title.startswith("fix(core): ")


def test_a_type_spelled_two_ways_is_spelled_as_the_house_spells_it_lately(repo: Repo) -> None:
    """express wrote ``tests:`` for years, then ``test:``: its older subjects outnumber the newer,
    and a test added now was titled ``tests: add tests for app.listen``."""
    repo.write("lib/app.js", "module.exports = 1\n")
    repo.commit("chore: start")
    for n in range(40):  # the old spelling, many times...
        repo.write(f"test/old{n}.js", f"it('old {n}', () => {{}})\n")
        repo.commit(f"tests: add old test {n}")
    for n in range(110):  # ...then a hundred other commits, the new spelling among them
        repo.write(f"lib/part{n}.js", f"module.exports = {n}\n")
        repo.commit(f"feat(app): add part{n}" if n % 10 else f"test: cover part{n}")
    repo.write("test/listen.js", "it('listens', () => {})\n")
    title = message_for(repo).title
    assert title.startswith("test: "), title


def test_a_house_that_names_the_commit_a_formatter_run_follows_is_followed(repo: Repo) -> None:
    """python-semantic-release's CI writes ``style: beautify <the commit before>`` after each
    formatter run (64 of its subjects); a formatter run of ours was ``style(util): add
    parentheses in util.py``."""
    repo.write("app/util.py", "def f(x):\n    return x\n")
    repo.commit("chore: start")
    for n in range(4):
        repo.write(f"app/part{n}.py", f"def part{n}(x):\n    return x+{n}\n")
        before = repo.commit(f"feat(app): add part{n}")
        repo.write(f"app/part{n}.py", f"def part{n}(x):\n    return x + {n}\n")
        repo.commit(f"style: beautify {before}")
    for n in range(6):
        repo.write(f"app/more{n}.py", f"def more{n}():\n    return {n}\n")
        repo.commit(f"feat(app): add more{n}")
    repo.write("app/util.py", "def f(x) :\n    return  x\n")
    assert message_for(repo).title == f"style: beautify {repo.head()}"
    repo.write("app/util.py", "def f(x):\n    return x * 2\n")  # not formatting: the house's type for it
    assert "beautify" not in message_for(repo).title


def test_bench_messages_leave_one_out_chooses_the_voting_on_the_other_repositories(tmp_path) -> None:
    from segmint_bench.messages.voting import leave_one_out

    repos = []
    for name in ("one", "two"):
        repo = Repo(tmp_path / name)
        conventional_history(repo)
        repo.write("shop/parser/rule2.py", "def rule2(text):\n    return text.strip().upper()\n")
        repo.commit("fix(parser): upper-case rule2")
        repos.append(str(repo.path))
    saved = tmp_path / "type_model.json"
    report = leave_one_out(repos, n=3, seed=0, save_type_model=str(saved))
    rows = report.figures["rows"]
    assert [r["chosen_on"] for r in rows] == [[repos[1]], [repos[0]]]
    assert all(0 <= r["held_out"]["type"] <= 1 and r["held_out"]["clean"] == 1.0 for r in rows)
    assert all(0 <= r["held_out_vote"]["type"] <= 1 for r in rows)
    assert "held out, type model and scope voting" in report.text
    assert "types voted by neighbours alone" in report.text
    assert load_model(saved).weights == tuple(report.figures["shipped"]["types"])


def test_a_house_that_calls_its_guide_edits_fixes_is_followed_over_the_rules(repo: Repo) -> None:
    """The rules call a Markdown edit `docs`; this house writes `fix(docs)` for its
    contributing guide, and `docs` for its user guide."""
    repo.write("app/core.py", "def run(x):\n    return x\n")
    repo.commit("chore: start")
    for n in range(6):
        repo.write("Contributing.md", f"# Contributing\n\nRule {n}.\n")
        repo.commit(f"fix(docs): clarify rule {n} for contributors")
        repo.write("docs/guide.md", f"# Guide\n\nStep {n}.\n")
        repo.commit(f"docs: explain step {n}")
    repo.write("Contributing.md", "# Contributing\n\nRule 6.\n")
    assert message_for(repo).title.startswith("fix(docs): ")
    repo.write("Contributing.md", "# Contributing\n\nRule 5.\n")
    repo.commit("fix(docs): go back to rule 5")
    repo.write("docs/guide.md", "# Guide\n\nStep 6.\n")
    assert message_for(repo).title.startswith("docs: ")


@pytest.mark.parametrize(
    ("folder", "kind", "scope", "suffix"),
    [
        ("docs", "docs", "docs", ".md"),  # docs(docs):
        ("test", "tests", "test", ".js"),  # tests(test): the singular repeats it too
    ],
)
def test_a_scope_that_repeats_the_type_is_left_out(repo: Repo, folder: str, kind: str, scope: str, suffix: str) -> None:
    """A house whose commits of a kind touch a folder of that name votes the name for both: it says nothing twice."""
    repo.write(f"{folder}/first{suffix}", "one\n")
    repo.commit(f"{kind}: start")
    for n in range(11):
        repo.write(f"{folder}/page{n}{suffix}", f"page {n}\n")
        repo.commit(f"{kind}({scope}): add page {n}")
    repo.write(f"{folder}/first{suffix}", "one\ntwo\n")
    _, plans = propose(repo)
    assert plans[0].title.startswith(f"{kind}: ")


def test_a_house_writing_majors_alone_gets_a_major_bump_so(repo: Repo) -> None:
    """Renovate's wording: ``update dependency x to v5`` for a new major, the whole version otherwise."""
    repo.write("src/app.js", "module.exports = {}\n")
    repo.commit("chore: start")
    for n in range(1, 12):
        repo.write("package.json", f'{{\n  "dependencies": {{\n    "chalk": "^{n}.0.0"\n  }}\n}}\n')
        repo.commit(f"fix(deps): update dependency chalk to v{n}")
    repo.write("package.json", '{\n  "dependencies": {\n    "chalk": "^12.0.0"\n  }\n}\n')
    assert message_for(repo).title == "fix(deps): update dependency chalk to v12"
    repo.write("package.json", '{\n  "dependencies": {\n    "chalk": "^11.2.0"\n  }\n}\n')
    assert message_for(repo).title == "fix(deps): update dependency chalk to v11.2.0"


def test_a_past_tense_house_gets_every_verb_in_the_past_tense(repo: Repo) -> None:
    repo.write("docs/usage.md", "Use the dummy value here.\nThe dummy is fine.\n")
    repo.write("pkg/core.py", "def render(items):\n    return items\n")
    repo.commit("Started the project.")
    for n in range(12):
        repo.write(f"pkg/m{n}.py", f"def g{n}():\n    return {n}\n")
        repo.commit(f"Fixed thing {n}.")
    repo.write("docs/usage.md", "Use the placeholder value here.\nThe placeholder is fine.\n")
    assert message_for(repo).title == "Replaced dummy with placeholder in usage.md."


@pytest.mark.parametrize(
    ("subject", "title"),
    [
        ("[core] Fix parser edge case {n}", "[core] Add new_api"),  # the area's prefix is the house's too
        ("[core] Fixed parser edge case {n}", "[core] Added new_api"),
        (":bug: Fix parser edge case {n}", "Add new_api"),
        ("✨ Add widget {n}", "Add new_api"),
    ],
)
def test_a_tag_before_the_house_sentence_does_not_hide_its_case_or_mood(repo: Repo, subject: str, title: str) -> None:
    repo.write("pkg/core.py", "def f():\n    return 1\n")
    repo.commit(subject.format(n=0))
    for n in range(1, 12):
        repo.write(f"pkg/m{n}.py", f"def g{n}():\n    return {n}\n")
        repo.commit(subject.format(n=n))
    repo.write("pkg/core.py", "def f():\n    return 1\n\n\ndef new_api(x):\n    return x\n")
    assert message_for(repo).title == title


def test_braces_in_the_house_bump_wording_are_its_words_not_slots(repo: Repo) -> None:
    repo.write("package.json", '{\n  "name": "a",\n  "dependencies": {\n    "left-pad": "1.0.0"\n  }\n}\n')
    repo.commit("chore: start")
    for n in range(12):
        repo.write(f"src/m{n}.js", f"export const m{n} = {n};\n")
        repo.commit(f"chore(deps): bump {{group}} lib{n} from 1.0.{n} to 1.0.{n + 1}" if n < 6 else f"feat: add m{n}")
    repo.write("package.json", '{\n  "name": "a",\n  "dependencies": {\n    "left-pad": "1.3.0"\n  }\n}\n')
    assert message_for(repo).title == "chore(deps): bump {group} left-pad from 1.0.0 to 1.3.0"


def test_a_model_reply_fenced_with_a_language_keeps_its_title(repo: Repo) -> None:
    conventional_history(repo)
    repo.write("shop/parser/rule1.py", "def rule1(text):\n    return text.strip().lower()\n")
    with StandIn("```text\nfix(parser): lower-case rule1\n\nBecause case should not matter.\n```") as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        _, plans = propose(repo, settings)
    assert (plans[0].title, plans[0].description, plans[0].note) == (
        "fix(parser): lower-case rule1",
        "Because case should not matter.",
        None,
    )


def test_a_merged_pull_request_is_known_by_its_title_not_by_gits_merge_subject(repo: Repo) -> None:
    """A house that merges pull requests writes its subjects as their titles, in the merge's body."""
    from segmint_core.history import read_history

    repo.write("README.md", "# Shop\n")
    repo.commit("docs: start the shop")
    for n, (branch, subject, body) in enumerate(
        [
            ("x/fix-parser", "Merge pull request #1 from x/fix-parser", "fix(parser): accept empty rules\n"),
            (
                "gl/feature",
                "Merge branch 'gl/feature' into 'main'",
                "feat(cli): add a --dry-run flag\n\nSee merge request shop/shop!2",
            ),
            ("topic", "Merge branch 'topic'", ""),
        ]
    ):
        repo.git("checkout", "-q", "-b", branch)
        repo.write(f"shop/part{n}.py", f"PART = {n}\n")
        repo.commit(f"work on part {n}")
        repo.git("checkout", "-q", "-")
        repo.git("merge", "-q", "--no-ff", branch, "-m", subject, *(["-m", body] if body else []))

    subjects = [c.subject for c in read_history(Git.discover(repo.path), "HEAD", limit=300)]

    assert subjects == [
        "Merge branch 'topic'",
        "feat(cli): add a --dry-run flag",
        "fix(parser): accept empty rules",
        "docs: start the shop",
    ]


def released(repo: Repo, subjects: list[str]) -> str:
    """The title of fd's next release after one release titled by each of ``subjects`` in turn, and
    four commits of code after each."""
    for n, subject in enumerate(subjects):
        repo.write("Cargo.toml", f'[package]\nname = "fd"\nversion = "1.{n}.0"\n')
        repo.commit(subject)
        for m in range(4):
            repo.write(f"src/m{n}{m}.rs", f"fn m{n}{m}() {{}}\n")
            repo.commit(f"Add m{n}{m}")
    repo.write("Cargo.toml", f'[package]\nname = "fd"\nversion = "1.{len(subjects)}.0"\n')
    return message_for(repo).title


def test_a_house_that_words_its_releases_bump_version_to_words_a_new_one_so(repo: Repo) -> None:
    """fd's ``Bump version to 8.3.1`` bumps no package: it is the house's wording of a release."""
    assert released(repo, [f"Bump version to 1.{n}.0" for n in range(3)]) == "Bump version to 1.3.0"


def test_a_house_that_words_its_releases_with_no_version_words_a_new_one_so(repo: Repo) -> None:
    """fd's older releases read ``Bump version`` and ``Bump version number``, no version in them."""
    subjects = ["Bump version", "Bump version number", "Bump version", "Bump version"]
    assert released(repo, subjects) == "Bump version to 1.4.0"


def test_a_house_that_words_its_pre_releases_prepare_release_words_a_new_one_so(repo: Repo) -> None:
    """black's ``Prepare release 21.12b0``: a PEP 440 pre-release is a version of the wording too."""
    released = ""
    for n in range(4):
        for m in range(4):
            repo.write("CHANGES.md", f"# Changes\n\n## Unreleased\n\n- Add m{n}{m}.\n\n{released}")
            repo.write(f"src/m{n}{m}.py", f"def m{n}{m}():\n    pass\n")
            repo.commit(f"Add m{n}{m}")
        released = f"## 1.{n}b0\n\n- Add m{n}0 to m{n}3.\n\n{released}"
        repo.write("CHANGES.md", f"# Changes\n\n{released}")
        if n < 3:
            repo.commit(f"Prepare release 1.{n}b0")
    assert message_for(repo).title == "Prepare release 1.3b0"


def test_a_house_wording_of_bumps_keeps_its_verb_over_the_houses_older_word(repo: Repo) -> None:
    """fd once wrote "Update to regex 1.0" and lately, through its bot, "Bump regex from 1.3 to
    1.4": its wording of a bump names the verb, not the older habit's synonym."""
    manifest = '[package]\nname = "fd"\nversion = "1.0.0"\n\n[dependencies]\nregex = "{}"\n'
    versions = ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5"]
    repo.write("Cargo.toml", manifest.format(versions[0]))
    repo.commit("Add regex")
    for old, new in zip(versions, versions[1:]):
        repo.write("Cargo.toml", manifest.format(new))
        repo.commit(f"Update to regex {new}" if new < "1.4" else f"Bump regex from {old} to {new}")
        for m in range(3):
            repo.write(f"src/m{new}{m}.rs", f"fn m() {{ {m} }}\n")
            repo.commit(f"Add m{new}{m}")
    repo.write("Cargo.toml", manifest.format("1.6"))
    assert message_for(repo).title == "Bump regex from 1.5 to 1.6"


def test_a_jsdoc_block_rewritten_is_docs(repo: Repo) -> None:
    """express's ``docs: fix JSDoc for req.accepts()``: a doc comment's blank `` *`` line taken out
    with its words rewritten is documentation, not code (it was typed ``refactor``)."""
    before = (
        "/**\n * Check if the given `type(s)` is acceptable.\n *\n * To do: update docs.\n *\n"
        " * @param {String} type\n * @return {String|Array|Boolean}\n */\n\n"
        "req.accepts = function(){\n  var accept = accepts(this);\n  return accept.types.apply(accept, arguments);\n};\n"
    )
    repo.write("lib/request.js", before)
    repo.commit()
    repo.write(
        "lib/request.js",
        before.replace(" * To do: update docs.\n *\n", "").replace(
            "@param {String} type", "@param {String|Array} type"
        ),
    )
    assert message_for(repo).title.startswith("docs(request): ")


def test_a_modules_name_before_a_colon_is_no_type(repo: Repo) -> None:
    """fd wrote ``walk: Flush stdout in batches`` for ``src/walk.rs`` before it wrote Conventional
    Commits: ``walk`` names the module, and a change of another file is not titled ``walk: ...``."""
    for n in range(6):
        repo.write("src/walk.rs", f"fn scan() -> u32 {{\n    {n}\n}}\n")
        repo.commit(f"walk: tune the scan, step {n}")
    for n in range(10):
        repo.write(f"app/part{n}.py", f"def part{n}():\n    return {n}\n")
        repo.commit(f"fix(app): correct part{n}")
    repo.write("src/exit_codes.rs", "fn merge() -> u32 {\n    0\n}\n")
    repo.commit("fix: start exit codes")
    repo.write("src/exit_codes.rs", "fn merge() -> u32 {\n    if true {\n        return 1;\n    }\n    0\n}\n")
    _, plans = propose(repo)
    assert not plans[0].title.startswith("walk"), plans[0].title


def test_a_test_beside_the_code_gives_no_test_scope(repo: Repo) -> None:
    """express writes `fix(test): ...` for its test files alone; a fix to lib/ with its test is no `test` change."""
    repo.write("lib/response.js", "exports.redirect = function (url) {\n  return url\n}\n")
    repo.write("test/response.js", "it('redirects', function () {})\n")
    repo.commit("chore: start")
    for n in range(6):
        repo.write(f"test/case{n}.js", f"it('case {n}', function () {{}})\n")
        repo.commit(f"fix(test): repair case {n}")
        repo.write(f"lib/part{n}.js", f"exports.part{n} = {n}\n")
        repo.commit(f"fix: correct part{n}")
    repo.write(
        "lib/response.js",
        "exports.redirect = function (url, status) {\n  if (status < 300) {\n    throw new RangeError('3xx')\n"
        "  }\n  return url\n}\n",
    )
    repo.write("test/response.js", "it('redirects', function () {})\nit('refuses a 200', function () {})\n")
    title = message_for(repo).title
    assert not title.split(":")[0].endswith("(test)"), title


@pytest.mark.parametrize(("heading", "fixes"), [("## 🐞 Bug fixes", True), ("### Fixed", True), ("### Added", False)])
def test_a_change_filed_under_the_changelogs_fixes_is_a_fix(repo: Repo, heading: str, fixes: bool) -> None:
    """express filed `res.redirect()` refusing a non-3xx status under "Bug fixes"; its new check
    brings in a name, which alone reads as a feature."""
    changelog = f"# Unreleased\n\n{heading}\n\n- Earlier entry\n"
    repo.write("History.md", changelog)
    repo.write("lib/response.js", "exports.redirect = function (url) {\n  return url\n}\n")
    repo.commit("chore: start")
    for n in range(6):
        repo.write(f"lib/part{n}.js", f"exports.part{n} = {n}\n")
        repo.commit(f"feat: add part{n}")
        repo.write(f"lib/part{n}.js", f"exports.part{n} = {n + 1}\n")
        repo.commit(f"fix: correct part{n}")
    repo.write(
        "History.md", changelog.replace("\n- Earlier", "\n- Refuse a redirect status that is not 3xx\n- Earlier")
    )
    repo.write(
        "lib/response.js",
        "exports.redirect = function (url, status) {\n  exports.checkStatus(status)\n  return url\n}\n\n"
        "exports.checkStatus = function (status) {\n  if (status < 300) throw new RangeError('3xx')\n}\n",
    )
    title = message_for(repo).title
    assert title.startswith("fix: ") == fixes, title
