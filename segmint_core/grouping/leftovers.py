"""A changelog's or a test file's leftovers stay with the rest of the file.

Clustering splits a changelog at every entry whose words tie it to nothing
else: a commit that only takes eleven lines out of ``History.md`` came out as
eleven groups, each proposed as its own ``Updated History.md``. A test file
breaks the same way at an import or a fixture that ties weakly to the test
using it. A part linked to the code it concerns goes with that code; the parts
left over, in groups holding nothing but that one file, join the group
holding most of its lines. Docs, config and code files are left as they are:
two commits editing one page or one settings file are common, and joining
their parts loses more tangled cases than it keeps single commits whole
(``docs/experiments/untangling.md``).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from segmint_core.changes.kinds import CHANGELOG, TEST
from segmint_core.grouping.unions import by_smallest_member
from segmint_core.grouping.units import Unit

KINDS = frozenset({CHANGELOG, TEST})


def kept_with_their_file(units: list[Unit], labels: list[int]) -> list[int]:
    """``labels`` with each changelog's and test file's groups of that file alone folded into its
    main group (the one holding most of its changed lines), each labelled by its smallest unit index."""
    if not any(u.kind in KINDS for u in units):
        return labels
    main = _main_group_per_file(units, labels)
    paths_of: dict[int, set[str]] = defaultdict(set)
    for unit, label in zip(units, labels):
        paths_of[label].add(unit.path)
    folded = list(labels)
    for i, (unit, label) in enumerate(zip(units, labels)):
        if unit.kind in KINDS and paths_of[label] == {unit.path} and main[unit.path] != label:
            folded[i] = main[unit.path]
    return by_smallest_member(folded)


def _main_group_per_file(units: list[Unit], labels: list[int]) -> dict[str, int]:
    lines: dict[str, Counter] = defaultdict(Counter)
    for unit, label in zip(units, labels):
        lines[unit.path][label] += max(1, unit.size)
    return {path: counts.most_common(1)[0][0] for path, counts in lines.items()}
