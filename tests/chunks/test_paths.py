"""Which paths load: absolute ones only, canonicalized; clear errors for the rest."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from segmint_core.chunks import ChunkService
from segmint_core.chunks.errors import DiffFileError
from segmint_core.errors import DiffParseError, SegmintError
from tests.chunks.builders import new_file, write_diff


def error_of(call) -> SegmintError:
    with pytest.raises(SegmintError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and message.endswith(".")
    return info.value


def test_a_relative_path_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_diff(tmp_path, new_file("a.py", 1))
    monkeypatch.chdir(tmp_path)
    err = error_of(lambda: ChunkService().list_chunks("change.diff"))
    assert isinstance(err, DiffFileError)
    assert str(err) == (
        "absolute_file_path must be an absolute path, not 'change.diff'; "
        "give the full path to the diff file, or 'working-tree'."
    )


def test_a_missing_file(tmp_path: Path) -> None:
    err = error_of(lambda: ChunkService().load_diff(str(tmp_path / "nope.diff")))
    assert str(err) == f"Diff file not found: {os.path.realpath(tmp_path / 'nope.diff')}."


def test_a_directory(tmp_path: Path) -> None:
    err = error_of(lambda: ChunkService().get_chunk(str(tmp_path), 1))
    assert str(err) == f"{os.path.realpath(tmp_path)} is a directory, not a diff file."


def test_an_empty_file_and_a_text_file_that_is_no_diff(tmp_path: Path) -> None:
    empty = write_diff(tmp_path, "", "empty.diff")
    err = error_of(lambda: ChunkService().load_diff(empty))
    assert isinstance(err, DiffParseError) and "is empty" in str(err)
    prose = write_diff(tmp_path, "Dear diary,\n--- today ---\nnothing changed.\n", "notes.txt")
    err = error_of(lambda: ChunkService().list_chunks(prose))
    assert isinstance(err, DiffParseError)
    assert str(err).startswith(f"{os.path.realpath(prose)} is not a diff: it holds no file sections")


def test_a_binary_file_is_an_encoding_error(tmp_path: Path) -> None:
    blob = write_diff(tmp_path, bytes(range(256)) * 64, "blob.bin")
    err = error_of(lambda: ChunkService().load_diff(blob))
    assert isinstance(err, DiffFileError)
    assert "cannot be read as text in any encoding" in str(err)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file(tmp_path: Path) -> None:
    path = write_diff(tmp_path, new_file("a.py", 1))
    os.chmod(path, 0)
    err = error_of(lambda: ChunkService().load_diff(path))
    assert str(err) == f"Cannot read {os.path.realpath(path)}: permission denied."


def test_home_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    write_diff(tmp_path, new_file("a.py", 1))
    data = ChunkService().load_diff("~/change.diff").data
    assert data["file_path"] == os.path.realpath(tmp_path / "change.diff")


def test_a_symlink_and_its_target_are_one_session(tmp_path: Path) -> None:
    target = write_diff(tmp_path, new_file("a.py", 1))
    link = tmp_path / "link.diff"
    link.symlink_to(target)
    service = ChunkService()
    service.load_diff(str(link), max_chunk_lines=7)
    service.list_chunks(target)
    overview = service.get_current_overview().data
    assert overview["total_sessions"] == 1
    assert overview["sessions"][0]["max_chunk_lines"] == 7


def test_a_gzip_compressed_diff_loads(tmp_path: Path) -> None:
    text = new_file("a.py", 3)
    path = write_diff(tmp_path, gzip.compress(text.encode()), "change.diff.gz")
    service = ChunkService()
    assert service.load_diff(path).data["encoding"]["compressed"] == "gzip"
    assert service.get_chunk(path, 1, include_context=False).text == text


def test_working_tree_outside_a_repository(tmp_path: Path) -> None:
    err = error_of(lambda: ChunkService(repo_root=tmp_path).list_chunks("working-tree"))
    assert str(err).startswith("'working-tree' needs a git repository")


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.diff"
    os.mkfifo(fifo)
    err = error_of(lambda: ChunkService().load_diff(str(fifo)))
    assert str(err) == f"{os.path.realpath(fifo)} is not a regular file, so it cannot be read as a diff file."
