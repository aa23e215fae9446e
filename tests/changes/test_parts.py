"""A hunk cut by any set of its changed lines: every part applies on its own, numbers stay put."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segmint_core.changes import capture
from segmint_core.changes.models import Hunk
from segmint_core.changes.parts import HunkParts, LinesMustComeAlong, changed_indices, eof_block
from segmint_core.changes.split import render_part
from segmint_core.errors import SegmintError
from segmint_core.git import Git
from tests.changes.test_split import standalone_patch
from tests.support.edits import build, worktree_story
from tests.support.examples import examples
from tests.support.patches import applies
from tests.support.repo import Repo

EOF_LINES = [" a", "-b", "\\ No newline at end of file", "+b", "+c"]


def hunk_of(lines: list[str]) -> Hunk:
    old = sum(1 for line in lines if line[:1] in " -")
    new = sum(1 for line in lines if line[:1] in " +")
    return Hunk("change-1:1", 1, old, 1, new, f"@@ -1,{old} +1,{new} @@", lines)


def test_the_middle_line_of_three_added_lines_becomes_its_own_part(repo: Repo) -> None:
    repo.write("m.py", "a\nz\n")
    repo.commit()
    repo.write("m.py", "a\nfirst\nsecond\nthird\nz\n")
    (hunk,) = capture(Git.discover(repo.path)).changes[0].hunks
    parts = HunkParts.whole(hunk.lines)
    middle = hunk.lines.index("+second")
    moved, number = parts.move(hunk.lines, 1, frozenset({middle}), None, unit_id=hunk.id)
    assert number == 2
    assert moved.live() == [(1, frozenset({1, 3})), (2, frozenset({2}))]
    rest, alone = (render_part(hunk, owned, n) for n, owned in moved.live())
    assert rest.id == "change-1:1.1" and rest.parent_id == "change-1:1"
    assert rest.lines == [" a", "+first", "+third", " z"]
    assert alone.lines == [" a", "+second", " z"]
    assert (alone.header, rest.header) == ("@@ -1,2 +1,3 @@", "@@ -1,2 +1,4 @@")
    layer = capture(Git.discover(repo.path)).changes[0].unstaged_patch
    for part in (rest, alone):
        ok, err = applies(repo, standalone_patch(layer, part), base="index")
        assert ok, err


def test_removed_lines_of_another_part_stay_as_context() -> None:
    lines = [" a", "-b", "-c", "+B", "+C", " d"]
    hunk = hunk_of(lines)
    part = render_part(hunk, {1, 3}, 2)  # -b +B; -c stays, +C is not there
    assert part.lines == [" a", "-b", " c", "+B", " d"]
    assert part.header == "@@ -1,4 +1,4 @@"


def test_numbers_stay_put_and_emptied_parts_retire() -> None:
    lines = [" a", "+1", "+2", "+3", "+4", " z"]
    parts = HunkParts.whole(lines)
    parts, two = parts.move(lines, 1, frozenset({2}), None, unit_id="h")
    parts, three = parts.move(lines, 1, frozenset({4}), None, unit_id="h.1")
    assert (two, three) == (2, 3)
    assert parts.live() == [(1, frozenset({1, 3})), (2, frozenset({2})), (3, frozenset({4}))]
    # Part 2 joins part 3: its number is retired, never given to other lines.
    parts, into = parts.move(lines, 2, frozenset({2}), 3, unit_id="h.2")
    assert into == 3 and parts.to_saved() == [[1, 3], [], [2, 4]]
    parts, four = parts.move(lines, 1, frozenset({1}), None, unit_id="h.1")
    assert four == 4 and parts.to_saved() == [[3], [], [2, 4], [1]]
    assert HunkParts.from_saved(lines, parts.to_saved()) == parts


def test_moving_a_whole_part_to_a_new_one_changes_nothing() -> None:
    lines = [" a", "+1", "+2"]
    parts = HunkParts.whole(lines)
    assert parts.move(lines, 1, frozenset({1, 2}), None, unit_id="h") == (parts, 1)


def test_saved_cuts_from_older_sessions_are_read_as_parts() -> None:
    lines = [" a", "+1", " b", "+2", "+3"]
    assert HunkParts.from_saved(lines, [3]).to_saved() == [[1], [3, 4]]


@pytest.mark.parametrize("saved", [[[1], [1, 3, 4]], [[1], [3]], [[0], [1, 3, 4]]])
def test_saved_parts_that_do_not_fit_the_lines_are_refused(saved: list) -> None:
    with pytest.raises(SegmintError):
        HunkParts.from_saved([" a", "+1", " b", "+2", "+3"], saved)


def test_the_end_of_file_block_is_the_last_line_without_newline_and_what_is_added_after_it() -> None:
    assert eof_block(EOF_LINES) == {1, 3, 4}
    assert eof_block([" a", "-b", "+B", "\\ No newline at end of file"]) == frozenset()  # only the new side lacks it
    assert eof_block([" a", "-b", "\\ No newline at end of file"]) == frozenset()


def test_a_replacement_cannot_leave_its_removed_last_line_behind() -> None:
    parts = HunkParts.whole(EOF_LINES)
    with pytest.raises(LinesMustComeAlong) as refused:
        parts.move(EOF_LINES, 1, frozenset({4}), None, unit_id="change-1:1")
    assert refused.value.missing == [1, 3]
    assert str(refused.value).startswith("change-1:1 lines 1 (-b), 2 (+b) must move too: the file's old last line")
    with pytest.raises(LinesMustComeAlong, match=r"lines 2 \(\+b\), 3 \(\+c\) must move too"):
        parts.move(EOF_LINES, 1, frozenset({1}), None, unit_id="change-1:1")
    moved, _ = parts.move(EOF_LINES, 1, frozenset({1, 3, 4}), None, unit_id="change-1:1")
    assert moved == parts


@settings(max_examples=examples(40))
@given(story=worktree_story(), data=st.data())
def test_every_part_of_random_line_selections_applies_alone(story: dict, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repo(Path(tmp) / "r")
        build(repo, story)
        for change in capture(Git.discover(repo.path)).changes:
            for hunk in change.hunks:
                changed = changed_indices(hunk.lines)
                if len(changed) < 2:
                    continue
                parts = HunkParts.whole(hunk.lines)
                for _ in range(data.draw(st.integers(1, 3))):
                    source, owned = data.draw(st.sampled_from(parts.live()))
                    chosen = frozenset(data.draw(st.lists(st.sampled_from(sorted(owned)), min_size=1, unique=True)))
                    into = data.draw(st.sampled_from([None] + [n for n, _ in parts.live() if n != source]))
                    try:
                        parts, _ = parts.move(hunk.lines, source, chosen, into, unit_id=hunk.id)
                    except LinesMustComeAlong as refused:
                        block = eof_block(hunk.lines)
                        assert chosen & block and set(refused.missing) == block - chosen
                parts.check(hunk.lines)
                layer = change.staged_patch if hunk.staged else change.unstaged_patch
                for number, owned in parts.live():
                    patch = standalone_patch(layer, render_part(hunk, owned, number))
                    ok, err = applies(repo, patch, base="HEAD" if hunk.staged else "index")
                    assert ok, f"part {number} of {hunk.id} fails: {err}\n{patch}"
