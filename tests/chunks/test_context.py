"""load_diff(context_lines=N): fewer context lines, hunks cut where they drift apart, still applicable."""

from __future__ import annotations

from pathlib import Path

import pytest

from segmint_core.chunks import ChunkService
from tests.chunks.builders import applies, git_diff, raw_chunks, write_diff
from tests.support.repo import Repo


@pytest.fixture
def edited(repo: Repo) -> Repo:
    """A file with changes 5 lines apart (one hunk at -U3) and one far away, plus a last line without newline."""
    lines = [f"line {i}" for i in range(1, 61)]
    repo.write("f.txt", "\n".join(lines))
    repo.commit("base")
    for i in (10, 15, 40):
        lines[i - 1] = f"LINE {i}"
    lines.insert(20, "inserted")
    lines[-1] = "line 60 changed"
    repo.write("f.txt", "\n".join(lines))
    repo.add()
    return repo


def loaded(tmp_path: Path, repo: Repo, context: int | None) -> tuple[ChunkService, str]:
    diff = git_diff(repo, "--cached")
    repo.git("reset", "-q")
    path = write_diff(tmp_path, diff)
    service = ChunkService()
    service.load_diff(path, context_lines=context)
    return service, path


def hunk_headers(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("@@")]


def hunk_ranges(text: str) -> list[str]:
    """Hunk headers without the function context git writes after them."""
    return [header.split(" @@", 1)[0] for header in hunk_headers(text)]


def test_context_lines_match_what_git_would_print(tmp_path: Path, edited: Repo) -> None:
    for n in (0, 1, 2):
        theirs = git_diff(edited, "--cached", f"-U{n}")
        service, path = loaded(tmp_path, edited, n)
        ours = raw_chunks(service, path)[0]
        edited.add()
        assert hunk_ranges(ours) == hunk_ranges(theirs), n
        body = [line for line in ours.splitlines()[4:] if not line.startswith("@@")]
        assert body == [line for line in theirs.splitlines()[4:] if not line.startswith("@@")], n


@pytest.mark.parametrize("n", [0, 1, 2, 3, 10])
def test_reduced_chunks_still_apply(tmp_path: Path, edited: Repo, n: int) -> None:
    service, path = loaded(tmp_path, edited, n)
    extra = ("--unidiff-zero",) if n == 0 else ()
    for raw in raw_chunks(service, path):
        assert applies(edited, raw, *extra), raw


def test_reduced_context_counts_fewer_lines(tmp_path: Path, edited: Repo) -> None:
    full = loaded(tmp_path, edited, None)
    edited.add()
    reduced = loaded(tmp_path, edited, 1)
    lines = [s.list_chunks(p).data["total_lines"] for s, p in (full, reduced)]
    assert lines[1] < lines[0]


def test_function_context_stays_on_the_first_piece(tmp_path: Path) -> None:
    body = "".join(f" c{i}\n" for i in range(10))
    text = (
        "diff --git a/m.py b/m.py\nindex 1111111..2222222 100644\n--- a/m.py\n+++ b/m.py\n"
        f"@@ -1,22 +1,22 @@ def main():\n-a\n+A\n{body}-b\n+B\n{body}"
    )
    service = ChunkService()
    path = write_diff(tmp_path, text)
    service.load_diff(path, context_lines=1)
    assert hunk_headers(raw_chunks(service, path)[0]) == ["@@ -1,2 +1,2 @@ def main():", "@@ -11,3 +11,3 @@"]
