"""``segmint bench parse`` and ``bench changes`` end to end: the table, or with --json the figures
(read from the command, never asserted as times)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from segmint_bench.large import build_repo
from segmint_core.git import Git
from tests.support.cli import assert_clean_error, run_segmint

DIFF = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"


def test_bench_parse_prints_a_table_and_json(tmp_path: Path) -> None:
    diff = tmp_path / "one.diff"
    diff.write_text(DIFF)
    table = run_segmint("bench", "parse", str(diff), "--repeat", "2", cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    assert "parsed    1 file, 1 hunk" in table.stdout
    figures = json.loads(run_segmint("bench", "parse", str(diff), "--repeat", "2", "--json", cwd=tmp_path).stdout)
    assert (figures["files"], figures["hunks"], figures["repeat"]) == (1, 1, 2)


def test_only_the_chosen_benchmark_is_loaded_and_the_help_lists_them_all() -> None:
    """Loading every benchmark (the MCP listing, the fitted models) cost each command 1.5 s."""
    script = (
        "import sys\n"
        "from segmint.cli import build_parser\n"
        "from segmint_bench.command import BENCHES\n"
        "args = build_parser().parse_args(['bench', 'parse', 'x.diff'])\n"
        "loaded = sorted(n for n, (module, _) in BENCHES.items() if module in sys.modules)\n"
        "print(args.bench, args.files, loaded)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.split("\n")[0] == "parse ['x.diff'] ['parse']"
    listing = run_segmint("bench", "--help").stdout
    assert all(name in listing for name in ("parse", "untangle", "fit", "messages", "provenance", "scale"))
    assert "score proposed commit subjects against the subjects the engineers wrote" in " ".join(listing.split())


def test_bench_changes_prints_the_ratio(tmp_path: Path) -> None:
    result = run_segmint("bench", "changes", "--lines", "200", "--repeat", "1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["changed", "git", "segmint", "ratio"]


def test_bench_large_groups_the_generated_file_whole(tmp_path: Path) -> None:
    result = run_segmint("bench", "large", "--mb", "0.05", "--repeat", "1", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["generated_in_one_group"] is True
    assert set(figures["steps"]) == {
        "git diff (reference)",
        "segmint group",
        "git add + commit (ref.)",
        "segmint plan",
        "segmint apply --all",
    }
    assert all(row["mb"] > 0 for row in figures["steps"].values())
    assert figures["tui_first_frame"]["seconds"] > 0, figures["tui_first_frame"]


def test_bench_large_s_long_lines_tree_plans_the_fix_on_its_own(tmp_path: Path) -> None:
    """The tree ``--long-lines`` times: hand-written files with lines of that many characters."""
    root = build_repo(tmp_path / "repo", 1.0, long_lines=3000)
    added = [line for line in Git.discover(root).run("diff").text.splitlines() if line.startswith("+")]
    assert sum(len(line) > 3000 for line in added) >= 6
    plan = json.loads(run_segmint("plan", "--json", cwd=root).stdout)
    fix = [c for c in plan["commits"] if c["title"].endswith("in total")]
    assert len(fix) == 1 and len(plan["commits"]) > 1, [c["title"] for c in plan["commits"]]
    assert all(len(c["title"]) <= 72 for c in plan["commits"])


def test_bench_scale_groups_each_tree_beside_git_diff(tmp_path: Path) -> None:
    result = run_segmint("bench", "scale", "--files", "20", "40", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    steps = [(r["files"], r["variant"], r["step"]) for r in figures["rows"]]
    assert steps == [
        (20, "same", "git diff (reference)"),
        (20, "same", "segmint group"),
        (20, "same", "segmint plan"),
        (20, "same", "TUI first frame"),
        (40, "same", "git diff (reference)"),
        (40, "same", "segmint group"),
        (20, "unique", "git diff (reference)"),
        (20, "unique", "segmint group"),
        (20, "unique", "segmint plan"),
        (20, "unique", "TUI first frame"),
        (40, "unique", "git diff (reference)"),
        (40, "unique", "segmint group"),
    ]
    grouped = [r for r in figures["rows"] if r["step"] == "segmint group"]
    assert all(r["mb"] > 0 and r["cpu"] > 0 and r["coarse"] is False for r in grouped)
    assert all(r["seconds"] > 0 for r in figures["rows"] if r["step"] == "TUI first frame")
    assert [(g["variant"], g["file_ratio"]) for g in figures["growth"]] == [("same", 2.0), ("unique", 2.0)]


def test_counts_below_one_are_one_sentence_before_any_work(tmp_path: Path) -> None:
    diff = tmp_path / "one.diff"
    diff.write_text(DIFF)
    for args, said in (
        (("parse", str(diff), "--repeat", "0"), "--repeat must be at least 1"),
        (("chunks", str(diff), "--repeat", "-1"), "--repeat must be at least 1"),
        (("changes", "--lines", "0"), "--lines and --repeat must be at least 1"),
        (("changes", "--repeat", "0"), "--lines and --repeat must be at least 1"),
        (("mcp", "--repeat", "0"), "--files and --repeat must be at least 1"),
        (("mcp", "--files", "-3"), "--files and --repeat must be at least 1"),
        (("large", "--mb", "nan"), "--mb must be positive"),
        (("large", "--mb", "inf"), "--mb must be positive"),
        (("large", "--long-lines", "0"), "--long-lines must be at least 1"),
        (("scale", "--files", "1"), "--files must be at least 2"),
    ):
        assert_clean_error(run_segmint("bench", *args, cwd=tmp_path), said)
