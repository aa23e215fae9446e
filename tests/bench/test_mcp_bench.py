"""``segmint bench mcp`` runs end to end (its figure is read from the command, never asserted here)."""

from __future__ import annotations

import json

from tests.support.cli import run_segmint


def test_bench_mcp_reports_the_round_trip(tmp_path) -> None:
    result = run_segmint("bench", "mcp", "--files", "3", "--repeat", "3", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["changed_files"] == 3 and figures["repeat"] == 3
    assert figures["target_seconds"] == 0.03 and figures["median_seconds"] > 0
    assert figures["tools"] >= 25 and figures["tools_list_tokens"] > figures["model_facing_tokens"] > 0
