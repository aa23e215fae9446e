"""Splitting hunks: every part applies on its own to the base it came from."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from segmint_core.changes import capture
from segmint_core.changes.models import Hunk
from segmint_core.changes.patch import render_hunks
from segmint_core.changes.paths import quote
from segmint_core.changes.split import cut_points, part_ranges, split_hunk
from segmint_core.git import Git
from tests.support.edits import build, worktree_story
from tests.support.examples import examples
from tests.support.patches import applies
from tests.support.repo import Repo


def standalone_patch(layer, hunk: Hunk) -> str:
    """A patch holding one part: the layer's own header (creation, rename...),
    except that part of a deletion is a change to the file, not its removal."""
    if layer.new_path is None:
        path = layer.old_path
        header = [
            f"diff --git {quote('a/' + path)} {quote('b/' + path)}",
            f"--- {quote('a/' + path)}",
            f"+++ {quote('b/' + path)}",
        ]
    else:
        header = [line for line in layer.header_lines if not line.startswith("index ")]
    return "\n".join(header + render_hunks([hunk])) + "\n"


def test_two_functions_in_one_hunk_become_two_hunks(repo: Repo) -> None:
    repo.write("m.py", "import os\n\n\ndef a():\n    return 1\n")
    repo.commit()
    repo.write("m.py", "import os\nimport sys\n\n\ndef a():\n    return 2\n")
    (hunk,) = capture(Git.discover(repo.path)).changes[0].hunks
    cut = hunk.lines.index("-    return 1")
    first, second = split_hunk(hunk, [cut])
    assert (first.id, first.parent_id) == ("change-1:1.1", "change-1:1")
    assert first.lines == [" import os", "+import sys", " ", " ", " def a():"]
    assert first.header == "@@ -1,4 +1,5 @@"
    assert second.lines == [" ", " ", " def a():", "-    return 1", "+    return 2"]
    assert second.header == "@@ -2,4 +2,4 @@"
    layer = capture(Git.discover(repo.path)).changes[0].unstaged_patch
    for part in (first, second):
        ok, err = applies(repo, standalone_patch(layer, part), base="index")
        assert ok, err


def test_cuts_that_would_break_the_end_of_file_are_dropped() -> None:
    lines = [" a", "-b", "+B", " c", "-d", "\\ No newline at end of file", "+d", "+e"]
    hunk = Hunk("change-1:1", 1, 4, 1, 5, "@@ -1,4 +1,5 @@", lines)
    assert part_ranges(lines, [2, 5, 6, 7]) == [(0, 2), (2, 8)]
    assert cut_points(lines) == [2, 4]
    assert [h.lines for h in split_hunk(hunk, [6])] == [lines]


def test_marker_stays_with_its_line() -> None:
    lines = [" a", "-b", "\\ No newline at end of file", "+b", "+c", "\\ No newline at end of file"]
    assert part_ranges(lines, [2]) == [(0, 6)]  # the EOF run cannot be cut


@settings(max_examples=examples(60))
@given(story=worktree_story(), data=st.data())
def test_every_part_of_random_splits_applies_alone(story: dict, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repo(Path(tmp) / "r")
        build(repo, story)
        for change in capture(Git.discover(repo.path)).changes:
            for hunk in change.hunks:
                allowed = cut_points(hunk.lines)
                if not allowed:
                    continue
                cuts = data.draw(st.lists(st.sampled_from(allowed), max_size=4))
                parts = split_hunk(hunk, cuts)
                owned = [line for p in parts for line in p.lines if line[:1] in "+-"]
                assert len(owned) == sum(1 for line in hunk.lines if line[:1] in "+-")
                layer = change.staged_patch if hunk.staged else change.unstaged_patch
                for part in parts:
                    patch = standalone_patch(layer, part)
                    ok, err = applies(repo, patch, base="HEAD" if hunk.staged else "index")
                    assert ok, f"{part.id} fails: {err}\n{patch}"


@settings(max_examples=examples(200))
@given(st.lists(st.sampled_from([" a", "-b", "+c", "+", "-", " ", "\\ No newline at end of file"]), max_size=30))
def test_cut_points_are_the_gaps_between_changed_lines(lines: list[str]) -> None:
    allowed = cut_points(lines)
    assert allowed == sorted(set(allowed))
    changed = [i for i, line in enumerate(lines) if line[:1] in "+-"]
    assert set(allowed) <= set(changed[1:])
    for cut in allowed:
        assert part_ranges(lines, [cut]) == [(0, cut), (cut, len(lines))]


def test_a_100k_line_new_file_is_cut_in_linear_time(repo: Repo) -> None:
    # cut_points used to test membership in a list: 100,000 lines took about a minute.
    n = 100_000
    repo.commit("root")
    repo.write("big.txt", "".join(f"line {i}\n" for i in range(n)))
    (hunk,) = capture(Git.discover(repo.path)).changes[0].hunks
    allowed = cut_points(hunk.lines)
    assert allowed == list(range(1, n))
    parts = split_hunk(hunk, [allowed[n // 2]])
    assert [p.lines[0] for p in parts] == ["+line 0", f"+line {n // 2 + 1}"]
    assert [(p.new_start, p.new_lines) for p in parts] == [(1, n // 2 + 1), (1, n - n // 2 - 1)]
