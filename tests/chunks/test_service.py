"""The tools' shapes and rules: list, read, search, one file, the overview, auto-loading."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from segmint_core.chunks import RESOURCE_URI, TOOL_NAMES, ChunkService
from segmint_core.chunks.errors import ChunkArgumentError, FileNotInDiffError
from segmint_core.errors import SegmintError
from tests.chunks.builders import edited_file, new_file, write_diff

DIFF = new_file("src/app.py", 4) + new_file("src/App.md", 2) + edited_file("lib/util.py", 3) + new_file("yarn.lock", 1)


@pytest.fixture
def diff(tmp_path: Path) -> str:
    return write_diff(tmp_path, DIFF)


def test_load_diff_shape(diff: str) -> None:
    result = ChunkService().load_diff(diff, max_chunk_lines=20)
    data = result.data
    assert {k: data[k] for k in ("chunks", "files", "total_lines", "file_path", "files_excluded")} == {
        "chunks": 2,
        "files": 3,
        "total_lines": 10 + 8 + 13,
        "file_path": diff,
        "files_excluded": 0,
    }
    assert data["files_skipped_generated"] == 1 and data["oversized_chunks"] == []
    assert len(data["content_hash"]) == 16
    assert result.text.startswith(f"Loaded {diff}: 2 chunks, 3 files, 31 lines (at most 20 lines per chunk).")


def test_list_chunks_shape(diff: str) -> None:
    service = ChunkService()
    service.load_diff(diff, max_chunk_lines=20)
    result = service.list_chunks(diff)
    first, second = result.data["chunks"]
    assert first == {
        "chunk": 1,
        "files": ["src/app.py", "src/App.md"],
        "file_details": [
            {"path": "src/app.py", "lines": 10, "status": "added"},
            {"path": "src/App.md", "lines": 8, "status": "added"},
        ],
        "lines": 18,
        "token_count": len(service.get_chunk(diff, 1, include_context=False).text) // 4,
        "summary": "2 files, 18 lines",
        "parent_file": None,
        "sub_chunk_index": None,
        "sub_chunk_count": None,
        "oversized": False,
        "hunk_ids": None,
    }
    assert second["summary"] == "1 file, 13 lines"
    assert result.data["total_token_count"] == first["token_count"] + second["token_count"]
    assert result.text.splitlines()[1].startswith("Chunk 1: 2 files, 18 lines, ~")
    assert result.text.splitlines()[1].endswith(": src/app.py (10), src/App.md (8)")


def test_get_chunk_raw_with_and_without_context(diff: str) -> None:
    service = ChunkService()
    raw = service.get_chunk(diff, 1, include_context=False)
    assert raw.text == new_file("src/app.py", 4) + new_file("src/App.md", 2) + edited_file("lib/util.py", 3)
    framed = service.get_chunk(diff, 1)
    assert framed.text == (
        "=== Chunk 1 of 1 ===\nFiles: src/app.py, src/App.md, lib/util.py\nLines: 31\n"
        + "=" * 50
        + "\n"
        + new_file("src/app.py", 4)
        + new_file("src/App.md", 2)
        + edited_file("lib/util.py", 3)
    )
    assert framed.data["content"] == framed.text.split("=" * 50 + "\n", 1)[1]
    assert (framed.data["chunk"], framed.data["total_chunks"], framed.data["format"]) == (1, 1, "raw")


def test_get_chunk_annotated_and_compact(tmp_path: Path) -> None:
    text = (
        "diff --git a/m.py b/m.py\nindex 1111111..2222222 100644\n--- a/m.py\n+++ b/m.py\n"
        "@@ -10,4 +10,4 @@ def main():\n a = 1\n-b = 2\n+b = 3\n c = 4\n\\ No newline at end of file\n"
    )
    path = write_diff(tmp_path, text)
    service = ChunkService()
    annotated = service.get_chunk(path, 1, include_context=False, format="annotated").text
    assert annotated == (
        "## File: 'm.py'\n__new hunk__ | def main():\n  10  a = 1\n  11 +b = 3\n  12  c = 4\n"
        "__old hunk__ | def main():\n     a = 1\n    -b = 2\n     c = 4\n"
    )
    compact = service.get_chunk(path, 1, include_context=False, format="compact").text
    assert compact == "## File: 'm.py'\n__new hunk__ | def main():\n  10  a = 1\n  11 +b = 3\n  12  c = 4\n"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda s, p: s.get_chunk(p, 0), "chunk_number must be a positive integer, not 0."),
        (
            lambda s, p: s.get_chunk(p, 9),
            "Chunk 9 does not exist: {p} has 1 chunks (1-1); list_chunks shows what each holds.",
        ),
        (lambda s, p: s.get_chunk(p, 1, format="html"), "format must be one of raw, annotated, compact, not 'html'."),
        (
            lambda s, p: s.find_chunks_for_files(p, "  "),
            "pattern must be a non-empty glob, such as '*' for every file, '*.py' or 'src/*'.",
        ),
        (lambda s, p: s.load_diff(p, max_chunk_lines=0), "max_chunk_lines must be a positive integer, not 0."),
        (
            lambda s, p: s.load_diff(p, context_lines=-1),
            "context_lines must be a non-negative integer or omitted, not -1.",
        ),
        (lambda s, p: s.get_file_diff(p, ""), "file_path must be a non-empty path or glob of a file in the diff."),
    ],
)
def test_bad_arguments_get_one_clear_sentence(diff: str, call, message: str) -> None:
    with pytest.raises(ChunkArgumentError) as info:
        call(ChunkService(), diff)
    assert str(info.value) == message.format(p=diff)


def test_find_chunks_for_files_is_a_case_insensitive_glob(diff: str) -> None:
    service = ChunkService()
    service.load_diff(diff, max_chunk_lines=20)
    found = service.find_chunks_for_files(diff, "SRC/*.PY")
    assert found.data == {"pattern": "SRC/*.PY", "chunks": [1], "files": ["src/app.py"], "skipped_files": []}
    assert found.text == "1 file matching 'SRC/*.PY' in chunk 1: src/app.py."
    assert service.find_chunks_for_files(diff, "*.py").data["chunks"] == [1, 2]
    nothing = service.find_chunks_for_files(diff, "*.lock")
    assert nothing.data["chunks"] == []
    assert nothing.data["skipped_files"] == [{"path": "yarn.lock", "reason": "generated"}]
    assert "yarn.lock (generated)" in nothing.text


def test_get_file_diff_exact_then_case_insensitive_then_glob(diff: str) -> None:
    service = ChunkService()
    assert service.get_file_diff(diff, "src/app.py").text == new_file("src/app.py", 4)
    assert service.get_file_diff(diff, "src/APP.py").data["file_path"] == "src/app.py"
    # "src/App.md" exactly, though "src/app.md" would also match it case-insensitively.
    assert service.get_file_diff(diff, "src/App.md").data["file_path"] == "src/App.md"
    assert service.get_file_diff(diff, "lib/*").data["file_path"] == "lib/util.py"
    lock = service.get_file_diff(diff, "yarn.lock")
    assert lock.data["skipped"] == "generated" and lock.data["chunks"] == []


def test_get_file_diff_errors_list_candidates(diff: str) -> None:
    service = ChunkService()
    with pytest.raises(FileNotInDiffError) as info:
        service.get_file_diff(diff, "src/*")
    assert str(info.value) == f"'src/*' matches 2 files in {diff}: src/App.md, src/app.py; give one exact path."
    with pytest.raises(FileNotInDiffError) as info:
        service.get_file_diff(diff, "lib/utils.py")
    assert str(info.value) == (
        f"No file matching 'lib/utils.py' in {diff} (similar paths: lib/util.py); "
        "use find_chunks_for_files to search by pattern."
    )
    with pytest.raises(FileNotInDiffError) as info:
        service.get_file_diff(diff, "zzz")
    assert "files in it include: lib/util.py, src/App.md, src/app.py, yarn.lock)" in str(info.value)


def test_a_file_in_two_concatenated_diffs_has_both_sections(tmp_path: Path) -> None:
    path = write_diff(tmp_path, new_file("README.md", 1) + new_file("x.py", 1) + new_file("README.md", 2, "v2"))
    result = ChunkService().get_file_diff(path, "readme.md")
    assert result.text == new_file("README.md", 1) + new_file("README.md", 2, "v2")
    assert result.data["sections"] == 2


def test_overview_and_resource(diff: str, tmp_path: Path) -> None:
    service = ChunkService()
    empty = service.get_current_overview()
    assert empty.data == {"loaded": False, "total_sessions": 0, "sessions": [], "message": "No diffs currently loaded"}
    assert json.loads(service.current_resource()) == empty.data
    other = write_diff(tmp_path, new_file("b.py", 1), "a-other.diff")
    service.list_chunks(diff)
    service.load_diff(other, max_chunk_lines=50)
    data = service.get_current_overview().data
    assert data["loaded"] and data["total_sessions"] == 2
    assert [(s["file_path"], s["chunks"], s["files"], s["max_chunk_lines"]) for s in data["sessions"]] == [
        (other, 1, 1, 50),
        (diff, 1, 3, 1000),
    ]
    assert json.loads(service.current_resource()) == data
    assert RESOURCE_URI == "diffchunk://current"
    assert all(callable(getattr(service, name)) for name in TOOL_NAMES)


def test_every_tool_loads_on_first_use(diff: str) -> None:
    for call in (
        lambda s: s.list_chunks(diff),
        lambda s: s.get_chunk(diff, 1),
        lambda s: s.find_chunks_for_files(diff, "*"),
        lambda s: s.get_file_diff(diff, "lib/util.py"),
    ):
        service = ChunkService()
        call(service)
        assert service.get_current_overview().data["total_sessions"] == 1


def test_a_changed_file_reloads_with_its_last_settings(tmp_path: Path) -> None:
    path = write_diff(tmp_path, new_file("a.py", 5) + new_file("b.py", 5))
    service = ChunkService()
    service.load_diff(path, max_chunk_lines=11, include_patterns="*.py")
    before = service.list_chunks(path).data
    assert before["total_chunks"] == 2
    write_diff(tmp_path, new_file("a.py", 5) + new_file("b.py", 5) + new_file("c.py", 5) + new_file("d.md", 1))
    after = service.list_chunks(path).data
    assert [c["files"] for c in after["chunks"]] == [["a.py"], ["b.py"], ["c.py"]]
    sessions = service.get_current_overview().data["sessions"]
    assert len(sessions) == 1 and sessions[0]["max_chunk_lines"] == 11


def test_an_unchanged_file_is_not_parsed_again(diff: str) -> None:
    service = ChunkService()
    first = service.store.get(diff)
    assert service.store.get(diff) is first
    assert service.store.load(diff, first.options) is not first


def test_errors_are_segmint_errors(diff: str) -> None:
    with pytest.raises(SegmintError):
        ChunkService().get_chunk(diff, 2)


def test_a_rewrite_that_keeps_size_and_mtime_is_still_seen(tmp_path: Path) -> None:
    path = write_diff(tmp_path, new_file("a.py", 3, "one"))
    os.utime(path, ns=(10**18, 10**18))  # an old file: its stat is trusted between calls
    service = ChunkService()
    assert "+one 1" in service.get_chunk(path, 1).text
    write_diff(tmp_path, new_file("a.py", 3, "two"))  # same size
    os.utime(path, ns=(10**18, 10**18))  # same mtime; the ctime moved
    assert "+two 1" in service.get_chunk(path, 1).text
