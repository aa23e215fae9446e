"""Predicted labels for each scored line, from a grouping or from a baseline."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from segmint_bench.untangle.truth import LineKey
from segmint_core.changes import ChangeSet
from segmint_core.changes.split import part_ranges
from segmint_core.grouping.models import Grouping


def grouping_labels(grouping: Grouping, changes: ChangeSet, keys: Iterable[LineKey]) -> list[str]:
    """The group of the effective hunk that holds each line (split hunks via their parts)."""
    group_of = grouping.hunk_groups()
    labels = []
    for hunk_id, index in keys:
        if hunk_id in group_of:
            labels.append(group_of[hunk_id])
            continue
        parts = part_ranges(changes.hunk(hunk_id).lines, grouping.splits[hunk_id])
        number = next(n for n, (start, end) in enumerate(parts, start=1) if start <= index < end)
        labels.append(group_of[f"{hunk_id}.{number}"])
    return labels


def per_file(changes: ChangeSet, keys: Iterable[LineKey]) -> list[str]:
    return [changes.change_of(hunk_id).id for hunk_id, _ in keys]


def per_hunk(changes: ChangeSet, keys: Iterable[LineKey]) -> list[str]:
    return [hunk_id for hunk_id, _ in keys]


def all_in_one(changes: ChangeSet, keys: Iterable[LineKey]) -> list[str]:
    return ["all" for _ in keys]


def hunk_majority(truth: dict[LineKey, int], keys: Iterable[LineKey]) -> list[int]:
    """The best any grouping of whole git hunks can do: each hunk to its majority commit."""
    votes: dict[str, Counter] = {}
    for (hunk_id, _index), commit in truth.items():
        votes.setdefault(hunk_id, Counter())[commit] += 1
    best = {h: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for h, c in votes.items()}
    return [best[hunk_id] for hunk_id, _ in keys]
