"""Confidence per block and group, and the ranked decisions, from the pair model."""

from __future__ import annotations

import math

import pytest

from segmint_core.grouping.confidence import (
    IDENTITY,
    MERGE,
    MOVE,
    SPLIT,
    Calibration,
    assess,
    link_reason,
    shipped,
)
from segmint_core.grouping.probability import PairProbabilities, sigmoid
from segmint_core.grouping.links import Link
from segmint_core.grouping.units import build_units
from segmint_core.grouping.model import DEFAULT


def test_a_block_that_fits_another_group_as_well_is_offered_the_move() -> None:
    # units 0,1 in cluster 0, units 2,3 in cluster 2; unit 1 links to 2 and 3 as strongly as to 0
    pairs = PairProbabilities(-2.0, {(0, 1): 2.5, (1, 2): 2.5, (1, 3): 2.5, (2, 3): 4.0}, [1.0] * 4)
    found = assess(pairs, [0, 0, 2, 2], [0, 1, 2, 3])
    fit = found.blocks[1]
    assert fit.confidence == pytest.approx(sigmoid(0.5))
    assert fit.alternative == 2 and fit.alternative_probability == pytest.approx(sigmoid(0.5))
    move = next(d for d in found.decisions if d.kind == MOVE and d.block == 1)
    assert move.target == 2 and move.probability == pytest.approx(0.5)
    assert found.decisions == sorted(found.decisions, key=lambda d: -d.worth)


def test_a_block_leaves_its_own_units_out_of_its_fit() -> None:
    # units 0 and 1 form one block (one hunk): their strong link says nothing about the group
    pairs = PairProbabilities(-3.0, {(0, 1): 9.0, (1, 2): 3.0}, [1.0] * 3)
    fits = assess(pairs, [0, 0, 0], [0, 0, 1]).blocks
    assert fits[0].confidence == pytest.approx((sigmoid(-3.0) + sigmoid(0.0)) / 2)


def test_two_groups_linked_as_strongly_as_within_are_offered_a_merge_and_a_mixed_group_a_split() -> None:
    strong = {(0, 1): 4.0, (2, 3): 4.0, (0, 2): 4.0, (1, 3): 4.0, (0, 3): 4.0, (1, 2): 4.0}
    merge = assess(PairProbabilities(-2.0, strong, [1.0] * 4), [0, 0, 2, 2], [0, 1, 2, 3]).decisions
    assert any(d.kind == MERGE and {d.source, d.target} == {0, 2} for d in merge)
    mixed = {(0, 1): 5.0, (2, 3): 5.0}
    split = assess(PairProbabilities(-2.0, mixed, [1.0] * 4), [0] * 4, [0, 1, 2, 3]).decisions
    first = split[0]
    assert first.kind == SPLIT and set(first.blocks) in ({0, 1}, {2, 3}) and first.probability > 0.5


def test_group_confidence_is_the_line_weighted_mean_of_its_blocks() -> None:
    pairs = PairProbabilities(-1.0, {(0, 1): 3.0, (0, 2): 1.0}, [1.0, 2.0, 3.0])
    found = assess(pairs, [0, 0, 0], [0, 1, 2])
    expected = sum(w * f.confidence for w, f in zip([1.0, 2.0, 3.0], found.blocks)) / 6
    assert found.groups[0] == pytest.approx(expected)


def test_calibration_scales_pair_log_odds_and_decisions_and_round_trips() -> None:
    cal = Calibration((0.5, -1.0), {MOVE: (1.0, -2.0)})
    pairs = cal.pairs(PairProbabilities(-2.0, {(0, 1): 4.0}, [1.0, 1.0]))
    assert pairs.base == pytest.approx(-2.0) and pairs.affinity[(0, 1)] == pytest.approx(2.0)
    assert cal.decision(MOVE, 0.5) == pytest.approx(sigmoid(-2.0))
    assert cal.decision(MERGE, 0.3) == pytest.approx(0.3)
    assert Calibration.from_dict(cal.to_dict()) == cal
    assert IDENTITY.pairs(pairs) is pairs
    assert isinstance(shipped(), Calibration)


def test_a_hunks_confidence_is_scaled_by_how_well_it_fits_elsewhere_and_its_decisions_are_not() -> None:
    # unit 1 is weakly tied to its group and fits nowhere else: more likely where it is than its fit says
    pairs = PairProbabilities(-2.0, {(0, 1): 0.5, (0, 2): 4.0, (3, 4): 4.0}, [1.0] * 5)
    plain = assess(pairs, [0, 0, 0, 3, 3], [0, 1, 2, 3, 4])
    cal = Calibration(hunks=(1.0, 0.0, -0.5, 0.0))  # the worse it fits elsewhere, the likelier it belongs
    scaled = assess(pairs, [0, 0, 0, 3, 3], [0, 1, 2, 3, 4], cal)
    fit = plain.blocks[1]
    expected = sigmoid(
        math.log(fit.confidence / (1 - fit.confidence))
        - 0.5 * math.log(fit.alternative_probability / (1 - fit.alternative_probability))
    )
    assert scaled.blocks[1].confidence == pytest.approx(expected) and expected > fit.confidence
    assert scaled.groups[0] == pytest.approx(sum(f.confidence for f in scaled.blocks[:3]) / 3)
    assert scaled.decisions == plain.decisions
    assert Calibration.from_dict(cal.to_dict()) == cal
    assert Calibration.from_dict({"pair": [1.0, 0.0]}).hunks == (1.0, 0.0)  # a calibration from before


def test_a_reason_names_the_evidence_between_the_two_sides() -> None:
    from segmint_core.changes.models import Change, Hunk

    def change(n: int, path: str, lines: list[str]) -> Change:
        hunk = Hunk(f"change-{n}:1", 1, 1, 1, 1, "@@ -1,1 +1,1 @@", lines)
        return Change(f"change-{n}", path, None, "modified", False, [hunk])

    units = build_units(
        [
            change(1, "a.py", ["-x = parse_config(1)", "+x = parse_config(2)"]),
            change(2, "b.py", ["-y = parse_config(3)", "+y = parse_config(4)"]),
        ]
    )
    links = [Link(0, 1, 1.0, "shared", "parse_config")]
    assert "parse_config" in (link_reason(units, links, {0}, {1}, DEFAULT) or "")
    assert link_reason(units, [], {0}, {1}, DEFAULT) is None


def test_the_review_oracle_only_looks_at_decisions_a_person_is_shown() -> None:
    from segmint_bench.untangle.review import _next
    from segmint_core.grouping.confidence import LISTED, Decision

    hidden, shown = Decision(MOVE, LISTED / 2, 1, block=0), Decision(MERGE, LISTED, 2, source=1)
    seen: set = set()
    assert _next([hidden, shown], seen) is shown
    assert _next([hidden, shown], seen) is None


def test_a_logistic_fit_with_signals_finds_the_weights_that_made_the_outcomes() -> None:
    import numpy as np

    from segmint_bench.untangle.calibration import fit_logistic

    rng = np.random.default_rng(7)
    x = rng.normal(size=(20_000, 3))
    y = (rng.random(20_000) < 1 / (1 + np.exp(-(0.5 * x[:, 0] + 0.3 - 1.2 * x[:, 1] + 0.8 * x[:, 2])))).astype(float)
    a, b, c1, c2 = fit_logistic(x, y, np.ones(len(y)), l2=1e-6)
    assert (a, b, c1, c2) == pytest.approx((0.5, 0.3, -1.2, 0.8), abs=0.06)
