"""``segmint bench tui`` runs end to end and names its figures (times are read, never asserted)."""

from __future__ import annotations

import subprocess
import sys

from tests.support.cli import run_segmint

NO_TUI = """
import sys
sys.modules["textual"] = None      # as if Textual were not installed
from segmint.cli import main
sys.exit(main(["bench", "tui", "--files", "3"]))
"""


def test_bench_tui_names_first_paint_and_key_figures_beside_targets(tmp_path) -> None:
    result = run_segmint("bench", "tui", "--files", "12", "--keys", "3", "--repeat", "1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "headless" in out and "App.run_test()" in out
    assert "change: 12 files, 36 hunks" in out
    assert "first paint (12 files)" in out
    for label in (
        "groups + diff on screen, grouped before",
        "groups + diff on screen, fresh tree (grouping included)",
        "first frame, fresh tree",
        "reference: grouping alone",
        "not included: importing the app",
        "cursor over groups",
        "cursor over files and hunks",
        "next/previous hunk in a diff",
        "CPU time of the app until groups shown, fresh tree",
        "CPU time of its grouping process and git",
        "CPU time of grouping alone",
    ):
        assert label in out, label
    assert "median" in out and "p90" in out
    assert out.count("≤ 1.5 s") == 3 and out.count("≤ 50 ms") == 3
    assert "pairing: an MCP client over HTTP renames a group" in out and out.count("≤ 100 ms") == 2
    assert "building a repository with 12 changed files" in result.stderr, "progress goes to stderr"
    assert "Traceback" not in result.stderr  # the app's MCP server is shut down, not cancelled


def test_bench_tui_without_the_terminal_ui_says_so_in_one_sentence(tmp_path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", NO_TUI], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 2, proc
    assert proc.stderr.startswith("segmint: the terminal UI benchmark needs Textual, which cannot be imported")
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_bench_tui_on_a_repository_times_its_first_frame(demo) -> None:
    result = run_segmint("bench", "tui", "--on", str(demo.path), "--repeat", "1", cwd=demo.path)
    assert result.returncode == 0, result.stderr
    assert f"repository: {demo.path}" in result.stdout
    assert "first frame (progress shown), median of 1" in result.stdout and "≤ 1.5 s" in result.stdout
