"""P(same intent) from the pair model: for two units, and for a unit against a cluster.

A pair's log-odds is the log-odds of two units with no link in a change set
of that many files (``bias + size_prior * ln(min(files, 5))``) plus the
affinity of its links (``graph.affinities``). The pair model is fit on cases
holding one, two and three intents alike, so these are the probabilities of
such trees. A unit against a cluster is the line-weighted mean of its pair
probabilities with the cluster's units, a missing link counting as the
no-link probability: the quantity average linkage ranks merges by, as a
probability. ``memberships`` gives, for every unit of a grouping, how well it
sits in its own cluster and which other cluster it would fit best.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from segmint_core.grouping import graph
from segmint_core.grouping.model import Model
from segmint_core.grouping.links import Link
from segmint_core.grouping.units import Unit


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z > -500 else 0.0


@dataclass(frozen=True)
class PairProbabilities:
    """The pair model over one change set's units."""

    base: float  # log-odds of two units with no link
    affinity: dict[tuple[int, int], float]  # linked pairs (a < b): log-odds above ``base``
    weights: list[float]  # changed lines per unit (at least 1)

    def log_odds(self, a: int, b: int) -> float:
        return self.base + self.affinity.get((a, b) if a < b else (b, a), 0.0)

    def probability(self, a: int, b: int) -> float:
        """P(units ``a`` and ``b`` share an intent)."""
        return sigmoid(self.log_odds(a, b))

    def with_cluster(self, unit: int, members: list[int]) -> float:
        """P(``unit`` shares the intent of the cluster ``members``): the line-weighted
        mean of its pair probabilities with them (``unit`` itself left out)."""
        others = [m for m in members if m != unit]
        if not others:
            return math.nan
        total = sum(self.weights[m] for m in others)
        return sum(self.weights[m] * self.probability(unit, m) for m in others) / total


def pair_probabilities(units: list[Unit], links: list[Link], model: Model, files: int) -> PairProbabilities:
    return PairProbabilities(
        -model.threshold(files), graph.affinities(links, units, model), [float(max(1, u.size)) for u in units]
    )


@dataclass(frozen=True)
class Membership:
    """How one unit sits in a grouping."""

    unit: int
    own: float  # P(with its own cluster); for a unit alone, P(with none of the others)
    alternative: int | None  # the label of the other cluster it fits best (None: no other cluster)
    alternative_probability: float


def memberships(pairs: PairProbabilities, labels: list[int]) -> list[Membership]:
    """For every unit, P(with its own cluster) and the best other cluster, in one pass over the links.

    Unlinked units of a cluster count at the no-link probability, so only
    linked pairs are visited: cost follows the number of links.
    """
    weight_of: dict[int, float] = defaultdict(float)
    for unit, label in enumerate(labels):
        weight_of[label] += pairs.weights[unit]
    base = sigmoid(pairs.base)
    # Per unit and cluster: the summed weight * (p - base) over linked members.
    lifted: list[dict[int, float]] = [defaultdict(float) for _ in labels]
    for (a, b), affinity in pairs.affinity.items():
        gain = sigmoid(pairs.base + affinity) - base
        lifted[a][labels[b]] += pairs.weights[b] * gain
        lifted[b][labels[a]] += pairs.weights[a] * gain
    clusters = sorted(weight_of)
    out: list[Membership] = []
    for unit, label in enumerate(labels):

        def mean_with(cluster: int) -> float:
            total = weight_of[cluster] - (pairs.weights[unit] if cluster == label else 0.0)
            return base + lifted[unit].get(cluster, 0.0) / total if total > 0 else math.nan

        linked = sorted((c for c in lifted[unit] if c != label), key=lambda c: (-mean_with(c), c))
        alternative = linked[0] if linked else None
        if alternative is None or mean_with(alternative) < base:
            # a cluster it has no link with scores the no-link probability
            unlinked = next((c for c in clusters if c != label and c not in lifted[unit]), None)
            if unlinked is not None:
                alternative = unlinked
        other = mean_with(alternative) if alternative is not None else 0.0
        own = mean_with(label)
        out.append(Membership(unit, 1.0 - other if math.isnan(own) else own, alternative, other))
    return out
