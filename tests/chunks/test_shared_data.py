"""The real diffs in ../shared/data: rich (with non-UTF-8 bytes and CRs) and fzf, alone and concatenated."""

from __future__ import annotations

import gzip
import json

import pytest

from segmint_core.chunks import ChunkService
from tests.chunks.builders import write_diff
from tests.conftest import shared_data

RICH = "rich-v1.0.0-v14.3.3.diff.gz"
FZF = "fzf-first-to-head.diff.gz"


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> str:
    data = b"".join(gzip.decompress(shared_data(name).read_bytes()) for name in (RICH, FZF))
    return write_diff(tmp_path_factory.mktemp("shared"), data, "rich-and-fzf.diff")


def test_every_line_is_in_a_chunk_when_nothing_is_filtered(both: str) -> None:
    service = ChunkService()
    data = service.load_diff(both, max_chunk_lines=10**9, skip_trivial=False, skip_generated=False).data
    assert data["total_lines"] == 139_705 and data["chunks"] == 1


def test_defaults_keep_to_the_limit_or_say_why(both: str) -> None:
    service = ChunkService()
    loaded = service.load_diff(both).data
    assert loaded["files_skipped_generated"] == 3  # poetry.lock, Gemfile.lock, go.sum
    assert loaded["encoding"]["sections_with_undecodable_bytes"] == 1  # rich's assets/logo.ai
    session = service.store.get(both)
    for chunk in session.chunks:
        if chunk.oversized:
            assert len(chunk.parts) == 1 and chunk.parts[0].stop - chunk.parts[0].start == 1
            assert chunk.line_count > 1000
        else:
            assert chunk.line_count <= 1000
    assert loaded["oversized_chunks"] == [c.number for c in session.chunks if c.oversized]


def test_every_chunked_file_is_found_by_its_path(both: str) -> None:
    service = ChunkService()
    session = service.store.get(both)
    for chunk in session.chunks[::7]:
        for path in chunk.files:
            found = service.find_chunks_for_files(both, path.replace("[", "[[]")).data["chunks"]
            assert chunk.number in found


def test_every_chunk_renders_in_every_format_as_valid_utf8(both: str) -> None:
    service = ChunkService()
    total = service.list_chunks(both).data["total_chunks"]
    for number in range(1, total + 1):
        for fmt in ("raw", "annotated", "compact"):
            result = service.get_chunk(both, number, format=fmt)
            result.text.encode("utf-8")
            json.dumps(result.data, ensure_ascii=False).encode("utf-8")
    logo = service.get_file_diff(both, "assets/logo.ai").text
    assert logo.startswith("diff --git a/assets/logo.ai b/assets/logo.ai") and "%\\xe2\\xe3\\xcf\\xd3" in logo


def test_a_path_in_both_diffs_gives_both_sections(both: str) -> None:
    result = ChunkService().get_file_diff(both, "README.md")
    assert result.data["sections"] == 2
    assert result.text.count("diff --git a/README.md b/README.md") == 2


@pytest.mark.parametrize("name", [RICH, FZF])
def test_gzip_files_load_as_they_are(name: str) -> None:
    data = ChunkService().load_diff(str(shared_data(name))).data
    assert data["chunks"] > 10 and data["encoding"]["compressed"] == "gzip"
