"""Diff texts for chunk tests: small, exact, and easy to count.

``new_file(path, n)`` is 5 header lines + 1 ``@@`` line + n added lines.
``edited_file(path, hunks, size)`` is 4 header lines + ``hunks`` hunks of
``size`` lines each (its ``@@`` line included); ``file_with_hunks`` mixes sizes.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from segmint_core.chunks import ChunkService
from tests.support.repo import Repo

NEW_FILE_HEADER = 5
EDIT_HEADER = 4


def new_file(path: str, n: int, text: str = "line") -> str:
    body = "".join(f"+{text} {i}\n" for i in range(1, n + 1))
    return (
        f"diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..1111111\n"
        f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{n} @@\n{body}"
    )


def edited_file(path: str, hunks: int, size: int = 3) -> str:
    return file_with_hunks(path, [size] * hunks)


def file_with_hunks(path: str, sizes: list[int]) -> str:
    """A modified file whose k-th hunk has ``sizes[k]`` lines (odd: ``@@`` + pairs of -/+),
    the hunks 1000 lines apart."""
    out = [f"diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n+++ b/{path}\n"]
    for k, size in enumerate(sizes):
        pairs = (size - 1) // 2
        start = 1 + 1000 * k
        out.append(f"@@ -{start},{pairs} +{start},{pairs} @@ def f{k}():\n")
        out.extend(f"-old {k}.{i}\n" for i in range(pairs))
        out.extend(f"+new {k}.{i}\n" for i in range(pairs))
    return "".join(out)


def write_diff(directory: Path, text: str | bytes, name: str = "change.diff") -> str:
    path = directory / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return str(path)


def raw_chunks(service: ChunkService, path: str) -> list[str]:
    count = service.list_chunks(path).data["total_chunks"]
    return [service.get_chunk(path, n, include_context=False).text for n in range(1, count + 1)]


def git_diff(repo: Repo, *args: str) -> str:
    return repo.git("diff", "--no-color", "--src-prefix=a/", "--dst-prefix=b/", *args)


def applies(repo: Repo, patch: str, *extra: str) -> bool:
    """``git apply --cached --check`` of ``patch``: whether it applies to the index."""
    proc = subprocess.run(
        ["git", "apply", "--cached", "--check", *extra, "-"],
        cwd=repo.path,
        input=patch.encode(),
        capture_output=True,
    )
    return proc.returncode == 0
