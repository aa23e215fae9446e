"""The merge model's clustering: decisions, refusals, what a decision reads, and the shipped model."""

from __future__ import annotations

import math
from dataclasses import replace

from segmint_bench.models import V1, read_model
from segmint_bench.models.merging import Agglomeration, MergeModel, agglomerate, link_masks
from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import graph
from segmint_core.grouping.engine import cluster, evidence
from segmint_core.grouping.links import Link
from segmint_core.grouping.model import DEFAULT, Model
from segmint_core.grouping.units import build_units
from tests.grouping.scenarios import two_intents
from tests.support.repo import Repo


def units_of(repo: Repo):
    changes = capture(Git.discover(repo.path))
    units = build_units(changes.changes)
    return changes, units, evidence(units)


def chain(repo: Repo) -> Repo:
    """Four edits far apart in four files, so each is one unit."""
    for name in "abcd":
        repo.write(f"{name}.py", "".join(f"line_{n} = {n}\n" for n in range(30)))
    repo.commit("init")
    for name in "abcd":
        repo.write(f"{name}.py", "".join(f"line_{n} = {n}\n" for n in range(29)) + f"line_29 = '{name}'\n")
    return repo


def test_each_candidate_is_decided_best_first_and_a_refused_pair_returns_when_a_cluster_grows(repo: Repo) -> None:
    _, units, _ = units_of(chain(repo))
    affinity = {(0, 1): 3.0, (1, 2): 2.0, (0, 2): 1.0, (2, 3): 0.5}
    seen: list[tuple[list[int], list[int], bool]] = []

    def decide(values: dict[str, float]) -> bool:
        return len(seen) != 1  # the second candidate is refused

    def observe(values, a, b, merged) -> None:
        seen.append((sorted(a), sorted(b), merged))

    labels = Agglomeration(units, affinity, [1.0] * 4, [], (), 4, decide, observe).run()
    # (0,1) merges; (1,2) then means 2.0+1.0 over two pairs -> 1.5 with {0,1}: refused;
    # (2,3) next; once {2,3} exists the pair with {0,1} is new and is asked again.
    assert seen[0] == ([0], [1], True)
    assert seen[1] == ([0, 1], [2], False)
    assert seen[2] == ([2], [3], True)
    assert seen[3] == ([0, 1], [2, 3], True)
    assert labels == [0, 0, 0, 0]


def test_a_decision_reads_the_two_clusters_and_the_links_between_them(repo: Repo) -> None:
    _, units, _ = units_of(chain(repo))
    links = [Link(0, 1, 1.0, "shared", "x"), Link(0, 1, 1.0, "similar", "0.9")]
    values = {}

    def decide(v: dict[str, float]) -> bool:
        values.update(v)
        return False

    Agglomeration(units, {(0, 1): 2.0}, [2.0, 1.0, 1.0, 1.0], links, ("shared", "similar", "def_use"), 4, decide).run()
    assert values["mean"] == 2.0 and values["max"] == 2.0 and values["linked"] == 1.0
    assert values["link:shared"] == 1.0 and values["link:similar"] == 1.0 and values["link:def_use"] == 0.0
    assert values["shared_file"] == 0.0 and values["files_max"] == 1.0 and values["only_code"] == 2.0
    assert values["case_files"] == math.log(4) and values["small"] == 0.0 and values["large"] == math.log(2)
    assert link_masks(links, ("shared", "similar")) == {(0, 1): 3}


def test_a_merge_model_merges_at_its_threshold(repo: Repo) -> None:
    _, units, _ = units_of(chain(repo))
    affinity = {(0, 1): 3.0, (2, 3): 0.5}
    model = MergeModel(("mean",), (0.0,), (1.0,), (1.0,), 0.0, 0.9, ())  # P = sigmoid(mean)
    assert agglomerate(units, affinity, [1.0] * 4, [], 4, model) == [0, 0, 2, 3]  # sigmoid(3) > 0.9 > sigmoid(0.5)
    assert agglomerate(units, affinity, [1.0] * 4, [], 4, model, together=[(2, 3)]) == [0, 0, 2, 2]
    again = MergeModel.from_dict(model.to_dict())
    assert again == model


def test_the_shipped_model_is_read_from_data_and_merges_by_its_threshold(repo: Repo) -> None:
    assert DEFAULT.merge is None and V1.merge is None and DEFAULT != V1
    assert V1.threshold(1) == 4.35 and V1.coefficient("kinds:changelog+changelog") == 0.0  # v1, the baseline
    assert Model.from_dict(DEFAULT.to_dict()) == DEFAULT
    changes, units, links = units_of(two_intents(repo))
    files = len(changes.changes)
    weights = [float(max(1, u.size)) for u in units]
    together = graph.mechanical_pairs(links)
    assert cluster(units, links, DEFAULT, files) == graph.average_linkage(
        len(units), graph.affinities(links, units, DEFAULT), DEFAULT.threshold(files), weights, together=together
    )


def test_a_model_with_a_merge_model_clusters_by_its_decisions(repo: Repo) -> None:
    changes, units, links = units_of(two_intents(repo))
    files = len(changes.changes)
    merge = MergeModel(("mean",), (0.0,), (1.0,), (1.0,), 0.0, 0.5, ())  # merge while the mean link is positive
    model = replace(DEFAULT, merge=merge)
    weights = [float(max(1, u.size)) for u in units]
    affinity = graph.affinities(links, units, model)
    labels = cluster(units, links, model, files)
    assert labels == agglomerate(units, affinity, weights, links, files, merge, graph.mechanical_pairs(links))
    assert read_model(model.to_dict()) == model
