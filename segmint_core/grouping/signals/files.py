"""Links between files: the same folder, the same stem, tests and their source.

A file-level link is spread over the unit pairs of the two files (capped for
very large files, so cost stays linear in practice).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from segmint_core.grouping import lexicon
from segmint_core.changes.kinds import CODE, TEST, file_kind
from segmint_core.grouping.links import Link, link
from segmint_core.grouping.signals.base import Context
from segmint_core.grouping.units import Unit

TEST_PAIR = "test_pair"
SAME_DIRECTORY = "same_directory"
SAME_STEM = "same_stem"
# A shared folder is weak evidence; between two big files a few unit pairs carry it.
DIRECTORY_PAIR_CAP = 16
# A folder, or a file name, that this many changed files share says little; and pairing them
# all is quadratic (400 packages' package.json bumped at once, node_modules left untracked).
CROWD = 30


def links(ctx: Context) -> Iterator[Link]:
    cap = ctx.model.file_pair_cap
    files: dict[str, list[Unit]] = defaultdict(list)
    for unit in ctx.units:
        files[unit.path].append(unit)
    paths = sorted(files)
    by_stem: dict[str, list[str]] = defaultdict(list)
    by_dir: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        by_stem[lexicon.stem(path)].append(path)
        by_dir[lexicon.directory(path)].append(path)
    seen: set[tuple[str, str]] = set()
    for _stem, group in sorted(by_stem.items()):
        for x, p in enumerate(group):
            for q in _partners(group, x):
                seen.add((p, q))
                kind = _stem_link(p, q)
                yield from _spread(files[p], files[q], 1.0, kind, _tested(p, q), cap)
    for folder, group in sorted(by_dir.items()):
        if len(group) > CROWD:
            continue
        for x, p in enumerate(group):
            for q in group[x + 1 :]:
                if (p, q) not in seen:
                    yield from _spread(files[p], files[q], 1.0, SAME_DIRECTORY, folder, DIRECTORY_PAIR_CAP)


def _partners(group: list[str], x: int) -> list[str]:
    """The files after ``group[x]`` its stem links it to: all of them, or in a crowd those of its folder."""
    later = group[x + 1 :]
    if len(group) <= CROWD:
        return later
    folder = lexicon.directory(group[x])
    return [q for q in later if lexicon.directory(q) == folder]


def _stem_link(p: str, q: str) -> str:
    kinds = {file_kind(p), file_kind(q)}
    return TEST_PAIR if kinds == {TEST, CODE} else SAME_STEM


def _tested(p: str, q: str) -> str:
    """The source file of a test pair (the detail reasons name), else the shared stem's first path."""
    if file_kind(p) == TEST:
        return q
    return p


def _spread(a: list[Unit], b: list[Unit], weight: float, kind: str, detail: str, cap: int) -> Iterator[Link]:
    if not a or not b:
        return
    if len(a) * len(b) > cap:
        side = max(1, int(cap**0.5))
        a, b = a[:side], b[:side]
    for u in a:
        for v in b:
            yield link(u.index, v.index, weight, kind, detail)
