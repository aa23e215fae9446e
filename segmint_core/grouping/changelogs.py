"""A changelog's entries that no other file claims stay together.

Clustering splits a changelog at every entry whose words tie it to nothing
else: a commit that only takes eleven lines out of ``History.md`` came out as
eleven groups, each proposed as its own ``Updated History.md``. An entry linked to
the code it describes goes with that code; the entries left over, in groups
holding nothing but that changelog, join the group holding most of its
lines. Held out over the seven histories this keeps 2.1 more single commits
of 100 whole and moves k=2 and k=3 by less than 0.003
(``docs/experiments/untangling.md``).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from segmint_core.grouping.lexicon import CHANGELOG
from segmint_core.grouping.units import Unit


def entries_kept_together(units: list[Unit], labels: list[int]) -> list[int]:
    """``labels`` with each changelog's groups of its own entries alone folded into its main group
    (the one holding most of its changed lines), each cluster labelled by its smallest unit index."""
    if not any(u.kind == CHANGELOG for u in units):
        return labels
    main = _main_group_per_file(units, labels)
    paths_of: dict[int, set[str]] = defaultdict(set)
    for unit, label in zip(units, labels):
        paths_of[label].add(unit.path)
    folded = list(labels)
    for i, (unit, label) in enumerate(zip(units, labels)):
        if unit.kind == CHANGELOG and paths_of[label] == {unit.path} and main[unit.path] != label:
            folded[i] = main[unit.path]
    return _by_smallest_member(folded)


def _main_group_per_file(units: list[Unit], labels: list[int]) -> dict[str, int]:
    lines: dict[str, Counter] = defaultdict(Counter)
    for unit, label in zip(units, labels):
        lines[unit.path][label] += max(1, unit.size)
    return {path: counts.most_common(1)[0][0] for path, counts in lines.items()}


def _by_smallest_member(labels: list[int]) -> list[int]:
    smallest: dict[int, int] = {}
    for i, label in enumerate(labels):
        smallest.setdefault(label, i)
    return [smallest[label] for label in labels]
