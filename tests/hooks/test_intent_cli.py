"""``segmint intent``: a person says what they are working on, from any shell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from segmint_core.trajectory.provenance import current_intent
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo


def test_set_show_and_finish_an_intent(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.commit("base")
    shown = run_segmint("intent", cwd=repo.path)
    assert shown.returncode == 0 and shown.stdout.startswith("No current intent.")
    set_ = run_segmint("intent", "fix", "the  crash on an empty config", cwd=repo.path)
    assert (set_.returncode, set_.stdout) == (0, "Now working on: fix the crash on an empty config\n")
    intent = current_intent(repo.path)
    assert (intent.text, intent.source) == ("fix the crash on an empty config", "cli")
    shown = run_segmint("intent", cwd=repo.path)
    assert shown.stdout.startswith("Now working on: fix the crash on an empty config (since ")
    assert shown.stdout.rstrip().endswith("from cli)")
    done = run_segmint("intent", "--done", cwd=repo.path)
    assert done.stdout == "Done: fix the crash on an empty config\n"
    assert current_intent(repo.path) is None
    assert run_segmint("intent", "--done", cwd=repo.path).stdout == "No current intent: nothing to finish.\n"


def test_bad_input_is_one_sentence(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    assert_clean_error(run_segmint("intent", "x", "--done", cwd=repo.path), "either a new intent or --done")
    assert_clean_error(run_segmint("intent", "  ", cwd=repo.path), "The intent is empty")
    assert_clean_error(run_segmint("intent", "x", cwd=tmp_path), "Not a git repository")


def _two_tasks_by_hand(repo: Repo, *, finish: bool) -> None:
    """A person says a task from the shell, edits by hand in an editor no hook watches, says the
    next, edits again; a changelog gets an entry from each."""
    run_segmint("intent", "Raise the retry limit to five", cwd=repo.path)
    repo.write("config.py", "RETRIES = 5\nTIMEOUT = 10\n")
    repo.write("CHANGES.md", "# Changes\n\n- The retry limit is five.\n\n## 1.0\n\n- First release.\n")
    run_segmint("intent", "Add a greeting helper", cwd=repo.path)
    repo.write("util.py", "def slug(text):\n    return text.lower()\n\n\ndef greet(name):\n    return 'hi ' + name\n")
    repo.write(
        "CHANGES.md", "# Changes\n\n- `greet` says hello.\n- The retry limit is five.\n\n## 1.0\n\n- First release.\n"
    )
    if finish:
        run_segmint("intent", "--done", cwd=repo.path)


@pytest.mark.parametrize("finish", [True, False], ids=["finished", "still-current"])
def test_edits_made_by_hand_are_planned_by_the_task_said_in_the_shell(tmp_path: Path, finish: bool) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("config.py", "RETRIES = 3\nTIMEOUT = 10\n")
    repo.write("util.py", "def slug(text):\n    return text.lower()\n")
    repo.write("CHANGES.md", "# Changes\n\n## 1.0\n\n- First release.\n")
    repo.commit("base")
    _two_tasks_by_hand(repo, finish=finish)
    plan = run_segmint("plan", "--json", cwd=repo.path)
    assert plan.returncode == 0, plan.stderr
    # (a history of one commit reads as a Conventional house: the task's words follow the type)
    commits = {c["title"].split(": ", 1)[1]: c for c in json.loads(plan.stdout)["commits"]}
    assert set(commits) == {"raise the retry limit to five", "add a greeting helper"}
    files = {words: {h.split(":")[0] for h in c["hunk_ids"]} for words, c in commits.items()}
    assert len(files["raise the retry limit to five"]) == 2 and len(files["add a greeting helper"]) == 2


CAST = """def as_bool(key, value):
    mapping = {"true": True, "false": False}
    value = value.lower()
    if value not in mapping:
        raise ValueError(f"{key} has value {value!r}")
    return mapping[value]
"""


def test_two_tasks_that_rewrote_one_hunks_lines_each_commit_and_build(tmp_path: Path) -> None:
    """The first task renames a variable so its error shows the value as given; the second widens
    the mapping and rewrites one of the first task's lines. Cut line by line, each commit must
    still compile alone: each new line where its old one was, and the rewritten line with the task
    whose commit needs it."""
    repo = Repo(tmp_path / "repo")
    repo.write("cast.py", CAST)
    repo.commit("base")
    run_segmint("intent", "Show the value as given in the error", cwd=repo.path)
    fixed = CAST.replace(
        "    value = value.lower()\n    if value not", "    lowered = value.lower()\n    if lowered not"
    )
    repo.write("cast.py", fixed.replace("mapping[value]", "mapping[lowered]"))
    run_segmint("intent", "Accept yes and no as booleans", cwd=repo.path)
    widened = repo.read("cast.py").decode().replace('"false": False}', '"false": False, "yes": True, "no": False}')
    repo.write("cast.py", widened.replace("value.lower()", "value.strip().lower()"))
    run_segmint("intent", "--done", cwd=repo.path)
    plan = json.loads(run_segmint("plan", "--json", cwd=repo.path).stdout)["commits"]
    assert len(plan) == 2, [c["title"] for c in plan]
    assert "show the value as given" in plan[0]["title"].lower(), "in the order the tasks were asked"
    checked = run_segmint("check", "--json", cwd=repo.path)
    assert checked.returncode == 0, checked.stdout
    assert [c["status"] for c in json.loads(checked.stdout)["commits"]] == ["passed", "passed"]


def test_a_task_that_only_fixed_another_tasks_new_line_is_said_in_that_commit(tmp_path: Path) -> None:
    """The typo fixed in a line the first task added (never committed) belongs in that task's commit,
    as git-absorb would fold it; the second task, left with no line of its own, is said there."""
    repo = Repo(tmp_path / "repo")
    repo.write("guide.rst", ".. _codes:\n\nCodes\n=====\n")
    repo.commit("base")
    run_segmint("intent", "Add a section on exit codes", cwd=repo.path)
    repo.write("guide.rst", ".. _codes:\n\nCodes\n=====\n\n.. _exit-codes\n\nExit codes\n----------\n\nZero is fine.\n")
    run_segmint("intent", "Fix the cross link typo", cwd=repo.path)
    repo.write("guide.rst", repo.read("guide.rst").decode().replace(".. _exit-codes\n", ".. _exit-codes:\n"))
    run_segmint("intent", "--done", cwd=repo.path)
    (commit,) = json.loads(run_segmint("plan", "--json", cwd=repo.path).stdout)["commits"]
    assert commit["title"].lower().endswith("add a section on exit codes")
    assert "Also: fix the cross link typo." in commit["description"]
    pr = run_segmint("pr", cwd=repo.path).stdout
    assert "## Tasks\n\n- Add a section on exit codes\n- Fix the cross link typo\n" in pr
