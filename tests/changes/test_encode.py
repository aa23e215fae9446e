"""The fast JSON writer gives exactly json.dumps(to_dict())."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from segmint_core.changes import capture
from segmint_core.changes.encode import ListingEncoder, encode_changes
from segmint_core.changes.models import Change, FilePatch, Hunk
from segmint_core.changes.capture import ChangeSet
from segmint_core.git import Git
from tests.support.examples import examples
from tests.support.repo import Repo


def reference(cs: ChangeSet) -> str:
    return json.dumps(cs.to_dict(), ensure_ascii=False)


def test_real_repository_with_awkward_text(repo: Repo) -> None:
    repo.write("go.go", 'func main() {\n\tfmt.Println("hi\\n")\n}\n')
    repo.write("crlf.txt", b"a\r\nb\r\n")
    repo.write("latin1.txt", b"caf\xe9\n")
    repo.write('we"ird\\name.txt', "x\n")
    repo.commit()
    repo.write("go.go", 'func main() {\n\tfmt.Println("bye\\t")\n}\n')
    repo.write("crlf.txt", b"a\r\nB\r\n")
    repo.write("latin1.txt", b"caf\xe9s\x01\n")
    repo.write('we"ird\\name.txt', "y\n")
    cs = capture(Git.discover(repo.path))
    assert encode_changes(cs).decode("utf-8") == reference(cs)


# Lines are decoded with surrogateescape: the only surrogates they can hold
# are U+DC80..U+DCFF, one per undecodable byte.
LINE_TEXT = st.text(
    st.one_of(
        st.characters(blacklist_categories=("Cs",)),
        st.sampled_from(["\x01", "\\", '"', "\t", "\r", "\x7f", "é"]),
        st.integers(0x80, 0xFF).map(lambda b: chr(0xDC00 + b)),
    ),
    max_size=12,
)


def _hunk(k: int, lines: list[str], as_bytes: bool) -> Hunk:
    lines = ["+" + x.replace("\n", "") for x in lines]
    kept = {"body": "\n".join(lines).encode("utf-8", "surrogateescape")} if as_bytes and lines else {"lines": lines}
    return Hunk(
        f"change-1:{k}", 1, 1, 1, 1, "@@ -1 +1 @@", staged=k % 2 == 0, parent_id=None if k < 2 else "change-1:1", **kept
    )


@settings(max_examples=examples(300))
@given(st.lists(st.lists(LINE_TEXT, max_size=6), max_size=4), st.text(max_size=8), st.booleans())
def test_any_line_text(hunk_lines: list[list[str]], path: str, as_bytes: bool) -> None:
    # Hunks hold either decoded lines or the raw body git wrote (as parsed).
    hunks = [_hunk(k, lines, as_bytes) for k, lines in enumerate(hunk_lines, start=1)]
    cs = ChangeSet([Change("change-1", path or "p", None, "modified", False, hunks)], "f", None)
    assert encode_changes(cs).decode("utf-8") == reference(cs)


def test_lines_encoded_ahead_while_capturing_give_the_same_bytes(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.write("b.txt", "tab\there\n")
    repo.commit()
    repo.write("a.py", "x = 2\n")
    repo.git("add", "a.py")
    repo.write("a.py", 'x = "3"\n')
    repo.write("b.txt", "tab\tthere\n")
    repo.write("new.md", "# new\n")
    encoder = ListingEncoder()
    seen = []

    def prepare(patch: FilePatch) -> None:
        seen.append(patch.path)
        encoder.prepare(patch)

    cs = capture(Git.discover(repo.path), on_patch=prepare)
    assert sorted(seen) == ["a.py", "a.py", "b.txt", "new.md"]  # staged, unstaged, untracked
    assert b"".join(encoder.parts(cs)).decode("utf-8") == reference(cs)
    assert encode_changes(cs).decode("utf-8") == reference(cs)
