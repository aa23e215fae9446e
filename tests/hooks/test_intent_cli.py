"""``segmint intent``: a person says what they are working on, from any shell."""

from __future__ import annotations

from pathlib import Path

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
