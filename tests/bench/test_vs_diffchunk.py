"""Same answers as diffchunk 0.2.0 where its behaviour is the contract (skipped when it is absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from segmint_bench.diffchunk_ref import diffchunk_tools
from segmint_core.chunks import ChunkService
from segmint_core.errors import SegmintError
from tests.chunks.builders import edited_file, new_file, write_diff

DELETED = (
    "diff --git a/old.txt b/old.txt\ndeleted file mode 100644\nindex 3333333..0000000\n"
    "--- a/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-gone 1\n-gone 2\n"
)
MIXED = (
    "diff --git a/m.py b/m.py\nindex 1111111..2222222 100644\n--- a/m.py\n+++ b/m.py\n"
    "@@ -10,5 +10,6 @@ def main():\n a = 1\n-b = 2\n+b = 3\n+b2 = 4\n c = 4\n d = 5\n"
    "@@ -40,3 +41,2 @@ class K:\n x\n-y\n z\n"
)


@pytest.fixture
def theirs():
    try:
        return diffchunk_tools()
    except SegmintError as exc:
        pytest.skip(str(exc))


@pytest.fixture
def diff(tmp_path: Path) -> str:
    return write_diff(tmp_path, new_file("src/a.py", 3) + MIXED + DELETED + edited_file("lib/u.py", 2))


@pytest.mark.parametrize("fmt", ["annotated", "compact"])
def test_formats_match_diffchunk(theirs, diff: str, fmt: str) -> None:
    ours = ChunkService().get_chunk(diff, 1, include_context=False, format=fmt).text
    assert ours == theirs.get_chunk(diff, 1, include_context=False, format=fmt) + "\n"


def test_file_diff_matches_diffchunk(theirs, diff: str) -> None:
    for path in ("src/a.py", "m.py", "old.txt", "lib/*"):
        assert ChunkService().get_file_diff(diff, path).text == theirs.get_file_diff(diff, path) + "\n"


def test_load_and_list_keys_are_diffchunks(theirs, diff: str) -> None:
    ours = ChunkService()
    assert set(theirs.load_diff(diff)) <= set(ours.load_diff(diff).data)
    their_chunk = theirs.list_chunks(diff)["chunks"][0]
    our_chunk = ours.list_chunks(diff).data["chunks"][0]
    assert set(their_chunk) <= set(our_chunk)
    assert our_chunk["files"] == their_chunk["files"]
    assert set(theirs.list_chunks(diff)) <= set(ours.list_chunks(diff).data)


def test_find_chunks_matches_diffchunk(theirs, diff: str) -> None:
    for pattern in ("*.py", "SRC/*", "*", "nothing*"):
        assert ChunkService().find_chunks_for_files(diff, pattern).data["chunks"] == (
            theirs.find_chunks_for_files(diff, pattern)
        )


def test_overview_keys_are_diffchunks(theirs, diff: str) -> None:
    ours = ChunkService()
    assert set(theirs.get_current_overview()) <= set(ours.get_current_overview().data)
    theirs.list_chunks(diff)
    ours.list_chunks(diff)
    their_overview, our_overview = theirs.get_current_overview(), ours.get_current_overview().data
    assert set(their_overview) <= set(our_overview)
    assert set(their_overview["sessions"][0]) <= set(our_overview["sessions"][0])
