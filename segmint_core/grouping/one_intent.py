"""Is the whole change one intent? A gate over the groups clustering made.

Clustering decides pair by pair, with a threshold set for tangled trees, so a
single commit often leaves in pieces that nothing links: a code change, its
test and its changelog entry, or two edits of one file. Whether a tree is one
commit shows in the whole of it more than in any pair: how many files, lines,
folders and kinds it spans, whether it adds one changelog entry or several,
one test or several, whether the pieces clustering left are whole commits
(code with its test) or parts of one (a test alone, a docs page alone), how
close the best two pieces came to merging, how many names they share, and how
the change's extent compares with the house's own commits (the share of its
recent commits that touched as many files: a change larger than this house's
commits usually are is more often two of them).

A logistic model of those features, fit on the untangling benchmark's trees
of one commit against those of two and three (``segmint bench fit
--one-intent``), gives P(one intent); at or above its cutoff every group is
joined into one. The cutoff is the lowest at which, on the cases it was fit
on, trees of two commits and of three each lose at most 0.01 of their
mean ARI (``BUDGET`` of the fit): the gate buys single commits kept whole only where it costs
tangled trees little (docs/experiments/untangling.md, "One intent, decided
on the whole change"). Unless ``prefer_one_commit`` is off, the offline
engine's model carries the gate fit on nine histories (``one_intent.json``)
and asks it (``Model.one_intent``).
Recorded intent decides where there is one.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from segmint_core.changes.kinds import CHANGELOG, CODE, CONFIG, DOCS, TEST
from segmint_core.grouping.units import Unit

# A test's definition: Python, Go, Rust, and the JavaScript runners' it/test/describe.
_TEST_DEFINITION = re.compile(
    r"^\s*(?:async\s+)?def\s+test\w*|^\s*func\s+Test\w+|^\s*(?:it|test|describe)\s*\(\s*['\"`]|^\s*#\[test\]"
)
_FLOOR = -6.0  # how far below the threshold the best two groups' affinity counts
# The fit saw trees of up to three commits of at most 12 files each; larger ones are left as clustering
# made them (a tree of thousands of files is not one intent, and its features would cost quadratic time).
MAX_FILES = 36
MIN_HISTORY = 20  # commits: a shorter history says nothing of how large the house's commits run

# The files each of the house's recent commits touched, or what reads them when the gate is asked.
House = Sequence[int] | Callable[[], Sequence[int]] | None

FEATURES = (
    "log_files",
    "log_units",
    "log_lines",
    "log_folders",
    "log_top_folders",
    "log_groups",
    "one_changelog_entry",
    "changelog_entries",
    "release_block",
    "one_test_added",
    "tests_added",
    "kinds",
    "largest_group_share",
    "best_merge_below_threshold",
    "linked_group_pairs",
    "names_shared_by_largest_two",
    "has_code",
    "has_test",
    "has_docs",
    "test_only_groups",
    "docs_only_groups",
    "changelog_only_groups",
    "config_only_groups",
    "code_groups",
    "at_most_one_code_group",
    "group_pairs_sharing_a_file",
    "smallest_group_share",
    "second_group_share",
    "house_commits_as_large",
)


@dataclass(frozen=True)
class OneIntent:
    """A logistic model over ``FEATURES`` (standardized by ``means`` and ``scales``) and its cutoff."""

    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    cutoff: float

    def probability(self, x: list[float]) -> float:
        """P(one intent); a feature not known (NaN: no history to read) counts as its mean."""
        z = self.bias + sum(
            w * (v - m) / s for w, v, m, s in zip(self.weights, x, self.means, self.scales) if not math.isnan(v)
        )
        return 1.0 / (1.0 + math.exp(-max(-700.0, min(700.0, z))))

    def to_dict(self) -> dict:
        return {
            "features": list(FEATURES),
            "means": [round(v, 6) for v in self.means],
            "scales": [round(v, 6) for v in self.scales],
            "weights": [round(v, 6) for v in self.weights],
            "bias": round(self.bias, 6),
            "cutoff": round(self.cutoff, 6),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "OneIntent":
        if list(data["features"]) != list(FEATURES):
            raise ValueError("the one-intent model was fit on other features")
        return cls(tuple(data["means"]), tuple(data["scales"]), tuple(data["weights"]), data["bias"], data["cutoff"])


def joined_if_one(
    gate: OneIntent | None,
    units: list[Unit],
    labels: list[int],
    affinity: dict[tuple[int, int], float],
    threshold: float,
    files: int,
    house: House = None,
) -> list[int]:
    """``labels``, or every unit in one group when ``gate`` finds the whole change one intent;
    ``house``: the files each of the repository's recent commits touched (``History.sizes``), or
    what reads them (called only when the gate is asked)."""
    if gate is None or files > MAX_FILES or len(set(labels)) < 2:
        return labels
    sizes = house() if callable(house) else house
    if gate.probability(features(units, labels, affinity, threshold, files, sizes)) < gate.cutoff:
        return labels
    return [0] * len(labels)


def features(
    units: list[Unit],
    labels: list[int],
    affinity: dict[tuple[int, int], float],
    threshold: float,
    files: int,
    house: Sequence[int] | None = None,
) -> list[float]:
    """``FEATURES`` of a change of ``files`` files clustered into ``labels`` (two groups or more)."""
    groups: dict[int, list[Unit]] = defaultdict(list)
    for unit, label in zip(units, labels):
        groups[label].append(unit)
    weight = [max(1, u.size) for u in units]
    lines = sum(weight)
    return [
        *_extent(units, files, lines, len(groups)),
        *_announced(units),
        *_pieces(groups, weight, lines, affinity, labels, threshold),
        *_kinds_of_pieces(groups, weight, lines),
        as_large(house, files),
    ]


def as_large(house: Sequence[int] | None, files: int) -> float:
    """The share of the house's recent commits that touched ``files`` files or more;
    NaN where its history is too short to say."""
    if house is None or len(house) < MIN_HISTORY:
        return math.nan
    return sum(1 for size in house if size >= files) / len(house)


def _extent(units: list[Unit], files: int, lines: int, groups: int) -> list[float]:
    folders = {u.path.rpartition("/")[0] for u in units}
    tops = {u.path.partition("/")[0] if "/" in u.path else "" for u in units}
    return [
        math.log(max(1, files)),
        math.log(len(units)),
        math.log(lines),
        math.log(len(folders)),
        math.log(len(tops)),
        math.log(groups),
    ]


def _announced(units: list[Unit]) -> list[float]:
    """What the change says of itself: changelog entries and tests it adds."""
    entries = sum(1 for u in units if u.kind == CHANGELOG and u.added and not u.release)
    releases = any(u.release for u in units)
    tests = sum(1 for u in units for line in u.added if _TEST_DEFINITION.match(line))
    return [float(entries == 1), float(entries >= 2), float(releases), float(tests == 1), float(tests >= 2)]


def _pieces(
    groups: dict[int, list[Unit]],
    weight: list[int],
    lines: int,
    affinity: dict[tuple[int, int], float],
    labels: list[int],
    threshold: float,
) -> list[float]:
    kinds = {u.kind for members in groups.values() for u in members}
    size = {label: sum(weight[u.index] for u in members) for label, members in groups.items()}
    between: dict[tuple[int, int], float] = defaultdict(float)
    for (a, b), value in affinity.items():
        first, second = labels[a], labels[b]
        if first != second:
            between[min(first, second), max(first, second)] += value * weight[a] * weight[b]
    best = max((total / (size[x] * size[y]) for (x, y), total in between.items()), default=0.0) - threshold
    pairs = len(groups) * (len(groups) - 1) / 2
    largest = sorted(groups, key=lambda label: -size[label])[:2]
    names = [set().union(*(u.idents for u in groups[label])) for label in largest]
    shared = len(names[0] & names[1]) / max(1, len(names[0] | names[1]))
    return [
        float(len(kinds)),
        max(size.values()) / lines,
        max(best, _FLOOR),
        len(between) / pairs,
        shared,
        float(CODE in kinds),
        float(TEST in kinds),
        float(DOCS in kinds),
    ]


def _kinds_of_pieces(groups: dict[int, list[Unit]], weight: list[int], lines: int) -> list[float]:
    held = [{u.kind for u in members} for members in groups.values()]
    n = len(held)
    code_groups = sum(1 for kinds in held if CODE in kinds)
    paths = [{u.path for u in members} for members in groups.values()]
    sharing = sum(1 for i in range(n) for j in range(i + 1, n) if paths[i] & paths[j])
    sizes = sorted(sum(weight[u.index] for u in members) for members in groups.values())
    return [
        sum(1 for kinds in held if kinds == {TEST}) / n,
        sum(1 for kinds in held if kinds == {DOCS}) / n,
        sum(1 for kinds in held if kinds == {CHANGELOG}) / n,
        sum(1 for kinds in held if kinds == {CONFIG}) / n,
        float(code_groups),
        float(code_groups <= 1),
        sharing / (n * (n - 1) / 2),
        sizes[0] / lines,
        sizes[-2] / lines,
    ]
