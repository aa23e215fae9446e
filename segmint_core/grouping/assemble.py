"""From cluster labels on units to effective changes and ordered, numbered groups.

A hunk whose atoms got different labels is cut where the label changes (the
cut rules of ``split_hunk`` may move a cut; the part then takes its majority
label). Groups are numbered in order of first appearance in file order, so
the same input always gives the same ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from segmint_core.changes.models import Change
from segmint_core.changes.split import split_hunk
from segmint_core.grouping.effective import split_change
from segmint_core.grouping.models import ChangeGroup
from segmint_core.grouping.splitting import cuts_between
from segmint_core.grouping.units import Unit


@dataclass
class Cut:
    """Where hunks are split, and the label of every effective hunk and hunkless change."""

    splits: dict[str, list[int]] = field(default_factory=dict)
    hunk_label: dict[str, int] = field(default_factory=dict)
    change_label: dict[str, int] = field(default_factory=dict)


def cut_hunks(units: list[Unit], labels: list[int]) -> Cut:
    cut = Cut()
    atoms_of: dict[str, list[Unit]] = {}
    for unit, label in zip(units, labels):
        if unit.hunk is None:  # a hunkless change, or a generated file kept whole
            cut.change_label[unit.change.id] = label
            cut.hunk_label.update((h.id, label) for h in unit.change.hunks)
        else:
            atoms_of.setdefault(unit.hunk.id, []).append(unit)
    for hunk_id, atoms in atoms_of.items():
        hunk = atoms[0].hunk
        assert hunk is not None
        atom_labels = [labels[u.index] for u in atoms]
        if atom_labels.count(atom_labels[0]) == len(atom_labels):  # one group: nothing to cut
            cut.hunk_label[hunk_id] = atom_labels[0]
            continue
        cuts, part_labels = cuts_between([(u.start, u.end) for u in atoms], atom_labels, hunk.lines)
        if cuts:
            cut.splits[hunk_id] = cuts
            for sub, label in zip(split_hunk(hunk, cuts), part_labels):
                cut.hunk_label[sub.id] = label
        else:
            cut.hunk_label[hunk_id] = part_labels[0]
    return cut


def effective_changes(selected: list[Change], cut: Cut) -> list[Change]:
    return [split_change(c, cut.splits) for c in selected]


def ordered_groups(effective: list[Change], cut: Cut) -> dict[int, ChangeGroup]:
    """Label -> group (summary and reasons still empty), numbered in file order."""
    order: dict[int, ChangeGroup] = {}
    for change in effective:
        labels = [cut.hunk_label[h.id] for h in change.hunks] or [cut.change_label[change.id]]
        for label in labels:
            group = order.get(label)
            if group is None:
                group = order[label] = ChangeGroup(f"group-{len(order) + 1}", [], [], "", [])
            if change.id not in group.change_ids:
                group.change_ids.append(change.id)
        for h in change.hunks:
            order[cut.hunk_label[h.id]].hunk_ids.append(h.id)
    return order
