"""Tests and a changelog go with the code they concern.

Clustering weighs every link against a threshold set for tangled trees, so a
single commit that changes a function and its test, or adds a changelog entry
naming it, often came out as two groups: ``Fix parse_args`` and ``Update tests
in test_parser.py``. After clustering (and after ``leftovers`` has kept each
test file's and changelog's parts together), a group holding nothing but test
edits joins the group of code its tests are tied to by a test's name, a call
or a definition used; a group holding nothing but changelog entries joins the
group its entries name or resemble. Where several groups are tied to it, the
one with the most such links wins. A test or changelog group tied to no code
stays apart: engineers commit tests and changelogs on their own often enough
(docs/experiments/untangling.md, "Tried last").
"""

from __future__ import annotations

from collections import defaultdict

from segmint_core.changes.kinds import CHANGELOG, CODE, DOCS, TEST
from segmint_core.grouping.links import Link
from segmint_core.grouping.unions import by_smallest_member
from segmint_core.grouping.units import Unit

# What ties a test to the code it tests: its name, a call, a definition it uses.
TEST_TIES = frozenset(
    {
        "test_pair",
        "exercises",
        "def_use",
        "def_use:generic",
        "def_use_context",
        "def_use_context:generic",
        "mention_use",
    }
)
# What ties a changelog entry to a change: a name it mentions, words it shares, a likeness.
CHANGELOG_TIES = frozenset(
    {"mention", "mention_use", "file_mention", "shared", "similar", "def_use", "def_use:generic"}
)
# (the kind a group holds alone, the kinds the group it joins must hold one of, the links that tie them)
RULES = (
    (TEST, frozenset({CODE}), TEST_TIES),
    (CHANGELOG, frozenset({CODE, TEST, DOCS}), CHANGELOG_TIES),
)


def joined_to_their_code(units: list[Unit], links: list[Link], labels: list[int]) -> list[int]:
    """``labels`` with each group of only test edits, then each of only changelog entries,
    joined to the group it is tied to most; relabelled by each group's smallest unit index."""
    if len(set(labels)) < 2 or not any(u.kind in (TEST, CHANGELOG) for u in units):
        return labels
    joined = list(labels)
    for kind, targets, ties in RULES:
        joined = _join(units, links, joined, kind, targets, ties)
    return by_smallest_member(joined)


def _join(
    units: list[Unit], links: list[Link], labels: list[int], kind: str, targets: frozenset[str], ties: frozenset[str]
) -> list[int]:
    kinds: dict[int, set[str]] = defaultdict(set)
    for unit, label in zip(units, labels):
        kinds[label].add(unit.kind)
    alone = {label for label, held in kinds.items() if held == {kind}}
    if not alone:
        return labels
    counts: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for item in links:
        if item.kind not in ties:
            continue
        a, b = labels[item.a], labels[item.b]
        for here, there in ((a, b), (b, a)):
            if here in alone and there not in alone and kinds[there] & targets:
                counts[here][there] += 1
    into = {
        label: max(tied, key=lambda there: (tied[there], -there))  # ties broken by position: the earlier group
        for label, tied in counts.items()
    }
    return [into.get(label, label) for label in labels]
