"""The whole dendrogram, its levels, their ARI, and a cut model's choice among them."""

from __future__ import annotations

from collections import Counter

import numpy as np

from segmint_bench.untangle.cuts import level_ari
from segmint_bench.untangle.metrics import adjusted_rand_index
from segmint_bench.untangle import cutting
from segmint_bench.untangle.cutting import CutModel
from segmint_core.grouping import graph
from segmint_core.grouping.model import DEFAULT
from tests.grouping.scenarios import two_intents
from tests.bench.test_merging import units_of
from tests.support.repo import Repo

PATHS = ["a.py", "a.py", "b.py", "c.py"]


def test_the_dendrogram_cut_where_merges_fall_below_a_threshold_is_average_linkage_at_it(repo: Repo) -> None:
    changes, units, links = units_of(two_intents(repo))
    files = len(changes.changes)
    affinity = graph.affinities(links, units, DEFAULT)
    weights = [float(max(1, u.size)) for u in units]
    together = graph.mechanical_pairs(links)
    found = cutting.levels([u.path for u in units], affinity, weights, together, files, DEFAULT.threshold(files))
    following = found.rows[:, found.names.index("next")]
    for threshold in (-1.0, 0.0, 0.5, 1.0, 2.0, DEFAULT.threshold(files), 5.0):
        level = int(np.argmax(following < threshold))
        assert found.labels(level) == graph.average_linkage(len(units), affinity, threshold, weights, together)


def test_clusters_never_linked_join_last_so_one_group_is_a_level() -> None:
    found = cutting.levels(PATHS, {(0, 1): 3.0, (2, 3): 0.5}, [1.0] * 4, [], 4, 1.0)
    assert found.merges == [(0, 1), (2, 3), (0, 2)]
    assert [found.labels(t) for t in range(4)] == [[0, 1, 2, 3], [0, 0, 2, 3], [0, 0, 2, 2], [0, 0, 0, 0]]
    column = dict(zip(found.names, found.rows.T))
    assert column["next"].tolist() == [3.0, 0.5, 0.0, -cutting.CAP]
    assert column["groups"].tolist() == np.log([4, 3, 2, 1]).tolist()
    assert np.allclose(column["split_files"], [1 / 3, 0.0, 0.0, 0.0])  # a.py in two groups until (0, 1)
    assert column["next_joins_file"].tolist() == [1.0, 0.0, 0.0, 0.0]


def test_pairs_joined_first_are_one_cluster_at_every_level() -> None:
    found = cutting.levels(PATHS, {(0, 1): 3.0}, [1.0] * 4, [(2, 3)], 4, 1.0)
    assert found.labels(0) == [0, 1, 2, 2] and found.labels(len(found.merges)) == [0, 0, 0, 0]


def test_each_level_is_scored_by_the_ari_over_its_units_lines() -> None:
    found = cutting.levels(PATHS, {(0, 1): 3.0, (1, 2): 1.0, (2, 3): 0.5}, [1.0] * 4, [], 4, 1.0)
    votes = [Counter({"x": 3}), Counter({"x": 2, "y": 1}), Counter({"y": 4}), Counter()]
    lines = [commit for v in votes for commit, n in sorted(v.items()) for _ in range(n)]
    owner = [unit for unit, v in enumerate(votes) for commit, n in sorted(v.items()) for _ in range(n)]
    expected = [adjusted_rand_index(lines, [found.labels(t)[u] for u in owner]) for t in range(len(found.merges) + 1)]
    assert np.allclose(level_ari(found, votes), expected)


def test_a_cut_model_picks_the_level_it_scores_best_and_the_fewest_merges_on_a_tie() -> None:
    affinity = {(0, 1): 3.0, (2, 3): 0.5}
    fewer = CutModel(("groups",), (0.0,), (1.0,), (1.0,))  # more groups score higher
    assert cutting.cut(PATHS, affinity, [1.0] * 4, [], 4, 1.0, fewer) == [0, 1, 2, 3]
    one = CutModel(("one_group",), (0.0,), (1.0,), (2.0,))
    assert cutting.cut(PATHS, affinity, [1.0] * 4, [], 4, 1.0, one) == [0, 0, 0, 0]
    flat = CutModel(("unknown",), (0.0,), (1.0,), (1.0,))
    assert cutting.cut(PATHS, affinity, [1.0] * 4, [], 4, 1.0, flat) == [0, 1, 2, 3]
    assert CutModel.from_dict(one.to_dict()) == one
