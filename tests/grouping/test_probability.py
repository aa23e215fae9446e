"""P(same intent) from the pair model, for unit pairs and for a unit against a cluster."""

from __future__ import annotations

import math

import pytest

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping.engine import cluster, evidence
from segmint_core.grouping.model import DEFAULT
from segmint_core.grouping.probability import PairProbabilities, memberships, pair_probabilities, sigmoid
from segmint_core.grouping.units import build_units
from tests.grouping.scenarios import two_intents
from tests.support.repo import Repo


def test_a_pair_is_the_no_link_odds_plus_its_links() -> None:
    pairs = PairProbabilities(-2.0, {(0, 1): 3.0}, [1.0, 1.0, 2.0])
    assert pairs.probability(0, 1) == pairs.probability(1, 0) == pytest.approx(sigmoid(1.0))
    assert pairs.probability(0, 2) == pytest.approx(sigmoid(-2.0))
    # against a cluster: line-weighted mean over its members
    assert pairs.with_cluster(0, [0, 1, 2]) == pytest.approx((sigmoid(1.0) + 2 * sigmoid(-2.0)) / 3)
    assert math.isnan(pairs.with_cluster(0, [0]))


def test_memberships_match_the_mean_over_each_cluster() -> None:
    pairs = PairProbabilities(-1.5, {(0, 1): 4.0, (1, 2): 1.0, (2, 3): 2.5, (0, 3): 0.2}, [1.0, 2.0, 3.0, 1.0, 5.0])
    labels = [0, 0, 2, 2, 4]
    members = {0: [0, 1], 2: [2, 3], 4: [4]}
    for m in memberships(pairs, labels):
        own = members[labels[m.unit]]
        if len(own) > 1:
            assert m.own == pytest.approx(pairs.with_cluster(m.unit, own))
        others = {c: pairs.with_cluster(m.unit, ms) for c, ms in members.items() if c != labels[m.unit]}
        best = max(others.values())
        assert m.alternative_probability == pytest.approx(best)
        assert others[m.alternative] == pytest.approx(best)
    alone = memberships(pairs, labels)[4]
    assert alone.own == pytest.approx(1 - alone.alternative_probability)


def test_units_of_one_intent_sit_better_with_each_other_than_with_the_other_intent(repo: Repo) -> None:
    changes = capture(Git.discover(two_intents(repo).path))
    units = build_units(changes.changes)
    links = evidence(units)
    pairs = pair_probabilities(units, links, DEFAULT, len(changes.changes))
    labels = cluster(units, links, DEFAULT, len(changes.changes))
    for m in memberships(pairs, labels):
        assert 0.0 <= m.own <= 1.0 and 0.0 <= m.alternative_probability <= 1.0
    strong = max(pairs.affinity, key=pairs.affinity.get)
    assert pairs.probability(*strong) > sigmoid(pairs.base)
