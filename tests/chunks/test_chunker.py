"""Cutting diffs into chunks: file boundaries, hunk boundaries, the line limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from segmint_core.chunks import ChunkService
from tests.chunks.builders import (
    EDIT_HEADER,
    NEW_FILE_HEADER,
    applies,
    edited_file,
    file_with_hunks,
    git_diff,
    new_file,
    raw_chunks,
    write_diff,
)
from tests.support.repo import Repo


def load(tmp_path: Path, text: str, limit: int) -> tuple[ChunkService, str, dict]:
    service = ChunkService()
    path = write_diff(tmp_path, text)
    result = service.load_diff(path, max_chunk_lines=limit)
    return service, path, result.data


def test_whole_files_fill_a_chunk_up_to_the_limit(tmp_path: Path) -> None:
    size = NEW_FILE_HEADER + 1 + 10  # 16 lines a file
    text = new_file("a.py", 10) + new_file("b.py", 10) + new_file("c.py", 10)
    service, path, data = load(tmp_path, text, limit=2 * size)
    listing = service.list_chunks(path).data["chunks"]
    assert [c["files"] for c in listing] == [["a.py", "b.py"], ["c.py"]]
    assert [c["lines"] for c in listing] == [2 * size, size]
    assert data["chunks"] == 2 and data["files"] == 3 and data["total_lines"] == 3 * size


def test_a_file_that_does_not_fit_starts_the_next_chunk(tmp_path: Path) -> None:
    text = new_file("a.py", 10) + new_file("b.py", 10)
    service, path, _ = load(tmp_path, text, limit=30)
    assert [c["files"] for c in service.list_chunks(path).data["chunks"]] == [["a.py"], ["b.py"]]


@pytest.mark.parametrize("limit", [12, 20, 35, 60, 1000])
def test_no_chunk_exceeds_the_limit_when_every_hunk_fits(tmp_path: Path, limit: int) -> None:
    text = (
        new_file("a.py", 3)
        + edited_file("big.py", hunks=12, size=5)
        + new_file("b.py", 1)
        + edited_file("mid.py", hunks=3, size=7)
        + new_file("c.py", 4)
    )
    service, path, data = load(tmp_path, text, limit)
    chunks = service.list_chunks(path).data["chunks"]
    assert all(c["lines"] <= limit and not c["oversized"] for c in chunks)
    assert data["oversized_chunks"] == []
    for c, raw in zip(chunks, raw_chunks(service, path)):
        assert c["lines"] == raw.count("\n")


def test_a_large_file_is_split_at_hunks_with_its_header_repeated(tmp_path: Path) -> None:
    text = new_file("before.py", 2) + edited_file("big.py", hunks=10, size=5) + new_file("after.py", 2)
    service, path, _ = load(tmp_path, text, limit=EDIT_HEADER + 3 * 5)  # three hunks a piece
    chunks = service.list_chunks(path).data["chunks"]
    pieces = [c for c in chunks if c["parent_file"] == "big.py"]
    assert [(c["sub_chunk_index"], c["sub_chunk_count"]) for c in pieces] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert [c["lines"] for c in pieces] == [19, 19, 19, 9]
    assert pieces[0]["summary"] == "big.py (part 1 of 4), 19 lines"
    raws = raw_chunks(service, path)
    header = "".join(edited_file("big.py", hunks=0).splitlines(keepends=True))
    for c in pieces:
        assert raws[c["chunk"] - 1].startswith(header)
    # The pieces hold every hunk once, in order.
    hunks = [line for c in pieces for line in raws[c["chunk"] - 1].splitlines() if line.startswith("@@")]
    assert hunks == [line for line in edited_file("big.py", 10, 5).splitlines() if line.startswith("@@")]
    # Whole files around it keep their own chunks.
    assert chunks[0]["files"] == ["before.py"] and chunks[-1]["files"] == ["after.py"]


def test_a_single_hunk_over_the_limit_is_an_oversized_chunk(tmp_path: Path) -> None:
    text = new_file("small.py", 2) + new_file("huge.py", 50) + edited_file("two.py", hunks=2, size=3)
    service, path, data = load(tmp_path, text, limit=20)
    chunks = service.list_chunks(path).data["chunks"]
    huge = next(c for c in chunks if "huge.py" in c["files"])
    assert huge["oversized"] and huge["lines"] == NEW_FILE_HEADER + 1 + 50
    assert huge["parent_file"] is None  # one piece: the file is not split
    assert data["oversized_chunks"] == [huge["chunk"]]
    assert all(c["lines"] <= 20 for c in chunks if c is not huge)
    header = service.get_chunk(path, huge["chunk"]).text.split("=" * 50)[0]
    assert "Oversized: one hunk of huge.py has 56 lines" in header
    assert "oversized" in service.list_chunks(path).text


def test_an_oversized_hunk_among_others_gets_a_piece_of_its_own(tmp_path: Path) -> None:
    service, path, _ = load(tmp_path, file_with_hunks("f.py", [3, 3, 41, 3, 5]), limit=20)
    chunks = service.list_chunks(path).data["chunks"]
    assert [(c["sub_chunk_index"], c["lines"], c["oversized"]) for c in chunks] == [
        (1, EDIT_HEADER + 6, False),
        (2, EDIT_HEADER + 41, True),
        (3, EDIT_HEADER + 8, False),
    ]


def test_unsplit_concatenation_is_the_input(tmp_path: Path) -> None:
    text = "some preamble\n\n" + new_file("a.py", 3) + edited_file("b.py", 2) + new_file("c d.txt", 1)
    service, path, data = load(tmp_path, text, limit=10_000)
    assert raw_chunks(service, path) == [text[text.index("diff --git") :]]
    assert data["total_lines"] == text.count("\n") - 2


def test_split_pieces_rebuild_the_file_diff(tmp_path: Path) -> None:
    text = edited_file("big.py", hunks=9, size=5)
    service, path, _ = load(tmp_path, text, limit=15)
    raws = raw_chunks(service, path)
    assert len(raws) > 2
    header_len = len("".join(text.splitlines(keepends=True)[:EDIT_HEADER]))
    assert raws[0] + "".join(r[header_len:] for r in raws[1:]) == text


def test_every_raw_chunk_applies_with_git(repo: Repo, tmp_path: Path) -> None:
    for k in range(6):
        repo.write(f"m{k}.py", "".join(f"def f{i}():\n    return {i}\n" for i in range(60)))
    repo.commit("base")
    for k in range(6):
        text = (repo.path / f"m{k}.py").read_text()
        for i in range(0, 60, 7):
            text = text.replace(f"    return {i}\n", f"    return {i} + {k}\n")
        repo.write(f"m{k}.py", text)
    repo.write("new.txt", "fresh\n")
    repo.add()
    diff = git_diff(repo, "--cached")
    repo.git("reset", "-q")  # the index is the base again
    service, path, data = load(tmp_path, diff, limit=40)
    assert data["chunks"] > 6
    for raw in raw_chunks(service, path):
        assert applies(repo, raw), raw
