"""Atoms of a hunk, and cutting a hunk where its atoms' groups change."""

from __future__ import annotations

from segmint_core.changes.models import Hunk
from segmint_core.changes.kinds import CHANGELOG, CODE
from segmint_core.grouping.splitting import atom_ranges, cuts_between

CHANGELOG_LINES = [
    " ## Unreleased",
    " ",
    " - Start.",
    "+- `check_token` takes `strict`.",
    "+  It raises on an empty token.",
    "+- `parse_config` accepts a `separator`.",
]
CODE_LINES = [" a = 1", "-b = 2", "+b = 3", " c = 4", " d = 5", "-e = 6", "+e = 7", " f = 8"]


def hunk(lines: list[str]) -> Hunk:
    old = sum(1 for x in lines if x[:1] in " -")
    new = sum(1 for x in lines if x[:1] in " +")
    return Hunk("change-1:1", 1, old, 1, new, f"@@ -1,{old} +1,{new} @@", lines)


def test_changelog_entries_are_atoms_even_without_context_between_them() -> None:
    assert atom_ranges(hunk(CHANGELOG_LINES), CHANGELOG) == [(0, 5), (5, 6)]


def test_code_atoms_are_runs_of_changes_separated_by_context() -> None:
    assert atom_ranges(hunk(CODE_LINES), CODE) == [(0, 5), (5, 8)]
    assert atom_ranges(hunk(CHANGELOG_LINES), CODE) == [(0, 6)]


def test_cuts_only_where_the_label_changes() -> None:
    ranges = [(0, 2), (2, 4), (4, 6)]
    lines = [" a", "+b", "+c", "+d", "+e", " f"]
    assert cuts_between(ranges, [1, 1, 1], lines) == ([], [1])
    assert cuts_between(ranges, [1, 2, 2], lines) == ([2], [1, 2])
    assert cuts_between(ranges, [1, 2, 1], lines) == ([2, 4], [1, 2, 1])


def test_a_cut_the_split_rules_refuse_gives_way_to_the_majority() -> None:
    lines = [" a", "-b", "\\ No newline at end of file", "+b", "+c", "\\ No newline at end of file"]
    cuts, labels = cuts_between([(0, 3), (3, 6)], [1, 2], lines)
    assert cuts == [] and len(labels) == 1
