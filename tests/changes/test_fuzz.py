"""Fuzzing: mangled and truncated diffs give a model or DiffParseError, nothing else."""

from __future__ import annotations

import gzip
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from segmint_core.changes import parse_diff
from segmint_core.errors import DiffParseError
from tests.conftest import shared_data
from tests.support.examples import examples

SAMPLE = (
    b"diff --git a/x.py b/x.py\nindex 1111111..2222222 100644\n--- a/x.py\n+++ b/x.py\n"
    b"@@ -1,4 +1,5 @@ def f():\n a\n-b\n+B\n+C\n c\n d\n\\ No newline at end of file\n"
    b"diff --git a/y b/z\nsimilarity index 80%\nrename from y\nrename to z\n"
    b"diff --git a/bin b/bin\nBinary files a/bin and b/bin differ\n"
    b'diff --git "a/q\\"" "b/q\\""\nnew file mode 100644\n--- /dev/null\n+++ "b/q\\""\n@@ -0,0 +1 @@\n+q\n'
)


def parse_or_documented_error(data: bytes) -> None:
    for strict in (True, False):
        try:
            files = parse_diff(data, strict=strict)
        except DiffParseError:
            continue
        assert isinstance(files, list)


@settings(max_examples=examples(300))
@given(st.data())
def test_mangled_samples(data: st.DataObject) -> None:
    blob = bytearray(SAMPLE)
    for _ in range(data.draw(st.integers(1, 8))):
        op = data.draw(st.sampled_from(["flip", "cut", "dup", "insert"]))
        at = data.draw(st.integers(0, len(blob)))
        if op == "flip" and at < len(blob):
            blob[at] = data.draw(st.integers(0, 255))
        elif op == "cut":
            del blob[at : at + data.draw(st.integers(1, 40))]
        elif op == "dup":
            blob[at:at] = blob[max(0, at - 30) : at]
        else:
            blob[at:at] = data.draw(
                st.sampled_from([b"\n@@ ", b"\ndiff --git ", b"@@ -1 +1 @@\n", b"\\", b"\r", b"\xff"])
            )
    parse_or_documented_error(bytes(blob))


@given(st.binary(max_size=400))
def test_arbitrary_bytes(blob: bytes) -> None:
    parse_or_documented_error(blob)


def test_truncations_and_corruptions_of_the_rich_diff() -> None:
    data = gzip.decompress(shared_data("rich-v1.0.0-v14.3.3.diff.gz").read_bytes())
    rng = random.Random(20261122)
    for _ in range(40):
        cut = rng.randrange(len(data))
        parse_or_documented_error(data[:cut])
        corrupted = bytearray(data[max(0, cut - 20000) : cut + 20000])
        for _ in range(20):
            corrupted[rng.randrange(len(corrupted))] = rng.choice(b"@+- \n\\d")
        parse_or_documented_error(bytes(corrupted))
