"""The one-intent gate: a change it finds one intent is one group; below its cutoff the groups stay.

The offline engine asks it unless ``prefer_one_commit`` is off; ``segmint_core/grouping/one_intent.json``
is the gate ``segmint bench fit --one-intent`` fit on the benchmark's nine histories."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import group_changes
from segmint_core.grouping.model import DEFAULT, Model, offline_model
from segmint_core.grouping.one_intent import FEATURES, OneIntent
from tests.support.cli import run_segmint
from tests.support.repo import Repo


def fitted() -> Model:
    return offline_model(prefer_one_commit=True)


def gate(bias: float, cutoff: float = 0.5) -> OneIntent:
    """A gate that ignores the change and answers ``logistic(bias)``."""
    n = len(FEATURES)
    return OneIntent((0.0,) * n, (1.0,) * n, (0.0,) * n, bias, cutoff)


def grouped(repo: Repo, model: Model = DEFAULT) -> list[list[str]]:
    changes = capture(Git.discover(repo.path))
    grouping = group_changes(changes, timeline=None, root=str(repo.path), model=model)
    paths = {c.id: c.file_path for c in grouping.changes}
    return sorted(sorted({paths[h.split(":")[0]] for h in g.hunk_ids}) for g in grouping.groups)


def two_pieces(repo: Repo) -> None:
    """A fix, its test and its changelog entry, which no name ties together."""
    repo.write("CHANGES.md", "# Changes\n\n## Unreleased\n\n- Older entry.\n")
    repo.write("app/limits.py", "def clamp(value, low, high):\n    return max(low, min(value, high))\n")
    repo.write("tests/test_other.py", "def test_truth():\n    assert True\n")
    repo.commit("start")
    repo.write(
        "CHANGES.md", "# Changes\n\n## Unreleased\n\n- Bounds given the wrong way round are swapped.\n- Older entry.\n"
    )
    repo.write(
        "app/limits.py",
        "def clamp(value, low, high):\n    if low > high:\n        low, high = high, low\n"
        "    return max(low, min(value, high))\n",
    )
    repo.write(
        "tests/test_other.py",
        "def test_truth():\n    assert True\n\n\ndef test_reversed_bounds_are_swapped():\n    assert 1 + 1 == 2\n",
    )


def test_a_sure_gate_joins_every_group_and_an_unsure_one_leaves_them(repo: Repo) -> None:
    two_pieces(repo)
    apart = grouped(repo, DEFAULT)
    assert len(apart) > 1  # what the pair model alone makes of it
    assert grouped(repo, replace(DEFAULT, one_intent=gate(5.0))) == [
        ["CHANGES.md", "app/limits.py", "tests/test_other.py"]
    ]
    assert grouped(repo, replace(DEFAULT, one_intent=gate(-5.0))) == apart
    assert grouped(repo, replace(DEFAULT, one_intent=gate(5.0, cutoff=1.0))) == apart  # P < 1: never sure enough


def in_a_house_of_three_file_commits(repo: Repo) -> None:
    """``two_pieces`` in a repository whose commits each touch three files, as the change does."""
    from segmint_core.grouping.one_intent import MIN_HISTORY

    repo.write("CHANGES.md", "# Changes\n\n## Unreleased\n\n- Older entry.\n")
    house_of_commits(repo, 3, MIN_HISTORY)
    two_pieces(repo)


def test_the_fitted_gate_keeps_a_fix_its_test_and_its_entry_as_one_where_commits_run_that_large(repo: Repo) -> None:
    in_a_house_of_three_file_commits(repo)
    assert grouped(repo, fitted()) == [["CHANGES.md", "app/limits.py", "tests/test_other.py"]]


def test_the_fitted_gate_leaves_the_same_change_apart_where_commits_touch_one_file(repo: Repo) -> None:
    from segmint_core.grouping.one_intent import MIN_HISTORY

    repo.write("CHANGES.md", "# Changes\n\n## Unreleased\n\n- Older entry.\n")
    house_of_commits(repo, 1, MIN_HISTORY)
    two_pieces(repo)
    assert grouped(repo, fitted()) == grouped(repo, DEFAULT) and len(grouped(repo, DEFAULT)) > 1


def test_the_fitted_gate_leaves_two_announced_changes_apart(repo: Repo) -> None:
    """Two changelog entries and two tests, each with its own code in its own folder: two intents."""
    repo.write("CHANGES.md", "# Changes\n\n## Unreleased\n\n- Older entry.\n")
    repo.write("app/limits.py", "def clamp(value, low, high):\n    return max(low, min(value, high))\n")
    repo.write("web/pages.py", "def title(page):\n    return page.name\n")
    repo.write("tests/test_limits.py", "from app.limits import clamp\n")
    repo.write("tests/test_pages.py", "from web.pages import title\n")
    repo.commit("start")
    repo.write(
        "CHANGES.md",
        "# Changes\n\n## Unreleased\n\n- Bounds given the wrong way round are swapped.\n\n"
        "- Page titles are capitalized.\n\n- Older entry.\n",
    )
    repo.write(
        "app/limits.py",
        "def clamp(value, low, high):\n    if low > high:\n        low, high = high, low\n"
        "    return max(low, min(value, high))\n",
    )
    repo.write("web/pages.py", "def title(page):\n    return page.name.capitalize()\n")
    repo.write(
        "tests/test_limits.py",
        "from app.limits import clamp\n\n\ndef test_clamp_swaps_bounds():\n    assert clamp(5, 9, 1) == 5\n",
    )
    repo.write(
        "tests/test_pages.py",
        "from web.pages import title\n\n\ndef test_title_is_capitalized():\n    assert title(Page('a')) == 'A'\n",
    )
    assert len(grouped(repo, fitted())) > 1


def test_the_gate_round_trips_and_refuses_other_features() -> None:
    loaded = fitted().one_intent
    assert loaded is not None and DEFAULT.one_intent is None and offline_model() is DEFAULT  # the model alone
    assert OneIntent.from_dict(loaded.to_dict()) == OneIntent.from_dict(loaded.to_dict())
    assert 0.0 < loaded.cutoff <= 1.0
    other = {**loaded.to_dict(), "features": ["files"]}
    with pytest.raises(ValueError, match="other features"):
        OneIntent.from_dict(other)


def test_recorded_intent_decides_where_there_is_one(tmp_path) -> None:
    """Two tasks recorded in one small tree stay two groups, however sure the gate is."""
    from tests.grouping.test_provenance_grouping import ask, edit, project

    repo = project(tmp_path)
    ask(repo, "a", "Please fix the crash on an empty config file")
    edit(repo, "a", "config.py", "        return json.load(f)\n", "        return json.loads(f.read() or '{}')\n")
    ask(repo, "a", "Please rename main to run in the CLI")
    edit(repo, "a", "cli.py", "def main():\n", "def run():\n")
    sure = replace(DEFAULT, one_intent=gate(5.0))
    grouping = group_changes(capture(Git(repo.path)), root=str(repo.path), model=sure)
    assert len(grouping.groups) == 2
    assert len(group_changes(capture(Git(repo.path)), root=str(repo.path), model=sure, provenance=None).groups) == 1


def test_a_tree_larger_than_any_the_gate_was_fit_on_is_left_as_clustered(repo: Repo) -> None:
    from segmint_core.grouping.one_intent import MAX_FILES

    names = [f"pkg{i}/mod{i}.py" for i in range(MAX_FILES + 1)]
    for i, name in enumerate(names):
        repo.write(name, f"def f{i}():\n    return {i}\n")
    repo.commit("start")
    for i, name in enumerate(names):
        repo.write(name, f"def f{i}():\n    return {i} + {i}\n")
    sure = replace(DEFAULT, one_intent=gate(5.0))
    assert grouped(repo, sure) == grouped(repo, DEFAULT)
    assert len(grouped(repo, DEFAULT)) > 1


def files_of_groups(repo: Repo, **env: str) -> list[list[str]]:
    """The files of each group ``segmint group --new --json`` makes, with ``env`` set."""
    result = run_segmint("group", "--new", "--json", cwd=repo.path, env=env)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    paths = {c["id"]: c["file_path"] for c in data["changes"]}
    return sorted(sorted({paths[i] for i in g["change_ids"]}) for g in data["groups"])


def test_prefer_one_commit_is_on_by_default_and_off_leaves_the_groups_clustering_made(repo: Repo) -> None:
    in_a_house_of_three_file_commits(repo)
    joined = [["CHANGES.md", "app/limits.py", "tests/test_other.py"]]
    assert files_of_groups(repo) == files_of_groups(repo, SEGMINT_PREFER_ONE_COMMIT="on") == joined
    plan = run_segmint("plan", "--json", cwd=repo.path)
    assert plan.returncode == 0 and len(json.loads(plan.stdout)["commits"]) == 1
    assert files_of_groups(repo, SEGMINT_PREFER_ONE_COMMIT="off") == grouped(repo)
    assert len(grouped(repo)) > 1
    plan = run_segmint("plan", "--json", cwd=repo.path, env={"SEGMINT_PREFER_ONE_COMMIT": "0"})
    assert plan.returncode == 0 and len(json.loads(plan.stdout)["commits"]) > 1


def test_prefer_one_commit_is_read_from_the_config_file(repo: Repo, tmp_path: Path) -> None:
    in_a_house_of_three_file_commits(repo)
    config = tmp_path / "config"
    (config / "segmint").mkdir(parents=True)
    (config / "segmint" / "config.toml").write_text("prefer_one_commit = false\n")
    assert len(files_of_groups(repo, XDG_CONFIG_HOME=str(config))) > 1
    assert len(files_of_groups(repo)) == 1


def test_a_bad_prefer_one_commit_is_one_clear_sentence(repo: Repo, tmp_path: Path) -> None:
    two_pieces(repo)
    bad = run_segmint("group", "--new", cwd=repo.path, env={"SEGMINT_PREFER_ONE_COMMIT": "maybe"})
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "SEGMINT_PREFER_ONE_COMMIT must be on or off (1/0, true/false, yes/no), not 'maybe'" in bad.stderr
    config = tmp_path / "config"
    (config / "segmint").mkdir(parents=True)
    (config / "segmint" / "config.toml").write_text('prefer_one_commit = "sometimes"\n')
    worded = run_segmint("group", "--new", cwd=repo.path, env={"XDG_CONFIG_HOME": str(config)})
    assert worded.returncode == 2 and "must be on or off" in worded.stderr and "Traceback" not in worded.stderr


def sized_gate(weight: float) -> OneIntent:
    """A gate that reads only how the change's extent compares with the house's commits."""
    n = len(FEATURES)
    at = FEATURES.index("house_commits_as_large")
    weights = tuple(weight if i == at else 0.0 for i in range(n))
    return OneIntent((0.5,) * n, (0.1,) * n, weights, 0.0, 0.5)


def house_of_commits(repo: Repo, files: int, commits: int) -> None:
    """A history of ``commits`` commits touching ``files`` files each."""
    for n in range(commits):
        for f in range(files):
            repo.write(f"lib/part{f}.py", f"VALUE = {n}\n")
        repo.commit(f"change {n}")


def test_the_share_of_the_house_commits_as_large_is_known_only_from_enough_history() -> None:
    from segmint_core.grouping.one_intent import MIN_HISTORY, as_large

    house = [1] * (MIN_HISTORY - 5) + [3] * 5
    assert as_large(house, 1) == 1.0 and as_large(house, 3) == 5 / MIN_HISTORY and as_large(house, 4) == 0.0
    assert math.isnan(as_large(house[:-1], 1)) and math.isnan(as_large(None, 1))
    gate = sized_gate(1.0)
    x = [0.5] * len(FEATURES)
    unknown = [*x[:-1], math.nan]
    assert gate.probability(unknown) == gate.probability(x) == 0.5  # not known: at its mean


def test_a_change_as_large_as_the_house_commits_is_joined_and_a_larger_one_is_left(tmp_path) -> None:
    """The same change of three files: one intent where this house's commits touch three files,
    left as clustered where they touch one."""
    from segmint_core.grouping.one_intent import MIN_HISTORY

    grouped_by_house = []
    for files in (3, 1):
        repo = Repo(tmp_path / f"house{files}")
        repo.write("CHANGES.md", "# Changes\n\n## Unreleased\n\n- Older entry.\n")
        house_of_commits(repo, files, MIN_HISTORY)
        two_pieces(repo)
        grouped_by_house.append(grouped(repo, replace(DEFAULT, one_intent=sized_gate(5.0))))
        assert len(grouped(repo, DEFAULT)) > 1
    large_commits, small_commits = grouped_by_house
    assert large_commits == [["CHANGES.md", "app/limits.py", "tests/test_other.py"]]
    assert len(small_commits) > 1


def test_the_house_history_is_read_only_when_the_gate_is_asked(repo: Repo) -> None:
    from segmint_core.grouping.history import CACHE_NAME

    cache = repo.path / ".git" / "segmint" / CACHE_NAME
    cache.parent.mkdir(parents=True, exist_ok=True)  # where a session keeps the history it read
    repo.write("app/limits.py", "def clamp(value, low, high):\n    return max(low, min(value, high))\n")
    repo.commit("start")
    repo.write("app/limits.py", "def clamp(value, low, high):\n    return max(low, min(value, high + 0))\n")
    assert len(grouped(repo, fitted())) == 1
    assert not cache.exists()  # one group: nothing for the gate to join, no history read
    repo.commit("one change")
    two_pieces(repo)
    assert len(grouped(repo, DEFAULT)) > 1
    grouped(repo, fitted())
    assert cache.exists()
