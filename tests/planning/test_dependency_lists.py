"""A dependency bump typed as the house types bumps of the manifest list the package is in."""

from __future__ import annotations

import json

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.dependency_lists import habitual_type, habits, list_of, manifest_lists
from segmint_core.planning.style import house_style
from tests.support.repo import Repo

PYPROJECT = """
[project]
dependencies = ["Click>=8.0", "typing_extensions; python_version<'3.11'"]
[project.optional-dependencies]
docs = ["sphinx~=7.0"]
[dependency-groups]
test = ["pytest>=8"]
[tool.poetry.group.lint.dependencies]
ruff = "^0.5"
"""
CARGO = """
[dependencies]
serde = "1"
[dev-dependencies]
insta = "1"
[workspace.dependencies]
anyhow = "1"
"""


def test_each_manifest_names_the_list_each_dependency_is_in() -> None:
    package = json.dumps(
        {
            "dependencies": {"diff": "^5.0.0"},
            "devDependencies": {"@types/mocha": "^7"},
            "peerDependencies": {"react": "*"},
        }
    )
    lists = manifest_lists({"package.json": package, "pyproject.toml": PYPROJECT, "Cargo.toml": CARGO})
    assert lists == {
        "diff": "runtime",
        "@types/mocha": "dev",
        "react": "runtime",
        "click": "runtime",
        "typing-extensions": "runtime",
        "sphinx": "docs",
        "pytest": "test",
        "ruff": "lint",
        "serde": "runtime",
        "insta": "dev",
        "anyhow": "runtime",
    }


def test_a_manifest_that_does_not_parse_says_nothing() -> None:
    assert manifest_lists({"package.json": "{not json", "pyproject.toml": "[project"}) == {}
    assert manifest_lists({"package.json": '["a list"]'}) == {}


def test_a_habit_is_followed_only_where_the_house_nearly_always_keeps_it() -> None:
    lists = {"diff": "runtime", "mocha": "dev", "chai": "dev"}
    past = (
        [(["diff"], "fix")] * 5
        + [(["mocha"], "chore")] * 4
        + [(["mocha", "chai"], "chore")]
        + [(["diff", "mocha"], "build")]
        + [(["unknown"], "build")]
    )
    learned = habits(past, lists)
    assert learned == {"dev": {"chore": 5}, "runtime": {"fix": 5}}
    assert habitual_type(["diff"], lists, learned) == "fix"
    assert habitual_type(["Mocha"], lists, learned) == "chore"
    assert habitual_type(["diff", "mocha"], lists, learned) is None  # two lists
    assert list_of(["left-pad"], lists) is None
    assert habitual_type(["mocha"], lists, {"dev": {"chore": 3, "build": 2}}) is None  # 60%: no habit
    assert habitual_type(["mocha"], lists, {"dev": {"chore": 4}}) is None  # too few


def package_json(versions: dict[str, str], dev: dict[str, str]) -> str:
    return json.dumps({"name": "app", "dependencies": versions, "devDependencies": dev}, indent=2) + "\n"


def test_a_runtime_bump_is_typed_as_the_house_types_them_though_dev_bumps_are_the_majority(repo: Repo) -> None:
    """Renovate's houses: fix(deps) for runtime dependencies, chore(deps) for development ones."""
    runtime = {f"lib{n}": "1.0.0" for n in range(5)}
    dev = {f"tool{n}": "1.0.0" for n in range(8)}
    repo.write("package.json", package_json(runtime, dev))
    repo.commit("chore: start")
    for n in range(8):
        dev[f"tool{n}"] = "2.0.0"
        repo.write("package.json", package_json(runtime, dev))
        repo.commit(f"chore(deps): update dependency tool{n} to v2")
    for n in range(5):
        runtime[f"lib{n}"] = "2.0.0"
        repo.write("package.json", package_json(runtime, dev))
        repo.commit(f"fix(deps): update dependency lib{n} to v2")
    runtime["lib0"] = "3.0.0"
    repo.write("package.json", package_json(runtime, dev))
    git = Git.discover(repo.path)
    style = house_style(git)
    assert style.dependency_habits == {"dev": {"chore": 8}, "runtime": {"fix": 5}}
    assert style.sentence().endswith("bumps typed by list (dev: chore, runtime: fix)")
    message = offline_message([(c, c.hunks) for c in capture(git).changes], style=style)
    assert message.title == "fix(deps): update dependency lib0 to v3"
    dev["tool0"] = "3.0.0"
    runtime["lib0"] = "2.0.0"
    repo.write("package.json", package_json(runtime, dev))
    message = offline_message([(c, c.hunks) for c in capture(git).changes], style=style)
    assert message.title == "chore(deps): update dependency tool0 to v3"


def test_a_bump_takes_the_wording_the_house_writes_most_under_its_type_and_scope() -> None:
    """release-please: Renovate's `update dependency x to v2` under chore(deps) and fix(deps) alike,
    dependabot's `bump x from 1 to 2` under build(deps), and a rare `update x to 2` under fix(deps)."""
    from segmint_core.planning.bumps import Bump
    from segmint_core.planning.facts import Facts
    from segmint_core.planning.style import HouseStyle, Wording
    from segmint_core.planning.voice import _house_wordings

    style = HouseStyle(
        seen=100,
        conventional=100,
        bumps=[
            Wording("chore", "deps", "update dependency {name} to v{major}", 18, {"chore(deps)": 12, "fix(deps)": 6}),
            Wording("build", "deps", "bump {name} from {old} to {new}", 3, {"build(deps)": 3}),
            Wording("fix", "deps", "update {name} to {new}", 2, {"fix(deps)": 2}),
        ],
    )
    facts = Facts(paths=["package.json"], bumps=[Bump("diff", "5.0.0", "7.0.0")])
    assert _house_wordings(style, facts, "fix", "deps") == ["update dependency diff to v7"]
    assert _house_wordings(style, facts, "build", "deps") == ["bump diff from 5.0.0 to 7.0.0"]
    assert _house_wordings(style, facts, "ci", None) == ["update dependency diff to v7"]  # never written so
