"""The guide's Flask before and after can be made again: the command gives the same commits and draft each run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FLASK = Path(__file__).parents[1] / "planning" / "fixtures" / "flask"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "segmint_bench.before_after", *args], capture_output=True, text=True, timeout=300
    )


def test_the_flask_excerpt_gives_the_same_commits_and_pull_request_each_run() -> None:
    first = run(str(FLASK / "before"), str(FLASK / "after"))
    assert first.returncode == 0, first.stderr
    assert run(str(FLASK / "before"), str(FLASK / "after")).stdout == first.stdout
    out = first.stdout
    assert "| 1 | `build(deps): bump asgiref, attrs, packaging, pytest and python-dotenv` |" in out
    assert "| 8 | `` fix: autoescape is enabled by default for `.svg` template files `` |" in out  # an entry titles it
    assert "- Fix the type of `template_folder` to accept `pathlib.Path`." in out  # the body quotes the others
    title = out.split("```markdown\n# ", 1)[1].split("\n", 1)[0]
    assert f"| 8 | `` {title} `` |" in out and "more)" not in title, (
        "the draft is titled by one of its commits, with no count"
    )
    assert "- [ ] Changed test: app tearing down with unhandled exception (`tests/test_appctx.py`)" in out
    assert " (+" not in out and "## Files changed" not in out, "no body, the draft's neither, lists files with counts"
    plan = out.split("## Test plan\n\n", 1)[1].split("\n```", 1)[0].splitlines()
    assert plan[0] == "- [ ] `pytest` passes (setup.cfg)", "the project's own test command first, read from setup.cfg"
    assert all(
        line.startswith(("- [ ] New test: ", "- [ ] Changed test: ", "- Removed test: ")) for line in plan[1:]
    ), plan


def test_a_tree_that_is_not_a_folder_is_one_clear_error() -> None:
    result = run(str(FLASK / "before"), str(FLASK / "nowhere"))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"segmint_bench.before_after: {FLASK / 'nowhere'} is not a folder\n"
