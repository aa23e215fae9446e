"""How sure a grouping is: per hunk, per group, and its least certain decisions.

A *block* is what a person moves: a hunk (or a part of one, or a hunkless
change), made of one or more of grouping's units. From the pair model's
P(same intent) (``probability.py``), a block's fit with a group is the
line-weighted mean of its units' pair probabilities with the group's units
outside the block (a missing link counts at the no-link probability); its
confidence is its fit with its own group (alone in its group: one minus its
best fit elsewhere), scaled by the calibration with how well it fits
elsewhere and its group's size (``hunk_signals``). A group's confidence is the
line-weighted mean of its blocks'.

The decisions a person or agent should look at first are of two kinds: a
block that fits another group about as well as its own (``move``), and two
groups whose units fit each other about as well as one group's do
(``merge``). Each is ranked by how likely it is to be wrong, and carries a
reason written from the links between the two sides. Only linked pairs are
visited, so the cost follows the number of links.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

import numpy as np

from segmint_core.grouping.model import Model
from segmint_core.grouping.probability import PairProbabilities, sigmoid
from segmint_core.grouping.reasons import ALONE, ONLY, group_reasons
from segmint_core.grouping.links import Link
from segmint_core.grouping.units import Unit

MOVE = "move"
MERGE = "merge"
SPLIT = "split"
# Groups of more blocks than this are not offered a split (finding one costs blocks cubed).
SPLIT_BLOCKS = 40
# A decision is listed when the other side is at least this likely to be right.
LISTED = 0.25
MAX_DECISIONS = 5


@dataclass(frozen=True)
class BlockFit:
    """How one block sits in the grouping (labels are the grouping's cluster labels)."""

    block: int
    label: int
    confidence: float  # P(it belongs with its own group)
    alternative: int | None  # the other group it fits best
    alternative_probability: float  # P(it belongs with that group)


@dataclass(frozen=True)
class Decision:
    """A decision the engine is unsure of, with P(the alternative is right)."""

    kind: str  # MOVE: ``block`` to ``target``; MERGE: groups ``source`` and ``target``;
    # SPLIT: ``blocks`` out of group ``source`` into a group of their own
    probability: float
    target: int = -1
    block: int = -1
    source: int = -1
    blocks: tuple[int, ...] = ()
    lines: float = 1.0  # how much it moves: the geometric mean of the changed lines on its two sides

    @property
    def worth(self) -> float:
        """Lines expected to be put right by settling it: what the list is ranked by."""
        return self.probability * self.lines


@dataclass
class Assessment:
    """Everything ``assess`` finds, by block and cluster label."""

    blocks: list[BlockFit]
    groups: dict[int, float]
    decisions: list[Decision]  # every one, most likely wrong first
    between: dict[tuple[int, int], float] = field(default_factory=dict)  # (label, label) -> mean pair P


def assess(
    pairs: PairProbabilities, labels: list[int], blocks: list[int], calibration: "Calibration | None" = None
) -> Assessment:
    """Confidence per block and group, and every decision worth a look, most likely wrong first.

    ``labels``: each unit's cluster; ``blocks``: each unit's block (the units of
    a block share a cluster). ``calibration`` (default: none) scales the pair
    probabilities and the decisions' (``Calibration``).
    """
    calibration = calibration or IDENTITY
    pairs = calibration.pairs(pairs)
    weights = pairs.weights
    base = sigmoid(pairs.base)
    cluster_weight: dict[int, float] = defaultdict(float)
    block_weight: dict[int, float] = defaultdict(float)
    block_label: dict[int, int] = {}
    for unit, (label, block) in enumerate(zip(labels, blocks)):
        cluster_weight[label] += weights[unit]
        block_weight[block] += weights[unit]
        block_label[block] = label
    lifted, across, within = _gains(pairs, labels, blocks, base)
    clusters = sorted(cluster_weight)
    fits: list[BlockFit] = []
    for block in sorted(block_weight):
        label, mine = block_label[block], block_weight[block]
        linked = lifted.get(block, {})

        def fit(cluster: int) -> float:
            others = cluster_weight[cluster] - (mine if cluster == label else 0.0)
            return base + linked.get(cluster, 0.0) / (mine * others) if others > 0 else math.nan

        # every cluster it has no link with fits at the no-link probability: the first stands for them all
        unlinked = next((c for c in clusters if c != label and c not in linked), None)
        candidates = [c for c in linked if c != label] + ([unlinked] if unlinked is not None else [])
        alternative = max(candidates, key=lambda c: (fit(c), -c)) if candidates else None
        other = fit(alternative) if alternative is not None else 0.0
        own = fit(label)
        fits.append(BlockFit(block, label, 1.0 - other if math.isnan(own) else own, alternative, other))
    between = {pair: base + gain / (cluster_weight[pair[0]] * cluster_weight[pair[1]]) for pair, gain in across.items()}
    decisions = _decisions(
        fits, _group_confidence(fits, block_weight), between, block_weight, cluster_weight, calibration
    ) + _splits(fits, block_weight, within, base, calibration)
    # decisions read the fits as the pair model gives them (each kind has its own scaling); people read these
    shown = calibration.blocks(fits)
    return Assessment(shown, _group_confidence(shown, block_weight), rank(decisions), between)


def _gains(
    pairs: PairProbabilities, labels: list[int], blocks: list[int], base: float
) -> tuple[dict[int, dict[int, float]], dict[tuple[int, int], float], dict[tuple[int, int], float]]:
    """Summed ``w_a * w_b * (p - base)`` over the linked pairs of units of two blocks (a block
    moves whole: its own pairs never count): block -> cluster -> sum, and (lower, higher) ->
    sum over the pairs across two clusters, and over the block pairs within one. Labels and
    blocks number from 0. Worked out with numpy over the 10^5 pairs of a large change set."""
    ends = np.array(list(pairs.affinity), dtype=np.int64).reshape(-1, 2)
    block, label = np.array(blocks, dtype=np.int64), np.array(labels, dtype=np.int64)
    apart = block[ends[:, 0]] != block[ends[:, 1]]
    a, b = ends[apart, 0], ends[apart, 1]
    log_odds = pairs.base + np.array(list(pairs.affinity.values()), dtype=np.float64)[apart]
    # each probability as ``sigmoid`` gives it: numpy's exp may differ from it in the last bit
    probability = np.array(list(map(sigmoid, log_odds.tolist())), dtype=np.float64)
    weights = np.array(pairs.weights, dtype=np.float64)
    gain = weights[a] * weights[b] * (probability - base)
    clusters = int(label.max()) + 1 if len(label) else 1
    # each pair's two ends in turn, in the pairs' order: a's block with b's cluster, then b's with a's
    ends_met = np.stack([block[a] * clusters + label[b], block[b] * clusters + label[a]], axis=1).ravel()
    keys, totals = _sums(ends_met, np.repeat(gain, 2))
    lifted: dict[int, dict[int, float]] = {}
    for key, total in zip(keys.tolist(), totals):
        lifted.setdefault(key // clusters, {})[key % clusters] = total
    crossing = label[a] != label[b]
    across = _pair_sums(label[a][crossing], label[b][crossing], gain[crossing])
    within = _pair_sums(block[a][~crossing], block[b][~crossing], gain[~crossing])
    return lifted, across, within


def _pair_sums(x: np.ndarray, y: np.ndarray, values: np.ndarray) -> dict[tuple[int, int], float]:
    """The values summed per pair ``(lower, higher)`` of ``x`` and ``y``, pairs in the order they first come."""
    count = int(max(x.max(), y.max())) + 1 if len(x) else 1
    keys, totals = _sums(np.minimum(x, y) * count + np.maximum(x, y), values)
    return dict(zip(zip((keys // count).tolist(), (keys % count).tolist()), totals))


def _sums(keys: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, list[float]]:
    """Each key's summed values, keys in the order they first come. ``np.bincount`` adds them in
    the order given, so each sum is, to the last bit, what adding one pair at a time makes."""
    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    totals = np.bincount(inverse, weights=values, minlength=len(unique))
    order = np.argsort(first, kind="stable")
    return unique[order], totals[order].tolist()


def _group_confidence(fits: list[BlockFit], block_weight: dict[int, float]) -> dict[int, float]:
    total: dict[int, float] = defaultdict(float)
    weight: dict[int, float] = defaultdict(float)
    for f in fits:
        total[f.label] += block_weight[f.block] * f.confidence
        weight[f.label] += block_weight[f.block]
    return {label: total[label] / weight[label] for label in total}


def _decisions(
    fits: list[BlockFit],
    groups: dict[int, float],
    between: dict[tuple[int, int], float],
    block_weight: dict[int, float],
    cluster_weight: dict[int, float],
    calibration: "Calibration",
) -> list[Decision]:
    """Moves and merges, by P(the alternative is right): for a move, the block's fit with
    the other group against its own; for a merge, the two groups' mutual fit against how
    well each holds together."""
    out: list[Decision] = []
    for f in fits:
        if f.alternative is None:
            continue
        p = calibration.decision(MOVE, _odds_share(f.alternative_probability, f.confidence))
        lines = math.sqrt(block_weight[f.block] * cluster_weight[f.alternative])
        out.append(Decision(MOVE, p, f.alternative, block=f.block, lines=lines))
    for (a, b), mutual in between.items():
        p = calibration.decision(MERGE, _odds_share(mutual, min(groups[a], groups[b])))
        out.append(Decision(MERGE, p, b, source=a, lines=math.sqrt(cluster_weight[a] * cluster_weight[b])))
    return out


def rank(decisions: list[Decision]) -> list[Decision]:
    return sorted(decisions, key=lambda d: (-d.worth, d.kind, d.block, d.source, d.target, d.blocks))


def _splits(
    fits: list[BlockFit],
    block_weight: dict[int, float],
    within: dict[tuple[int, int], float],
    base: float,
    calibration: "Calibration",
) -> list[Decision]:
    """For each group of several blocks, its best cut in two (average linkage over its blocks,
    run to two clusters), offered as moving the smaller side to a group of its own."""
    members: dict[int, list[int]] = defaultdict(list)
    label_of: dict[int, int] = {}
    for f in fits:
        members[f.label].append(f.block)
        label_of[f.block] = f.label
    linked: dict[int, list[tuple[tuple[int, int], float]]] = defaultdict(list)  # a group's pairs of ``within``
    for pair, gain in within.items():
        linked[label_of[pair[0]]].append((pair, gain))
    out: list[Decision] = []
    for label, group in members.items():
        if not 2 <= len(group) <= SPLIT_BLOCKS:
            continue
        sides = _bisect(group, block_weight, linked[label])
        w = [sum(block_weight[b] for b in side) for side in sides]
        mutual = base + sum(within.get((min(x, y), max(x, y)), 0.0) for x in sides[0] for y in sides[1]) / (w[0] * w[1])
        cohesion = min(_cohesion(side, block_weight, within, base, 1.0 - mutual) for side in sides)
        p = calibration.decision(SPLIT, _odds_share(cohesion, mutual))
        smaller = min(sides, key=lambda side: (sum(block_weight[b] for b in side), side))
        out.append(Decision(SPLIT, p, source=label, blocks=tuple(sorted(smaller)), lines=math.sqrt(w[0] * w[1])))
    return out


def _bisect(
    group: list[int], block_weight: dict[int, float], within: list[tuple[tuple[int, int], float]]
) -> list[list[int]]:
    """Two sides of a group's blocks: average linkage (a missing link counts as none) until two are left.

    The best pair is the highest mean, ties to the lowest pair of positions: ``argmax`` over the
    upper triangle read row by row finds the first of the highest, which is that pair. A merge
    changes only the means of the side it grows (and drops the folded one's): only those are
    worked out again, each by the same expression as at first."""
    ordered = sorted(group)
    sides = [[b] for b in ordered]
    n = len(sides)
    weight = np.array([block_weight[b] for b in ordered], dtype=np.float64)
    total = np.zeros((n, n))
    position = {b: n for n, b in enumerate(ordered)}
    for (x, y), gain in within:  # the group's linked pairs of blocks
        i, j = position.get(x, -1), position.get(y, -1)
        if i >= 0 and j >= 0:
            total[i, j] = total[j, i] = gain
    alive = np.ones(n, dtype=bool)
    mean = np.where(np.triu(np.ones((n, n), dtype=bool), 1), total / np.outer(weight, weight), -np.inf)
    for _ in range(n - 2):
        i, j = divmod(int(np.argmax(mean)), n)
        sides[i] += sides[j]
        weight[i] += weight[j]
        total[i, :] += total[j, :]
        total[:, i] = total[i, :]
        total[i, i] = 0.0
        alive[j] = False
        mean[j, :] = mean[:, j] = -np.inf
        grown = np.where(alive, total[i] / (weight[i] * weight), -np.inf)
        mean[i, i + 1 :], mean[:i, i] = grown[i + 1 :], grown[:i]
    return [sorted(sides[i]) for i in np.flatnonzero(alive).tolist()]


def _cohesion(
    side: list[int], block_weight: dict[int, float], within: dict[tuple[int, int], float], base: float, alone: float
) -> float:
    """Mean pair probability between a side's blocks (``alone`` for a side of one block)."""
    if len(side) < 2:
        return alone
    w = [block_weight[b] for b in side]
    pairs = sum(w[i] * w[j] for i in range(len(side)) for j in range(i + 1, len(side)))
    gain = sum(within.get((x, y), 0.0) for i, x in enumerate(side) for y in side[i + 1 :])
    return base + gain / pairs


def _odds_share(other: float, own: float) -> float:
    """P(the other side is right) when each side's fit is the probability it is."""
    if other <= 0:
        return 0.0
    return other / (other + own) if own + other > 0 else 0.5


# -- reasons -------------------------------------------------------------------------


def link_reason(units: list[Unit], links: list[Link], side: set[int], other: set[int], model: Model) -> str | None:
    """The strongest evidence linking units ``side`` to units ``other``, as a phrase; None when nothing links them."""
    crossing = [x for x in links if (x.a in side and x.b in other) or (x.b in side and x.a in other)]
    if not crossing:
        return None
    reasons = group_reasons(units, crossing, side | other, model)
    return reasons[0] if reasons and reasons[0] not in (ALONE, ONLY) else None


# -- calibration ---------------------------------------------------------------------


@dataclass(frozen=True)
class Calibration:
    """Platt scaling fit held out (``segmint bench untangle --calibrate``): pair log-odds
    ``z`` become ``a * z + b``; a decision's probability ``p`` of each kind becomes
    ``sigmoid(a * logit(p) + b)``, the rate at which a reviewer found it right."""

    pair: tuple[float, float] = (1.0, 0.0)
    decisions: dict[str, tuple[float, float]] = field(default_factory=dict)
    hunks: tuple[float, ...] = (1.0, 0.0)  # a block's P(belongs with its group): ``hunk_signals``

    def blocks(self, fits: list[BlockFit]) -> list[BlockFit]:
        """The fits with each block's confidence scaled by ``hunks``."""
        if self.hunks == (1.0, 0.0):
            return fits
        size = Counter(f.label for f in fits)
        return [replace(f, confidence=_scaled(self.hunks, f.confidence, hunk_signals(f, size[f.label]))) for f in fits]

    def pairs(self, pairs: PairProbabilities) -> PairProbabilities:
        a, b = self.pair
        if (a, b) == (1.0, 0.0):
            return pairs
        return PairProbabilities(a * pairs.base + b, {k: a * v for k, v in pairs.affinity.items()}, pairs.weights)

    def decision(self, kind: str, p: float) -> float:
        return _scaled(self.decisions.get(kind, (1.0, 0.0)), p)

    def to_dict(self) -> dict:
        return {
            "pair": list(self.pair),
            "decisions": {k: list(v) for k, v in sorted(self.decisions.items())},
            "hunks": list(self.hunks),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Calibration":
        a, b = data.get("pair", (1.0, 0.0))
        return cls(
            (float(a), float(b)),
            {k: (float(v[0]), float(v[1])) for k, v in data.get("decisions", {}).items()},
            tuple(float(x) for x in data.get("hunks", (1.0, 0.0))),
        )


def hunk_signals(fit: BlockFit, blocks_in_group: int) -> tuple[float, float]:
    """What a block's scaling reads beside its confidence: how well it fits the group it fits
    best elsewhere (a block that fits nowhere else is likelier where it is, however weakly
    it is tied there) and how many blocks its group holds."""
    return _logit(fit.alternative_probability if fit.alternative is not None else 0.0), math.log(blocks_in_group)


def _scaled(weights: tuple[float, ...], p: float, signals: tuple[float, ...] = ()) -> float:
    """``sigmoid(a * logit(p) + b + c . signals)`` for weights ``a, b, c...``."""
    a, b, *c = weights
    if (a, b) == (1.0, 0.0) and not any(c):
        return p
    return sigmoid(a * _logit(p) + b + sum(x * y for x, y in zip(c, signals)))


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


IDENTITY = Calibration()
SHIPPED = Path(__file__).with_name("calibration.json")


@cache
def shipped() -> Calibration:
    """The calibration fit on all seven histories (``calibration.json``; none when it is missing)."""
    try:
        return Calibration.from_dict(json.loads(SHIPPED.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, KeyError, IndexError):
        return IDENTITY
