"""Sibling edits of one file stay together; so does one change spread over several places
(``spread.py``).

Clustering cuts a file at every edit whose words tie it to nothing else, so a
commit that deletes the help text of seven arguments in one ``build_app``
came out as seven commits, each titled ``Remove from build_app``; one adding
forty names to a README's contributors came out as forty; one making the same
edit in five blocks of a settings file as five. Joining every group of one
file costs tangled trees as much as it keeps single commits whole
(``docs/experiments/untangling.md``), so groups holding nothing but one
file's units join only on evidence that they are one edit made several times:

- the same edit: one unit of each removes and adds the same lines;
- blanks alone: every unit of both changes only the blanks of lines with
  words on them (trailing spaces, indentation, lines rewrapped);
- sibling deletions: every unit of both only deletes lines, inside the same
  enclosing definition;
- sibling list items: every unit of both only adds (or only deletes) items
  of one kind of list (``- ``, ``* ``, ``+ ``, ``1. ``, ``| ``, or the pins
  of a requirements file);
- lines moved: a unit of one only deletes a line of words that a unit of the
  other only adds (express's triager moved to the emeriti's list below).
"""

from __future__ import annotations

import re
from collections import defaultdict

from segmint_core.changes.generated import is_requirements
from segmint_core.changes.markup import list_item
from segmint_core.grouping import spread
from segmint_core.grouping.unions import by_smallest_member, sharing, unions
from segmint_core.grouping.units import Unit

# The item marker of a list or table line: what makes two added lines siblings in one list.
_TABLE_ROW = re.compile(r"^\s*\|\s")
_BLANKS = re.compile(r"\s+")
_WORD_CHARACTERS = re.compile(r"\w")
MOVED_LINE_WORDS = 12  # word characters a moved line needs: a `return None` is in many places
ADDS, DELETES = "adds", "deletes"


def joined(units: list[Unit], labels: list[int]) -> list[int]:
    """``labels`` with sibling groups of one file joined, and the groups of one change spread over
    several places; relabelled by each group's smallest unit index."""
    members: dict[int, list[Unit]] = defaultdict(list)
    for unit, label in zip(units, labels):
        members[label].append(unit)
    if len(members) < 2:
        return labels
    order = sorted(members)  # a group by its position among the groups
    at = {label: n for n, label in enumerate(order)}
    into = list(range(len(order)))  # each group's parent among the joined; a root is its own
    for keep, gone in unions(
        len(order),
        [(at[a], at[b]) for a, b in _sibling_pairs(members) + _moved_pairs(members) + spread.pairs(members)],
    ):
        into[gone] = keep
    return by_smallest_member([order[_root(into, at[label])] for label in labels])


def _root(into: list[int], n: int) -> int:
    while into[n] != n:
        n = into[n]
    return n


def _sibling_pairs(members: dict[int, list[Unit]]) -> list[tuple[int, int]]:
    """Pairs of groups of one file alone that share an edit they make (each joined to the first)."""
    return sharing(
        (label, {(group[0].path, key) for key in sibling_keys(group)})
        for label, group in sorted(members.items())
        if _one_file(group)
    )


def _one_file(group: list[Unit]) -> bool:
    """The group holds nothing but hunks of one file."""
    return len({u.path for u in group}) == 1 and all(u.hunk is not None for u in group)


def _moved_pairs(members: dict[int, list[Unit]]) -> list[tuple[int, int]]:
    """Pairs of groups of one file alone where one takes out a line the other puts in elsewhere."""
    taken: dict[tuple[str, str], set[int]] = defaultdict(set)
    put: dict[tuple[str, str], set[int]] = defaultdict(set)
    for label, group in members.items():
        for unit in group if _one_file(group) else ():
            shape = _shape(unit)
            if shape not in (ADDS, DELETES):
                continue
            found, lines = (taken, unit.removed) if shape == DELETES else (put, unit.added)
            for line in _stripped(lines):
                if len(_WORD_CHARACTERS.findall(line)) >= MOVED_LINE_WORDS:
                    found[(unit.path, line)].add(label)
    return sorted(
        {(min(a, b), max(a, b)) for key, labels in taken.items() for a in labels for b in put.get(key, ()) if a != b}
    )


def sibling_keys(group: list[Unit]) -> set[tuple[str, ...]]:
    """What a group of one file's units shares with a sibling: each edit it makes, the definition
    all its deletions are in, the kind of list item all it adds (or all it deletes) are."""
    keys: set[tuple[str, ...]] = {("edit", *_edit(u)) for u in group if _stripped(u.added) or _stripped(u.removed)}
    if all(_blanks_only(u) for u in group):
        keys.add(("blanks",))
    shapes = {_shape(u) for u in group}
    scopes = {u.scope for u in group}
    if shapes == {DELETES} and len(scopes) == 1 and (scope := scopes.pop()):
        keys.add(("deletes in", scope))
    if len(shapes) == 1 and (shape := shapes.pop()) in (ADDS, DELETES):
        lines = [line for u in group for line in (u.added if shape == ADDS else u.removed) if line.strip()]
        pins = is_requirements(group[0].path)  # each line of a requirements file is an item of its list
        markers = {"requirement" if pins else _marker(line) for line in lines}
        if len(markers) == 1 and (marker := markers.pop()):
            keys.add((shape, marker))
    return keys


def _marker(line: str) -> str | None:
    """The kind of list item a line is (``-``, ``*``, ``+``, ``1.``, ``|``), None for no item."""
    return list_item(line) or ("|" if _TABLE_ROW.match(line) else None)


def _edit(unit: Unit) -> tuple[str, str]:
    """What a unit adds and removes, blank lines and indentation aside."""
    return ("\n".join(_stripped(unit.added)), "\n".join(_stripped(unit.removed)))


def _blanks_only(unit: Unit) -> bool:
    """The unit changes only the blanks of lines with words on them: trailing spaces, indentation,
    lines joined or split (blank lines alone added or taken out are no sibling of anything)."""
    text = _BLANKS.sub("", "".join(unit.removed))
    return bool(text) and text == _BLANKS.sub("", "".join(unit.added))


def _stripped(lines: list[str]) -> tuple[str, ...]:
    return tuple(line.strip() for line in lines if line.strip())


def _shape(unit: Unit) -> str:
    added, removed = _stripped(unit.added), _stripped(unit.removed)
    if added and not removed:
        return ADDS
    if removed and not added:
        return DELETES
    return "edits"
