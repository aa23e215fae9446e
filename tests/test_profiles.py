"""`--hypothesis-profile=thorough` reaches every property test; the default run stays quick."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROPERTY_AREAS = ["tests/changes", "tests/apply", "tests/session"]


def example_counts(*options: str) -> dict[str, int]:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "tests.support.example_counts",
            "-p",
            "no:cacheprovider",
            *options,
            *PROPERTY_AREAS,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    rows = [line.split() for line in run.stdout.splitlines() if line.startswith("EXAMPLES ")]
    return {test: int(count) for _, test, count in rows}


def test_the_thorough_profile_runs_2000_examples_of_every_property_test() -> None:
    thorough = example_counts("--hypothesis-profile=thorough")
    assert len(thorough) >= 10, thorough
    assert {test: n for test, n in thorough.items() if n != 2000} == {}


def test_the_default_run_keeps_each_test_s_quick_count() -> None:
    quick = example_counts()
    assert quick["tests/session/test_session_properties.py::test_group_plan_apply_everything"] == 100
    assert quick["tests/session/test_move_lines_properties.py::test_moved_lines_commit_exactly"] == 60
    assert max(quick.values()) <= 300
