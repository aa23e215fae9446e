"""``working-tree``: the repository's uncommitted changes as chunks that name Segmint hunk ids."""

from __future__ import annotations

import pytest

from segmint_core.changes import capture
from segmint_core.chunks import ChunkService
from segmint_core.chunks.errors import ChunkArgumentError
from segmint_core.git import Git
from tests.support.repo import Repo

WT = "working-tree"


@pytest.fixture
def dirty(repo: Repo) -> Repo:
    repo.write("a.py", "".join(f"a{i}\n" for i in range(40)))
    repo.write("b.py", "b\n")
    repo.commit("base")
    text = (repo.path / "a.py").read_text().replace("a1\n", "A1\n")
    repo.write("a.py", text)
    repo.add("a.py")  # staged: change-1:1
    repo.write("a.py", text.replace("a30\n", "A30\n"))  # unstaged: change-1:2
    repo.write("b.py", "B\n")  # change-2:1
    repo.write("c.py", "new\n")  # untracked: change-3:1
    return repo


def test_chunks_name_the_hunk_ids_they_hold(dirty: Repo) -> None:
    service = ChunkService(dirty.path)
    listing = service.list_chunks(WT)
    (chunk,) = listing.data["chunks"]
    assert chunk["hunk_ids"] == ["change-1:1", "change-1:2", "change-2:1", "change-3:1"]
    expected = [h for c in capture(Git(dirty.path)).changes for h in c.hunks]
    assert chunk["hunk_ids"] == [h.id for h in expected]
    assert [(d["path"], d.get("layer")) for d in chunk["file_details"]] == [
        ("a.py", "staged"),
        ("a.py", "unstaged"),
        ("b.py", "unstaged"),
        ("c.py", "untracked"),
    ]
    assert "  hunks: change-1:1, change-1:2, change-2:1, change-3:1" in listing.text


def test_get_chunk_shows_ids_in_its_header_and_hunk_blocks(dirty: Repo) -> None:
    service = ChunkService(dirty.path)
    raw = service.get_chunk(WT, 1).text
    assert "Hunks: change-1:1, change-1:2, change-2:1, change-3:1\n" in raw
    assert "+A1\n" in raw and "+A30\n" in raw
    annotated = service.get_chunk(WT, 1, include_context=False, format="annotated").text
    assert "## File: 'a.py' (staged)\n__new hunk__ (change-1:1)" in annotated
    assert "## File: 'c.py' (untracked)\n__new hunk__ (change-3:1)\n   1 +new" in annotated


def test_small_chunks_split_a_file_by_its_hunks(dirty: Repo) -> None:
    service = ChunkService(dirty.path)
    service.load_diff(WT, max_chunk_lines=14)
    ids = [c["hunk_ids"] for c in service.list_chunks(WT).data["chunks"]]
    assert ids == [["change-1:1"], ["change-1:2"], ["change-2:1", "change-3:1"]]
    assert service.find_chunks_for_files(WT, "a.py").data["chunks"] == [1, 2]
    whole = service.get_file_diff(WT, "a.py")
    assert whole.data["hunk_ids"] == ["change-1:1", "change-1:2"] and whole.data["sections"] == 2


def test_an_edit_reloads_the_working_tree(dirty: Repo) -> None:
    service = ChunkService(dirty.path)
    service.load_diff(WT, max_chunk_lines=12)
    first = service.list_chunks(WT).data
    dirty.write("d.py", "another\n")
    second = service.list_chunks(WT).data
    assert first["chunks"][-1]["hunk_ids"][-1] == "change-3:1"
    assert second["chunks"][-1]["hunk_ids"][-1] == "change-4:1"
    assert service.get_current_overview().data["sessions"][0]["max_chunk_lines"] == 12


def test_a_clean_tree_has_no_chunks(repo: Repo) -> None:
    repo.write("a.py", "a\n")
    repo.commit()
    service = ChunkService(repo.path)
    loaded = service.load_diff(WT)
    assert loaded.data["chunks"] == 0 and "The working tree is clean." in loaded.text
    with pytest.raises(ChunkArgumentError) as info:
        service.get_chunk(WT, 1)
    assert str(info.value) == f"Chunk 1 does not exist: the working tree of {repo.path} has no chunks."


def test_working_tree_from_a_subdirectory(dirty: Repo) -> None:
    (dirty.path / "sub").mkdir()
    service = ChunkService(dirty.path / "sub")
    assert service.load_diff(WT).data["repo_root"] == str(dirty.path)


def test_a_file_created_where_another_was_moved_from_is_found_by_its_path(repo: Repo) -> None:
    repo.write("old.py", "".join(f"line {i}\n" for i in range(20)))
    repo.commit("base")
    repo.git("mv", "old.py", "new.py")
    repo.write("old.py", "fresh\n")  # untracked, where new.py was moved from
    service = ChunkService(repo.path)
    fresh = service.get_file_diff(WT, "old.py")
    assert fresh.data["file_path"] == "old.py" and "+fresh" in fresh.data["content"]
    assert service.get_file_diff(WT, "new.py").data["file_path"] == "new.py"


def test_a_name_that_is_not_utf8_is_found_as_it_is_shown(repo: Repo) -> None:
    repo.write("keep.txt", "k\n")
    repo.commit("base")
    (repo.path / "caf\xe9.txt".encode("latin-1").decode("utf-8", "surrogateescape")).write_bytes(b"x\n")
    service = ChunkService(repo.path)
    (shown,) = service.list_chunks(WT).data["chunks"][0]["files"]
    assert shown == "caf\\xe9.txt"
    found = service.get_file_diff(WT, shown)
    assert found.data["file_path"] == shown and "+x" in found.data["content"]
    assert service.find_chunks_for_files(WT, "caf\\xe9*").data["files"] == [shown]
