"""The parser on diff text: git's extended headers, plain diffs, odd input."""

from __future__ import annotations

import gzip

import pytest

from segmint_core.changes import parse_diff
from segmint_core.changes.parser import DiffStream, _LineParser, _sections
from segmint_core.errors import DiffParseError
from tests.conftest import shared_data


def test_copy_and_rename_headers() -> None:
    text = (
        "diff --git a/src.py b/copy.py\n"
        "similarity index 90%\n"
        "copy from src.py\n"
        "copy to copy.py\n"
        "--- a/src.py\n+++ b/copy.py\n"
        "@@ -1 +1 @@\n-a\n+b\n"
        "diff --git a/old b/new\n"
        "similarity index 100%\n"
        "rename from old\n"
        "rename to new\n"
    )
    copy, rename = parse_diff(text)
    assert (copy.status, copy.old_path, copy.new_path, copy.similarity) == ("copied", "src.py", "copy.py", 90)
    assert (rename.status, rename.old_path, rename.new_path, rename.hunks) == ("renamed", "old", "new", [])


def test_omitted_counts_and_no_newline_marker() -> None:
    text = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"
    (fp,) = parse_diff(text)
    (h,) = fp.hunks
    assert (h.old_start, h.old_lines, h.new_start, h.new_lines) == (1, 1, 1, 1)
    assert h.lines == ["-a", "\\ No newline at end of file", "+a"]


def test_quoted_paths_with_octal_escapes() -> None:
    text = (
        'diff --git "a/caf\\303\\251 \\"x\\"" "b/caf\\303\\251 \\"x\\""\n'
        "new file mode 100644\n--- /dev/null\n"
        '+++ "b/caf\\303\\251 \\"x\\""\n@@ -0,0 +1 @@\n+hi\n'
    )
    (fp,) = parse_diff(text)
    assert fp.new_path == 'caf\u00e9 "x"' and fp.status == "added"


def test_unquoted_path_with_spaces_and_no_hunks() -> None:
    (fp,) = parse_diff("diff --git a/my file b/my file\nold mode 100644\nnew mode 100755\n")
    assert (fp.old_path, fp.new_path, fp.old_mode, fp.new_mode) == ("my file", "my file", "100644", "100755")


def test_plain_unified_diff_without_git_header() -> None:
    text = "--- a/f.txt\t2024-01-01\n+++ b/f.txt\t2024-01-02\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
    (fp,) = parse_diff(text)
    assert fp.path == "f.txt" and fp.hunks[0].lines == [" a", "-b", "+c"]


def test_combined_diff_is_conflicted() -> None:
    text = "diff --cc c.txt\nindex 1,2..0\n--- a/c.txt\n+++ b/c.txt\n@@@ -1,1 -1,1 +1,5 @@@\n++<<<<<<< HEAD\n"
    (fp,) = parse_diff(text)
    assert fp.status == "conflicted" and fp.hunks == []


def test_binary_patch_data_is_skipped() -> None:
    text = (
        "diff --git a/b.bin b/b.bin\nindex 1..2 100644\nGIT binary patch\nliteral 3\nKcmZQz`~Tm-000000\n\n"
        "literal 0\nHcmV?d00001\n\n"
        "diff --git a/t b/t\n--- a/t\n+++ b/t\n@@ -1 +1 @@\n-x\n+y\n"
    )
    binary, text_file = parse_diff(text)
    assert binary.binary and binary.status == "binary" and binary.hunks == []
    assert text_file.hunks[0].lines == ["-x", "+y"]


def test_strict_mode_rejects_truncated_hunks_lenient_keeps_them() -> None:
    text = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n"
    with pytest.raises(DiffParseError):
        parse_diff(text)
    (fp,) = parse_diff(text, strict=False)
    assert fp.hunks[0].lines == [" a", "-b"]


def test_crlf_lines_keep_their_carriage_return() -> None:
    (fp,) = parse_diff(b"diff --git a/w b/w\r\n--- a/w\r\n+++ b/w\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n")
    assert fp.path == "w"
    assert fp.hunks[0].lines == ["-a\r", "+b\r"]


def test_fast_path_and_line_walker_agree_on_real_diffs() -> None:
    data = gzip.decompress(shared_data("rich-v1.0.0-v14.3.3.diff.gz").read_bytes())
    fast = parse_diff(data)
    slow = []
    for start, end, _ in _sections(data):
        slow.extend(_LineParser(data[start:end].decode("utf-8", "surrogateescape"), True).run())

    def shape(files):
        return [
            (
                f.old_path,
                f.new_path,
                f.status,
                f.binary,
                f.header_lines,
                [(h.old_start, h.old_lines, h.new_start, h.new_lines, h.header, h.lines) for h in f.hunks],
            )
            for f in files
        ]

    assert shape(fast) == shape(slow)
    assert sum(len(h.lines) for f in fast for h in f.hunks) > 70_000


def _shape(files):
    return [
        (
            f.old_path,
            f.new_path,
            f.status,
            f.binary,
            f.header_lines,
            [(h.old_start, h.old_lines, h.new_start, h.new_lines, h.header, h.lines) for h in f.hunks],
        )
        for f in files
    ]


def test_git_output_parses_the_same_without_recounting_lines() -> None:
    data = gzip.decompress(shared_data("rich-v1.0.0-v14.3.3.diff.gz").read_bytes())
    assert _shape(parse_diff(data, from_git=True)) == _shape(parse_diff(data))


@pytest.mark.parametrize("size", [1, 7, 4096, 65536, 1 << 20])
def test_a_stream_cut_anywhere_parses_like_the_whole(size: int) -> None:
    data = gzip.decompress(shared_data("rich-v1.0.0-v14.3.3.diff.gz").read_bytes())
    if size < 4096:  # a few bytes at a time: fewer files keep it quick
        data = data[: data.index(b"\ndiff ", 20_000 if size == 1 else 300_000) + 1]
    seen = []
    stream = DiffStream(from_git=True, on_patch=seen.append)
    for at in range(0, len(data), size):
        stream.feed(data[at : at + size])
    stream.close()
    whole = parse_diff(data)
    assert _shape(stream.files) == _shape(whole)
    assert seen == stream.files
