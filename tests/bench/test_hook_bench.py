"""``segmint bench hook``: the hook timed per agent event beside ``git status`` (figures read, never asserted as times)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo


def test_bench_hook_prints_the_hook_beside_git_status(tmp_path: Path) -> None:
    result = run_segmint("bench", "hook", "--files", "30", "--events", "2", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()] == [
        "repository",
        "segmint",
        "segmint",
        "git",
        "ratio",
        "CPU",
    ]
    assert "target <= 100 ms" in result.stdout


def test_bench_hook_on_a_repository_leaves_it_as_it_was(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("a.py", "a\n")
    repo.write("b.py", "b\n")
    repo.commit("base")
    repo.write("a.py", "changed by the person\n")
    before = repo.snapshot()
    result = run_segmint("bench", "hook", str(repo.path), "--events", "2", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert (figures["files"], figures["events"]) == (2, 2) and figures["edit_event_seconds"] > 0
    assert figures["edit_event_cpu_seconds"] > 0 and figures["git_status_cpu_seconds"] > 0
    assert repo.snapshot() == before
    assert not (repo.path / ".git" / "segmint").exists()


def test_counts_below_one_are_refused(tmp_path: Path) -> None:
    assert_clean_error(run_segmint("bench", "hook", "--events", "0", cwd=tmp_path), "--files and --events")
