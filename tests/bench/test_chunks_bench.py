"""``segmint bench chunks``: runs on real files and reports figures (no timing is asserted)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from segmint_bench.diffchunk_ref import diffchunk_tools
from segmint_core.errors import SegmintError
from tests.chunks.builders import edited_file, new_file, write_diff
from tests.support.cli import assert_clean_error, run_segmint


def test_bench_chunks_reports_figures_for_several_files(tmp_path: Path) -> None:
    plain = write_diff(tmp_path, new_file("a.py", 30), "a.diff")
    packed = write_diff(tmp_path, gzip.compress(edited_file("b.py", 4).encode()), "b.diff.gz")
    result = run_segmint("bench", "chunks", plain, packed, "--repeat", "1", "--max-chunk-lines", "20", "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert (figures["files"], figures["chunks"], figures["max_chunk_lines"]) == (2, 2, 20)
    assert figures["lines"] == 36 + 4 + 4 * 3
    assert "diffchunk_seconds" not in figures


def test_bench_chunks_beside_diffchunk(tmp_path: Path) -> None:
    try:
        diffchunk_tools()
    except SegmintError as exc:
        pytest.skip(str(exc))
    path = write_diff(tmp_path, new_file("a.py", 30) + new_file("b.py", 3))
    result = run_segmint("bench", "chunks", path, "--vs-diffchunk", "--repeat", "1")
    assert result.returncode == 0, result.stderr
    assert "diffchunk  " in result.stdout and "speedup    " in result.stdout


def test_bench_chunks_missing_file(tmp_path: Path) -> None:
    assert_clean_error(run_segmint("bench", "chunks", str(tmp_path / "none.diff")), "No such file")


@pytest.mark.parametrize("command", ["parse", "chunks"])
def test_bench_inputs_that_are_no_diff(tmp_path: Path, command: str) -> None:
    (tmp_path / "bad.diff.gz").write_bytes(b"garbage\n")
    assert_clean_error(
        run_segmint("bench", command, str(tmp_path / "bad.diff.gz")), "bad.diff.gz is not a readable gzip file"
    )
    assert_clean_error(run_segmint("bench", command, str(tmp_path)), "is a directory; give diff files")


def test_bench_chunks_of_an_empty_diff_names_it(tmp_path: Path) -> None:
    (tmp_path / "empty.diff").write_bytes(b"")
    assert_clean_error(run_segmint("bench", "chunks", str(tmp_path / "empty.diff")), "empty.diff: no diff to chunk")
