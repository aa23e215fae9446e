"""Tests, a changelog and docs go with the code they concern.

Clustering weighs every link against a threshold set for tangled trees, so a
single commit that changes a function and its test, or adds a changelog entry
naming it, often came out as two groups: ``Fix parse_args`` and ``Update tests
in test_parser.py``. After clustering (and after ``leftovers`` has kept each
test file's and changelog's parts together), a group holding nothing but test
edits joins the group of code its tests are tied to by a test's name, a call
or a definition used; a group holding nothing but changelog entries joins the
group its entries name or resemble; a group holding nothing but docs edits
joins the group whose code brings in a name the docs cite (a function, a
parameter, an option the change adds). Where several groups are tied to it,
the one with the most such links wins. A group tied to no code stays apart:
engineers commit tests, changelogs and docs on their own often enough
(docs/experiments/untangling.md, "Tried last"), and docs citing code that was
there before cost tangled trees more than they gave ("Docs citing a name the
change brings in").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from segmint_core.changes.kinds import CHANGELOG, CODE, DOCS, TEST
from segmint_core.grouping.lexicon import identifiers
from segmint_core.grouping.links import Link
from segmint_core.grouping.unions import by_smallest_member
from segmint_core.grouping.units import Unit, definitions

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
# A shorter name a doc cites (``url``, ``app``) is seldom the one the change brings in.
NEW_NAME_LENGTH = 4
# The units a name the change brings in is written in, at most: its definition, a use, a test, docs.
NEW_NAME_USES = 4
# (the kind a group holds alone, the kinds the group it joins must hold one of, the links that tie them)
RULES = (
    (TEST, frozenset({CODE}), TEST_TIES),
    (CHANGELOG, frozenset({CODE, TEST, DOCS}), CHANGELOG_TIES),
)


def joined_to_their_code(units: list[Unit], links: list[Link], labels: list[int]) -> list[int]:
    """``labels`` with each group of only test edits, then each of only changelog entries, joined
    to the group it is tied to most, then each of only docs edits to the group whose code brings in
    the names it cites most; relabelled by each group's smallest unit index."""
    if len(set(labels)) < 2 or not any(u.kind in (TEST, CHANGELOG, DOCS) for u in units):
        return labels
    joined = list(labels)
    for kind, targets, ties in RULES:
        joined = _join(units, links, joined, kind, targets, ties)
    return by_smallest_member(_docs_joined(units, joined))


def _join(
    units: list[Unit], links: list[Link], labels: list[int], kind: str, targets: frozenset[str], ties: frozenset[str]
) -> list[int]:
    kinds = _kinds(units, labels)
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
    return _joined(labels, counts)


def _docs_joined(units: list[Unit], labels: list[int]) -> list[int]:
    """Each group of only docs edits joined to the one group whose code brings in a name its edits
    cite (cited most, where they cite several groups' names)."""
    docs = {label for label, held in _kinds(units, labels).items() if held == {DOCS}}
    cited = {n for u, label in zip(units, labels) if label in docs for n in u.mentions if len(n) >= NEW_NAME_LENGTH}
    if not cited:
        return labels
    bringing: dict[str, set[int]] = defaultdict(set)
    for unit, label in zip(units, labels):
        if unit.kind == CODE:
            for name in _new_names(unit, cited):
                bringing[name].add(label)
    if not bringing:  # most trees: the whole tree is read again below only for a name some code brings in
        return labels
    known = _known_before(units, set(bringing))
    counts: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for unit, label in zip(units, labels):
        if label in docs:
            for name in unit.mentions & bringing.keys() - known:
                owners = bringing[name]
                if len(owners) == 1:  # a name two groups bring in decides nothing
                    counts[label][next(iter(owners))] += 1
    return _joined(labels, counts)


def _new_names(unit: Unit, cited: set[str]) -> set[str]:
    """Of the ``cited`` names, those a code unit defines or writes that neither its removed lines
    nor the lines around it have: a new function, parameter or option, not one it only edits or calls."""
    added = "\n".join(unit.added)
    if not any(name in added for name in cited):  # most units of a large tree: read no further
        return set()
    written = {m.group(1) for line in unit.added if not _IMPORT.match(line) for m in _NAMED.finditer(line)}
    written -= set(identifiers("\n".join(unit.removed)))
    return cited & ((unit.defines - definitions(unit.removed)) | (written - unit.context_idents))


# A name written, not one called or reached through another (``app.config.from_prefixed_env()``
# uses what was there before): a parameter, a field, a new variable or option.
_NAMED = re.compile(r"(?<![.\w])([A-Za-z_]\w*)\b(?!\s*\()")
# An import brings in a name that was there before, whatever the file importing it.
_IMPORT = re.compile(r"^\s*(?:from\s+\S+\s+import\b|import\b|use\s|#include\b|(?:const|let|var)\s.*\brequire\()")


def _known_before(units: list[Unit], cited: set[str]) -> set[str]:
    """The cited names the tree shows were there before: on a line around an edit or a removed
    line anywhere in it, or used by more units than a new name's definition, use and docs
    (``Flask``, ``request``, ``create_app`` of a release with a new example app)."""
    known: set[str] = set()
    uses: Counter[str] = Counter()
    for unit in units:
        known |= unit.context_idents & cited
        removed = "\n".join(unit.removed)
        if any(name in removed for name in cited):
            known.update(n for n in identifiers(removed) if n in cited)
        uses.update(n for n in cited if n in unit.idents or n in unit.mentions)
    return known | {name for name, n in uses.items() if n > NEW_NAME_USES}


def _kinds(units: list[Unit], labels: list[int]) -> dict[int, set[str]]:
    kinds: dict[int, set[str]] = defaultdict(set)
    for unit, label in zip(units, labels):
        kinds[label].add(unit.kind)
    return kinds


def _joined(labels: list[int], counts: dict[int, dict[int, int]]) -> list[int]:
    """Each counted group joined to the group it is tied to most (ties: the earlier group)."""
    into = {label: max(tied, key=lambda there: (tied[there], -there)) for label, tied in counts.items()}
    return [into.get(label, label) for label in labels]
