"""The pair model's boosted trees: what they add, how they are stored, how they are fit."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from segmint_bench.models import read_model
from segmint_bench.untangle.boosting import Boosting, fit_rows
from segmint_bench.untangle.fit import with_trees
from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import graph
from segmint_bench.models.boosted import Trees, feature_matrix
from segmint_core.grouping.engine import cluster, evidence
from segmint_core.grouping.model import DEFAULT, MODEL_FILE, Model, load_model
from segmint_core.grouping.pair_evidence import pair_evidence
from segmint_core.grouping.units import build_units
from tests.grouping.scenarios import two_intents
from tests.bench.test_untangle import history, merged_history
from tests.support.cli import run_segmint
from tests.support.repo import Repo

NAMES = ["link:similar", "flavour:code"]


def interaction_rows(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Similar text joins two code units and tells any other pair apart, which otherwise
    share an intent: an exclusive or, which no weighted sum of the two features separates."""
    rng = np.random.default_rng(seed)
    similar = (rng.random(400) < 0.5).astype(float) * rng.uniform(0.3, 1.0, 400)
    code = rng.integers(0, 3, 400).astype(float)
    same = ((similar > 0) == (code == 2)).astype(float)
    return np.column_stack([similar, code]), same


def naive_score(trees: Trees, matrix: np.ndarray) -> np.ndarray:
    out = np.zeros(len(matrix))
    for features, thresholds, values in zip(trees.features, trees.thresholds, trees.values):
        leaf = sum((matrix[:, f] > t).astype(int) << d for d, (f, t) in enumerate(zip(features, thresholds)))
        out += values[leaf]
    return out


def test_trees_learn_an_interaction_a_linear_model_cannot_express() -> None:
    matrix, same = interaction_rows()
    weight = np.full(len(same), 1 / 40)  # ten cases' weight
    trees = fit_rows(
        NAMES, matrix, same, weight, np.zeros(len(same)), Boosting(trees=60, depth=2, rate=0.3, min_leaf=0.5)
    )
    odds = trees.score(np.array([[0.8, 2.0], [0.0, 1.0], [0.0, 0.0], [0.8, 1.0], [0.8, 0.0], [0.0, 2.0]]))
    assert all(o > 2.0 for o in odds[:3]) and all(o < -2.0 for o in odds[3:])


def test_fitting_is_deterministic_and_the_data_round_trips() -> None:
    matrix, same = interaction_rows(1)
    weight = np.full(len(same), 1 / 40)
    fit = lambda: fit_rows(NAMES, matrix, same, weight, np.zeros(len(same)), Boosting(trees=20, depth=3))  # noqa: E731
    first, second = fit(), fit()
    assert first.to_dict() == second.to_dict()
    again = Trees.from_dict(first.to_dict())
    assert np.allclose(again.score(matrix), first.score(matrix), atol=1e-4)


def test_scoring_each_outcome_once_equals_walking_every_tree() -> None:
    matrix, same = interaction_rows(2)
    trees = fit_rows(NAMES, matrix, same, np.full(len(same), 1 / 40), np.zeros(len(same)), Boosting(trees=15, depth=3))
    rows = np.random.default_rng(3).uniform(0, 2, (300, 2))
    assert np.allclose(trees.score(rows), naive_score(trees, rows))
    assert trees.score(np.zeros((0, 2))).shape == (0,)


def test_trees_add_to_linked_pairs_and_leave_the_unlinked_odds_where_the_bias_says(repo: Repo) -> None:
    changes = capture(Git(two_intents(repo).path))
    units = build_units(changes.changes)
    links = evidence(units)
    matrix, same = interaction_rows()
    trees = fit_rows(NAMES, matrix, same, np.full(len(same), 1 / 40), np.zeros(len(same)), Boosting(trees=10, depth=2))
    linear = replace(DEFAULT, trees=None)
    boosted = with_trees(linear, trees)
    plain, lifted = graph.affinities(links, units, linear), graph.affinities(links, units, boosted)
    assert plain.keys() == lifted.keys()
    pairs = pair_evidence(links, len(units))
    extra = trees.score(feature_matrix(pairs, units, trees.names)) - trees.zero
    for (a, b), more in zip(zip(pairs.a.tolist(), pairs.b.tolist()), extra.tolist()):
        assert lifted[(a, b)] == pytest.approx(plain[(a, b)] + more)
    # an unlinked pair's log-odds, -threshold, is the bias plus the trees' value for no link
    assert -boosted.threshold(3) == pytest.approx(-linear.threshold(3) + trees.zero)
    assert len(cluster(units, links, boosted, len(changes.changes))) == len(units)


def test_the_shipped_model_loads_and_saves_the_same() -> None:
    model = load_model(MODEL_FILE)
    assert isinstance(model, Model) and Model.from_dict(model.to_dict()).to_dict() == model.to_dict()
    if model.trees is not None:
        assert set(model.trees.names) and len(model.trees.values) == len(model.trees.features)


def test_bench_fit_writes_trees_the_engine_loads_and_leave_one_out_scores_them(repo: Repo, tmp_path) -> None:
    history(repo)
    other = merged_history(Repo(tmp_path / "other"))
    out, cache = tmp_path / "model.json", str(tmp_path / "cache")
    result = run_segmint(
        "bench",
        "fit",
        str(repo.path),
        str(other.path),
        "--k",
        "2",
        "--n",
        "3",
        "--cache",
        cache,
        "--trees",
        "4",
        "--depth",
        "2",
        "--out",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    assert "and 4 trees" in result.stdout
    model = read_model(json.loads(out.read_text()))
    assert model.trees is not None and model.trees.features.shape == (4, 2)
    table = run_segmint(
        "bench",
        "untangle",
        "--leave-one-out",
        str(repo.path),
        str(other.path),
        "--k",
        "2",
        "--n",
        "3",
        "--cache",
        cache,
        "--trees",
        "3",
    )
    assert table.returncode == 0, table.stderr
    for row in ("graph, 3 trees of depth 3 at 0.1", "graph, 3 trees of depth 3 at 0.1 - graph"):
        assert f"\n{row} " in table.stdout, row
    bad = run_segmint("bench", "fit", str(repo.path), "--trees", "3", "--depth", "0")
    assert bad.returncode == 2 and "--depth 1 to 8" in bad.stderr
    alone = run_segmint("bench", "untangle", str(repo.path), "--trees", "3")
    assert alone.returncode == 2 and "--leave-one-out" in alone.stderr
