"""What goes into chunks: generated files, whitespace-only changes, include and exclude globs."""

from __future__ import annotations

from pathlib import Path

import pytest

from segmint_core.chunks import ChunkService
from segmint_core.chunks.filters import is_generated, split_patterns
from tests.chunks.builders import new_file, write_diff


@pytest.mark.parametrize(
    "path",
    [
        "package-lock.json",
        "web/yarn.lock",
        "Cargo.lock",
        "poetry.lock",
        "go.sum",
        "deps/custom.lock",
        "static/app.min.js",
        "static/site.min.css",
        "static/app.js.map",
        "build/lib/x.py",
        "web/dist/index.html",
        "src/__pycache__/m.cpython-311.pyc",
        "node_modules/left-pad/index.js",
        "vendor/github.com/x/y.go",
        "third_party/zlib/zlib.h",
        "Build/Output.txt",
        "pkg/segmint.egg-info/PKG-INFO",
        ".DS_Store",
    ],
)
def test_generated_paths(path: str) -> None:
    assert is_generated(path)


@pytest.mark.parametrize(
    "path",
    [
        "rebuild/main.py",
        "build.py",
        "scripts/build",
        "src/builder/x.py",
        "distance.py",
        "dist",
        "docs/vendors.md",
        "src/mapping.py",
        "lockfile.py",
        "src/app.js",
        "src/minify.js",
    ],
)
def test_hand_written_paths(path: str) -> None:
    assert not is_generated(path)


def modified(path: str, removed: list[str], added: list[str]) -> str:
    body = "".join(f"-{line}\n" for line in removed) + "".join(f"+{line}\n" for line in added)
    return (
        f"diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n+++ b/{path}\n"
        f"@@ -1,{len(removed) + 1} +1,{len(added) + 1} @@\n context\n{body}"
    )


TRIVIAL_EDITS = {
    "reindent": (["    x = 1", "    y = 2"], ["\tx = 1", "\ty = 2"]),
    "trailing blanks": (["x = 1   "], ["x = 1"]),
    "blank line added": ([], ["   "]),
    "blank line removed": ([""], []),
    "rewrapped spaces": (["f(a,  b)"], ["f(a, b)"]),
    "rewrapped lines": (["f(a,", "  b)"], ["f(a, b)"]),
    "blank line inside": (["x = 1", "y = 2"], ["x = 1", "", "y = 2"]),
}
REAL_EDITS = {
    "value": (["x = 1"], ["x = 2"]),
    "line added": ([], ["x = 1"]),
    "line removed": (["x = 1"], []),
    "joined words": (["a b"], ["ab c"]),
    "same start, later change": (["x = 1", "y = 2"], ["x = 1 ", "y = 3"]),
    "one side longer": (["x = 1"], ["x = 1", "y = 2"]),
}


@pytest.mark.parametrize("name", TRIVIAL_EDITS)
def test_whitespace_only_changes_are_skipped(tmp_path: Path, name: str) -> None:
    removed, added = TRIVIAL_EDITS[name]
    path = write_diff(tmp_path, modified("t.py", removed, added) + new_file("keep.py", 1))
    service = ChunkService()
    data = service.load_diff(path).data
    assert data["files_skipped_trivial"] == 1
    assert service.find_chunks_for_files(path, "t.py").data["chunks"] == []
    assert service.load_diff(path, skip_trivial=False).data["files_skipped_trivial"] == 0


@pytest.mark.parametrize("name", REAL_EDITS)
def test_real_changes_are_kept(tmp_path: Path, name: str) -> None:
    removed, added = REAL_EDITS[name]
    path = write_diff(tmp_path, modified("t.py", removed, added))
    assert ChunkService().load_diff(path).data["files_skipped_trivial"] == 0


def test_renames_mode_changes_and_binaries_are_never_trivial(tmp_path: Path) -> None:
    text = (
        "diff --git a/old.py b/new.py\nsimilarity index 100%\nrename from old.py\nrename to new.py\n"
        "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
        "diff --git a/logo.png b/logo.png\nindex 1111111..2222222 100644\n"
        "Binary files a/logo.png and b/logo.png differ\n"
    )
    service = ChunkService()
    path = write_diff(tmp_path, text)
    data = service.load_diff(path).data
    assert data["files_skipped_trivial"] == 0 and data["files"] == 3
    annotated = service.get_chunk(path, 1, format="annotated").text
    assert "(renamed from 'old.py', content unchanged)" in annotated
    assert "(mode changed from 100644 to 100755)" in annotated
    assert "(binary file changed)" in annotated


def test_generated_files_are_skipped_unless_asked(tmp_path: Path) -> None:
    text = new_file("src/app.py", 2) + new_file("package-lock.json", 2) + new_file("rebuild/x.py", 1)
    path = write_diff(tmp_path, text)
    service = ChunkService()
    data = service.load_diff(path).data
    assert (data["files"], data["files_skipped_generated"], data["files_excluded"]) == (2, 1, 0)
    assert "1 generated" in service.load_diff(path).text
    assert service.load_diff(path, skip_generated=False).data["files"] == 3


def test_include_and_exclude_globs(tmp_path: Path) -> None:
    text = new_file("src/a.py", 1) + new_file("src/B.PY", 1) + new_file("docs/c.md", 1) + new_file("tests/t.py", 1)
    path = write_diff(tmp_path, text)
    service = ChunkService()

    def files(**kw) -> tuple[list[str], int]:
        data = service.load_diff(path, **kw).data
        chunked = [f for c in service.list_chunks(path).data["chunks"] for f in c["files"]]
        return chunked, data["files_excluded"]

    assert files(include_patterns="*.py") == (["src/a.py", "src/B.PY", "tests/t.py"], 1)
    assert files(include_patterns="src/*, docs/*", exclude_patterns="*.md") == (["src/a.py", "src/B.PY"], 2)
    assert files(exclude_patterns="TESTS/*") == (["src/a.py", "src/B.PY", "docs/c.md"], 1)
    assert files(include_patterns=" , ") == (["src/a.py", "src/B.PY", "docs/c.md", "tests/t.py"], 0)


def test_a_rename_matches_by_its_old_path_too(tmp_path: Path) -> None:
    text = "diff --git a/old/x.py b/new/x.py\nsimilarity index 100%\nrename from old/x.py\nrename to new/x.py\n"
    path = write_diff(tmp_path, text + new_file("other.py", 1))
    service = ChunkService()
    assert service.load_diff(path, include_patterns="old/*").data["files"] == 1
    assert service.find_chunks_for_files(path, "old/*").data["files"] == ["new/x.py"]


def test_everything_filtered_out_is_no_chunks_not_an_error(tmp_path: Path) -> None:
    path = write_diff(tmp_path, new_file("yarn.lock", 3))
    service = ChunkService()
    result = service.load_diff(path)
    assert result.data["chunks"] == 0 and result.data["files_skipped_generated"] == 1
    assert "Left out: 1 generated." in result.text
    listing = service.list_chunks(path)
    assert listing.data["chunks"] == [] and "No chunks" in listing.text


def test_split_patterns() -> None:
    assert split_patterns(None) == ()
    assert split_patterns("*.py,, docs/* ") == ("*.py", "docs/*")
