"""``segmint check`` on real repositories: the check, the fix, exit codes, consent, what it leaves alone."""

from __future__ import annotations

import json

import pytest

from segmint.cli import main
from segmint_core.session.session import Session
from tests.checking.conftest import APP_AFTER, CORE_AFTER, scratch_left, state_of, user_before_definer
from tests.support.repo import Repo

PYTEST = '[tool.segmint]\ncheck = "python -m pytest -q"\n'


def segmint(repo: Repo, *args: str) -> int:
    return main(["--repo", str(repo.path), *args])


def test_pytest_finds_commit_1_failing_and_the_fix_merges_it_with_commit_2(repo: Repo, capsys) -> None:
    session = user_before_definer(repo, PYTEST)
    first, second = [p.id for p in session.plans]
    before = state_of(repo)

    assert segmint(repo, "check", "--allow") == 1
    out = capsys.readouterr().out
    assert f"✗ {first}  failed" in out and f"✓ {second}  passed" in out
    assert "ImportError: cannot import name 'double_value'" in out  # pytest's own message
    assert state_of(repo) == before and scratch_left(repo) == []

    assert segmint(repo, "check", "--fix", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["kind"] for s in data["fix"]["steps"]] == ["merge"]
    assert [c["status"] for c in data["after"]["commits"]] == ["passed"]
    (merged,) = Session.open(str(repo.path)).plans
    assert sorted(merged.hunk_ids) == sorted(first_hunks for p in session.plans for first_hunks in p.hunk_ids)
    assert merged.check["status"] == "passed"
    checked_tree = data["after"]["commits"][0]["tree"]
    assert state_of(repo) == before

    assert segmint(repo, "apply", "--all") == 0
    assert repo.git("rev-parse", "HEAD^{tree}").strip() == checked_tree
    assert repo.git("show", "HEAD:pkg/core.py") == CORE_AFTER and repo.git("show", "HEAD:pkg/app.py") == APP_AFTER
    assert repo.git("status", "--porcelain") == ""


def test_the_fix_is_one_edit_that_undo_takes_back(repo: Repo, capsys) -> None:
    session = user_before_definer(repo)
    plans = [(p.id, p.hunk_ids) for p in session.plans]
    assert segmint(repo, "check", "--fix") == 0
    assert "Fixed: merge" in capsys.readouterr().out
    assert len(Session.open(str(repo.path)).plans) == 1
    assert segmint(repo, "check", "--undo") == 0
    assert [(p.id, p.hunk_ids) for p in Session.open(str(repo.path)).plans] == plans


def test_zero_config_names_the_name_used_before_its_commit(repo: Repo, capsys) -> None:
    session = user_before_definer(repo)
    first, second = [p.id for p in session.plans]
    assert segmint(repo, "check") == 1
    out = capsys.readouterr().out
    assert f"pkg/app.py uses `double_value`, which only {second} defines (in pkg/core.py)" in out
    assert "Checked with zero-config" in out


def test_all_passing_exits_0_and_results_are_cached_by_tree(repo: Repo, capsys) -> None:
    session = user_before_definer(repo)
    session.reorder_commits([p.id for p in reversed(session.plans)])
    assert segmint(repo, "check", "--command", "true", "--json") == 0
    first = json.loads(capsys.readouterr().out)
    assert [c["status"] for c in first["commits"]] == ["passed", "passed"] and not first["commits"][0]["cached"]
    assert segmint(repo, "check", "--command", "true", "--json") == 0
    assert all(c["cached"] for c in json.loads(capsys.readouterr().out)["commits"])


def test_a_syntax_error_only_the_first_commit_has_fails_it(repo: Repo, capsys) -> None:
    repo.write("a.py", "x = 1\n")
    repo.write("b.py", "y = 2\n")
    repo.commit("base")
    repo.write("a.py", "x = (1\n")  # fixed by nothing later: the final tree fails too, not counted
    repo.write("b.py", "y = 2\nz = 3\n")
    from tests.checking.conftest import split_by_file

    split_by_file(repo)
    assert segmint(repo, "check", "--json") == 0
    commits = json.loads(capsys.readouterr().out)["commits"]
    assert "it fails with every commit applied too" in commits[0]["output"]


def test_not_checked_says_why(repo: Repo, capsys) -> None:
    repo.write("README.md", "# A\n")
    repo.commit("base")
    repo.write("README.md", "# A\n\nMore.\n")
    assert segmint(repo, "check", "--json") == 0
    (commit,) = json.loads(capsys.readouterr().out)["commits"]
    assert commit["status"] == "not_checked" and "changes no file the zero-config check reads" in commit["output"]


@pytest.mark.parametrize(
    "args",
    [["check", "--jobs", "0"], ["check", "--command", ""], ["check", "--timeout", "-1"], ["check", "--fix", "--undo"]],
)
def test_bad_input_exits_2_in_one_sentence(repo: Repo, capsys, args: list[str]) -> None:
    user_before_definer(repo)
    with pytest.raises(SystemExit) as exited:
        code = segmint(repo, *args)
        raise SystemExit(code)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(("segmint: ", "usage:")) and "Traceback" not in err


def test_an_untrusted_command_does_not_run_without_consent(repo: Repo, capsys, tmp_path) -> None:
    marker = tmp_path / "ran"
    user_before_definer(repo, f'[tool.segmint]\ncheck = "touch {marker}"\n')
    assert segmint(repo, "check") == 2
    assert "you have not allowed it for this repository" in capsys.readouterr().err
    assert not marker.exists()
    assert segmint(repo, "plan", "--check") == 2 and not marker.exists()
    assert segmint(repo, "check", "--allow") == 0 and marker.exists()
    assert segmint(repo, "check") == 0  # allowed once, for this repository (its results now cached)
    assert not any("allowed" in p.name for p in repo.path.rglob("*.json") if ".git" not in p.parts)


def test_a_changed_command_needs_consent_again(repo: Repo, capsys, tmp_path) -> None:
    marker = tmp_path / "ran"
    user_before_definer(repo, '[tool.segmint]\ncheck = "true"\n')
    assert segmint(repo, "check", "--allow") == 0
    repo.write("pyproject.toml", f'[tool.segmint]\ncheck = "touch {marker}"\n')
    assert segmint(repo, "check") == 2 and not marker.exists()


def test_apply_all_warns_of_a_failed_check_and_require_check_refuses(repo: Repo, capsys) -> None:
    user_before_definer(repo)
    head = repo.head()
    assert segmint(repo, "apply", "--all", "--require-check") == 2
    assert "fails its check" in capsys.readouterr().err and repo.head() == head
    assert segmint(repo, "check") == 1
    capsys.readouterr()
    assert segmint(repo, "apply", "--all") == 0
    assert "fails its check" in capsys.readouterr().err


def test_plan_check_marks_each_commit(repo: Repo, capsys) -> None:
    user_before_definer(repo)
    assert segmint(repo, "plan", "--check") == 1
    out = capsys.readouterr().out
    assert "✗" in out and "✓" in out


def test_plans_out_of_date_are_refused(repo: Repo, capsys) -> None:
    user_before_definer(repo)
    repo.write("pkg/core.py", "def base():\n    return 2\n")
    assert segmint(repo, "check") == 2
    assert "is out of date" in capsys.readouterr().err
