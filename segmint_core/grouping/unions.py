"""Pairs that must end in one cluster, as the merges that put them there."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator


def unions(size: int, pairs: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """For items ``0..size-1``, each merge ``(keep, gone)`` that joins the pairs: the cluster
    ``gone`` is folded into ``keep``, the smaller of the two clusters' first members."""
    root = list(range(size))

    def find(x: int) -> int:
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            keep, gone = min(ra, rb), max(ra, rb)
            root[gone] = keep
            yield keep, gone


def by_smallest_member(labels: list[int]) -> list[int]:
    """``labels`` renamed so each group is labelled by the index of its first unit."""
    smallest: dict[int, int] = {}
    for i, label in enumerate(labels):
        smallest.setdefault(label, i)
    return [smallest[label] for label in labels]


def sharing(keyed: Iterable[tuple[int, Iterable[Hashable]]]) -> list[tuple[int, int]]:
    """Pairs of labels holding one key, each later label joined to the first that held it."""
    first: dict[Hashable, int] = {}
    pairs = []
    for label, keys in keyed:
        for key in keys:
            seen = first.setdefault(key, label)
            if seen != label:
                pairs.append((seen, label))
    return pairs
