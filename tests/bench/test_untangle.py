"""``segmint bench untangle``: scores, case picking, blame truth, and the command on small histories."""

from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pytest

from segmint_bench.models import read_model
from segmint_bench.untangle.cases import candidate_cases, read_history
from segmint_bench.untangle.metrics import (
    adjusted_rand_index,
    matched_accuracy,
    max_weight_matching,
    rand_index,
    score,
)
from segmint_bench.untangle.cache import Cache, source_hash
from segmint_bench.untangle.corpus import Selection, tangles
from segmint_bench.untangle.features import Sample, case_evidence, load_samples
from segmint_bench.untangle.runner import METHODS, run_case
from segmint_bench.untangle.workspace import Workspace
from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import group_changes
from tests.conftest import shared_data
from tests.support.cli import run_segmint
from tests.support.repo import Repo


def test_scores_match_known_values() -> None:
    truth, predicted = [0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2]
    assert adjusted_rand_index(truth, predicted) == pytest.approx(0.242424, abs=1e-6)  # as scikit-learn
    assert rand_index(truth, predicted) == pytest.approx(10 / 15)
    assert matched_accuracy(truth, predicted) == pytest.approx(4 / 6)
    assert adjusted_rand_index([1, 1, 2, 2], ["a", "a", "b", "b"]) == 1.0
    assert adjusted_rand_index([1, 1, 2, 2], [0, 0, 0, 0]) == 0.0
    assert score([1, 1, 2], [5, 5, 6]).exact and not score([1, 1, 2], [5, 6, 6]).exact


def test_hungarian_matching_is_optimal() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        rows = int(rng.integers(1, 4))
        weights = rng.integers(0, 9, size=(rows, int(rng.integers(rows, 6))))
        best = max(
            sum(weights[r, c] for r, c in enumerate(p)) for p in itertools.permutations(range(weights.shape[1]), rows)
        )
        chosen = max_weight_matching(weights)
        assert len(set(chosen)) == rows and sum(weights[r, c] for r, c in enumerate(chosen)) == best


def history(repo: Repo) -> Repo:
    """Two intents committed one after the other by one author, then an unrelated big commit."""
    repo.write("calc.py", "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n")
    repo.write("README.md", "# Calc\n\nAdds numbers.\n")
    repo.write("table.py", "".join(f"value_{n} = compute_value({n})\n" for n in range(60)))  # text to edit
    repo.commit("init")
    repo.write("calc.py", "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b - 0\n")
    repo.write("test_calc.py", "from calc import sub\n\n\ndef test_sub():\n    assert sub(3, 1) == 2\n")
    repo.commit("fix sub")
    repo.write("README.md", "# Calc\n\nAdds and subtracts numbers.\n")
    repo.delete("test_calc.py")
    repo.commit("docs, and drop the test")
    return repo


def test_cases_chain_eligible_commits_and_truth_comes_from_blame(repo: Repo) -> None:
    history(repo)
    commits = read_history(Git(repo.path))
    cases = candidate_cases(commits, 2)
    assert len(cases) == 1 and len(cases[0].commits) == 2
    with Workspace(str(repo.path)) as workspace:
        ((_, tangle),) = list(tangles(workspace, Selection(2, 5)))
    result = run_case(Sample("repo", 2, tangle, *case_evidence(tangle)))
    by_path = {}
    for (hunk_id, _index), commit in tangle.truth.items():
        path = tangle.changes.change_of(hunk_id).file_path
        by_path.setdefault(path, set()).add(commit)
    assert by_path == {"calc.py": {0}, "README.md": {1}}  # the test file came and went: no line
    assert result.scores["ceiling: hunks"].ari == 1.0 and result.scores["all-in-one"].ari == 0.0
    assert repo.git("status", "--porcelain") == ""  # the benchmarked repository is untouched


def test_a_clone_of_a_bundle_with_no_checkout_is_benchmarked(repo: Repo, tmp_path) -> None:
    # `git clone x.bundle` whose HEAD names no branch leaves only refs/remotes and an unborn HEAD.
    history(repo)
    repo.git("branch", "-m", "main")
    bundle = tmp_path / "h.bundle"
    repo.git("bundle", "create", str(bundle), "main")
    clone = tmp_path / "clone"
    Git(str(tmp_path)).run("clone", "--quiet", "--no-checkout", str(bundle), str(clone))
    Git(str(clone)).run("symbolic-ref", "HEAD", "refs/heads/unborn")
    result = run_segmint("bench", "untangle", str(clone), "--n", "1", "--synthetic-hunks", "0", "--no-cache")
    assert result.returncode == 0, result.stderr
    assert "1 case of k=2" in result.stdout


def test_the_command_prints_the_table_and_timing(repo: Repo) -> None:
    history(repo)
    result = run_segmint("bench", "untangle", str(repo.path), "--k", "2", "--n", "3", "--synthetic-hunks", "4")
    assert result.returncode == 0, result.stderr
    for method in METHODS:
        assert method in result.stdout
    assert "synthetic 4 hunks" in result.stdout and "CPU " in result.stdout
    assert "case 1/1" in result.stderr and " s (per-file" in result.stderr


def test_bad_dates_and_empty_histories_are_clear_errors(repo: Repo) -> None:
    history(repo)
    bad = run_segmint("bench", "untangle", str(repo.path), "--since", "yesterday")
    assert bad.returncode == 2 and "YYYY-MM-DD" in bad.stderr
    none = run_segmint("bench", "untangle", str(repo.path), "--k", "3", "--synthetic-hunks", "0")
    assert none.returncode == 2 and "No case of 3 consecutive commits" in none.stderr
    negative = run_segmint("bench", "untangle", str(repo.path), "--synthetic-hunks", "-5")
    assert negative.returncode == 2 and "--synthetic-hunks takes a number of hunks, 0 or more" in negative.stderr


@pytest.mark.slow
def test_smoke_on_a_real_history_bundle() -> None:
    bundle = shared_data("click.bundle")
    result = run_segmint("bench", "untangle", str(bundle), "--n", "3", "--synthetic-hunks", "100", timeout=300)
    assert result.returncode == 0, result.stderr
    assert "3 cases of k=2" in result.stdout


def test_fit_writes_a_model_the_engine_loads_and_groups_with(repo: Repo, tmp_path) -> None:
    history(repo)
    other = merged_history(Repo(tmp_path / "other"))
    out = tmp_path / "model.json"
    result = run_segmint(
        "bench",
        "fit",
        str(repo.path),
        str(other.path),
        "--k",
        "1",
        "2",
        "--n",
        "3",
        "--cache",
        str(tmp_path / "cache"),
        "--out",
        str(out),
        "--merge-threshold",
        "0.6",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"wrote {out}: pair model of ") and "fitting on 8 cases" in result.stderr
    data = json.loads(out.read_text())
    assert data["fitted_on"]["repos"] == ["repo", "other"] and data["fitted_on"]["k"] == [1, 2]
    model = read_model(data)
    assert model.merge is not None and model.merge.features and model.coefficients
    changes = capture(Git(repo.path))
    assert group_changes(changes, timeline=None, model=model).groups == []  # a clean tree: nothing to group
    printed = run_segmint("bench", "fit", str(repo.path), "--k", "2", "--n", "3", "--cache", str(tmp_path / "cache"))
    assert printed.returncode == 0 and json.loads(printed.stdout)["pair"]["coefficients"]
    assert "merge" not in json.loads(printed.stdout)  # the merge model only when asked
    empty = run_segmint("bench", "fit", str(repo.path), "--k", "3", "--no-cache")
    assert empty.returncode == 2 and "No tangled cases" in empty.stderr
    bad = run_segmint("bench", "fit", str(repo.path), "--merge-threshold", "2")
    assert bad.returncode == 2 and "between 0 and 1" in bad.stderr


def test_fit_one_intent_prints_a_gate_the_engine_loads_and_says_when_it_cannot(repo: Repo, tmp_path) -> None:
    from segmint_core.grouping.one_intent import FEATURES, OneIntent

    history(repo)
    other = merged_history(Repo(tmp_path / "other"))
    args = ["bench", "fit", str(repo.path), str(other.path), "--n", "3", "--cache", str(tmp_path / "cache")]
    result = run_segmint(*args, "--k", "1", "2", "--one-intent")
    assert result.returncode == 0, result.stderr
    gate = OneIntent.from_dict(json.loads(result.stdout))
    assert len(gate.weights) == len(FEATURES) and 0.3 <= gate.cutoff <= 1.0
    out = tmp_path / "one_intent.json"
    written = run_segmint(*args, "--k", "1", "2", "--one-intent", "--out", str(out))
    assert written.returncode == 0 and written.stdout.startswith(f"wrote {out}: one-intent gate, cutoff ")
    assert OneIntent.from_dict(json.loads(out.read_text())) == gate  # the same cases: the same fit
    alone = run_segmint(*args, "--k", "2", "--one-intent")  # no single commits: nothing to tell them from
    assert alone.returncode == 2 and "No split trees of one commit and of several" in alone.stderr
    assert "Traceback" not in alone.stderr


def merged_history(repo: Repo) -> Repo:
    """Two commits on the mainline, and two on a branch merged into it."""
    history(repo)
    main = repo.git("rev-parse", "--abbrev-ref", "HEAD").strip()
    repo.git("checkout", "-q", "-b", "side", "HEAD~2")
    repo.write("table.py", "".join(f"value_{n} = compute_value({n} + 1)\n" for n in range(60)))
    repo.commit("side one")
    repo.write("notes.md", "# Notes\n\nA second file.\n")
    repo.commit("side two")
    repo.git("checkout", "-q", main)
    repo.git("merge", "-q", "--no-ff", "--no-edit", "side")
    return repo


def test_first_parent_cases_never_walk_into_a_merged_branch(repo: Repo) -> None:
    merged_history(repo)
    git = Git(repo.path)
    side = set(repo.git("rev-list", "HEAD^2", "^HEAD^1").split())
    every = {c for case in candidate_cases(read_history(git), 1) for c in case.commits}
    mainline = {c for case in candidate_cases(read_history(git, first_parent=True), 1) for c in case.commits}
    assert side <= every and not side & mainline and mainline
    assert len(candidate_cases(read_history(git, first_parent=True), 2)) == 1


def test_single_commits_are_scored_as_the_share_kept_whole(repo: Repo, tmp_path) -> None:
    history(repo)
    result = run_segmint(
        "bench",
        "untangle",
        str(repo.path),
        "--k",
        "1",
        "--n",
        "5",
        "--synthetic-hunks",
        "0",
        "--cache",
        str(tmp_path / "cache"),
    )
    assert result.returncode == 0, result.stderr
    assert "2 cases of k=1 single commits: ARI 1 when kept as one group" in result.stdout
    assert re.search(r"\nall-in-one +1.000 ", result.stdout)


def test_several_k_on_one_repository_print_a_table_each_and_time_once(repo: Repo, tmp_path) -> None:
    history(repo)
    result = run_segmint(
        "bench",
        "untangle",
        str(repo.path),
        "--k",
        "1",
        "2",
        "--n",
        "5",
        "--synthetic-hunks",
        "4",
        "--cache",
        str(tmp_path / "cache"),
        "--json",
    )
    assert result.returncode == 0, result.stderr
    runs = json.loads(result.stdout)["runs"]
    assert [run["k"] for run in runs] == [1, 2]
    assert runs[0]["synthetic"] is None and runs[1]["synthetic"]["hunks"] == 4
    text = run_segmint(
        "bench",
        "untangle",
        str(repo.path),
        "--k",
        "1",
        "2",
        "--n",
        "5",
        "--synthetic-hunks",
        "0",
        "--cache",
        str(tmp_path / "cache"),
    )
    assert "of k=1 single commits" in text.stdout and "of k=2 tangled commits" in text.stdout


def test_a_k_with_no_cases_is_a_note_beside_the_others_tables(repo: Repo, tmp_path) -> None:
    history(repo)  # three commits: cases of k=1 and 2, none of 3
    args = ("bench", "untangle", str(repo.path), "--k", "1", "2", "3", "--n", "5", "--cache", str(tmp_path / "cache"))
    text = run_segmint(*args, "--synthetic-hunks", "4")
    assert text.returncode == 0, text.stderr
    assert "of k=1 single commits" in text.stdout and "of k=2 tangled commits" in text.stdout
    note = f"k=3: no cases found in {repo.path} (no case of 3 consecutive commits by one author fits the limits)"
    assert text.stdout.rstrip("\n").endswith(note)
    assert "synthetic 4 hunks" in text.stdout.split("of k=2 tangled commits")[1]  # under the last table
    runs = json.loads(run_segmint(*args, "--synthetic-hunks", "4", "--json").stdout)["runs"]
    assert [(run["k"], run["n"]) for run in runs] == [(1, 2), (2, 1), (3, 0)]
    assert runs[1]["synthetic"]["hunks"] == 4 and runs[2]["note"] == note
    none = run_segmint("bench", "untangle", str(repo.path), "--k", "3", "4", "--synthetic-hunks", "0", "--no-cache")
    assert none.returncode == 2 and "No case of 3 or 4 consecutive commits by one author" in none.stderr


def test_tangled_cases_are_cached_and_reused(repo: Repo, tmp_path) -> None:
    history(repo)
    cache = tmp_path / "cache"
    args = ("bench", "untangle", str(repo.path), "--n", "1", "--synthetic-hunks", "0", "--cache", str(cache), "--json")
    first = run_segmint(*args)
    assert first.returncode == 0, first.stderr
    assert "tangled 1/1 cases" in first.stderr and "evidence for 1 case" in first.stderr
    assert {p.parent.name for p in cache.rglob("*.pickle")} == {"tangles", "evidence", "house"}
    second = run_segmint(*args)
    assert second.returncode == 0, second.stderr
    assert "tangled" not in second.stderr and "evidence for" not in second.stderr
    scores = [[(r["method"], r["ari"]) for r in json.loads(out.stdout)["summary"]] for out in (first, second)]
    assert scores[0] == scores[1]


def test_evidence_is_keyed_by_the_code_that_makes_it(tmp_path, monkeypatch) -> None:
    from segmint_bench.untangle import cache as cache_module

    (tmp_path / "grouping").mkdir()
    (tmp_path / "grouping" / "signals.py").write_text("A = 1\n")
    (tmp_path / "grouping" / "graph.py").write_text("B = 1\n")
    monkeypatch.setattr(cache_module, "CHECKOUT", tmp_path)
    before = source_hash(("grouping",), frozenset({"grouping/graph.py"}))
    (tmp_path / "grouping" / "graph.py").write_text("B = 2\n")
    assert source_hash(("grouping",), frozenset({"grouping/graph.py"})) == before
    (tmp_path / "grouping" / "signals.py").write_text("A = 2\n")
    assert source_hash(("grouping",), frozenset({"grouping/graph.py"})) != before
    store = Cache(tmp_path / "c")
    store.put("tangles", "x", [1, 2])
    assert store.get("tangles", "x") == [1, 2] and store.get("tangles", "y") is None
    assert Cache(None).get("tangles", "x") is None


def test_the_engine_scored_from_cached_evidence_groups_as_group_changes_does(repo: Repo) -> None:
    history(repo)
    with Workspace(str(repo.path)) as workspace:
        ((_, tangle),) = list(tangles(workspace, Selection(2, 1)))
    sample = Sample("repo", 2, tangle, *case_evidence(tangle))
    from segmint_bench.untangle import labels, methods
    from segmint_core.grouping import group_changes
    from segmint_core.grouping.model import DEFAULT

    direct = labels.grouping_labels(group_changes(tangle.changes, timeline=None), tangle.changes, tangle.keys)
    assert adjusted_rand_index(direct, methods.engine(DEFAULT)(sample)) == 1.0


def test_leave_one_out_prints_every_method_per_repository_and_k(repo: Repo, tmp_path) -> None:
    history(repo)
    other = merged_history(Repo(tmp_path / "other"))
    result = run_segmint(
        "bench",
        "untangle",
        "--leave-one-out",
        str(repo.path),
        str(other.path),
        "--k",
        "1",
        "2",
        "--n",
        "3",
        "--cache",
        str(tmp_path / "cache"),
        "--drop",
        "similar",
        "--add",
        "cochange",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "k=1 (single commits: share kept as one group)" in out and "k=2 (ARI)" in out
    for row in (
        "graph (held out)",
        "graph without similar",
        "graph, merge model",
        "v1 model",
        "seed",
        "per-file",
        "all-in-one",
        "per-hunk",
        "ceiling: hunks",
        "ceiling: atoms",
        "graph (held out) - per-file",
        "graph, merge model - graph",
        "graph, one-intent gate",
        "graph, one-intent gate - graph",
        "graph (held out) - without",
        "graph, cut model",
        "graph, cut model - graph",
        "ceiling: best cut",
        "cut at the true k",
        "graph with cochange",
        "with - graph (held out)",
    ):
        assert f"\n{row} " in out, row
    assert "repo" in out.splitlines()[4] and "other" in out.splitlines()[4]
    assert "repo: fitting on" in result.stderr and "other: scoring" in result.stderr


def test_leave_one_out_and_fit_refuse_what_they_cannot_do(repo: Repo, tmp_path) -> None:
    history(repo)
    one = run_segmint("bench", "untangle", "--leave-one-out", str(repo.path))
    assert one.returncode == 2 and "at least two repositories" in one.stderr
    both = run_segmint("bench", "untangle", str(repo.path), "--leave-one-out", str(repo.path), str(repo.path))
    assert both.returncode == 2 and "not both" in both.stderr
    drop = run_segmint("bench", "untangle", str(repo.path), "--drop", "similar")
    assert drop.returncode == 2 and "--leave-one-out" in drop.stderr
    unknown = run_segmint("bench", "untangle", "--leave-one-out", str(repo.path), str(repo.path), "--add", "similar")
    assert unknown.returncode == 2 and "not fit on: cochange" in unknown.stderr


def test_leave_one_out_prints_reliability_and_review_effort(repo: Repo, tmp_path) -> None:
    history(repo)
    other = merged_history(Repo(tmp_path / "other"))
    args = [
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
        str(tmp_path / "cache"),
        "--review",
        "3",
        "--calibration",
    ]
    result = run_segmint(*args)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "raw: unit pairs, P(same intent)" in out and "calibrated: hunks, P(belongs with its group)" in out
    assert "Review effort, held out" in out
    assert [line.split()[:2] for line in out.splitlines() if line.startswith("2 ")] == [
        ["2", "0"],
        ["2", "1"],
        ["2", "3"],
    ]
    best = [line.split()[:3] for line in out.splitlines() if line.startswith("best 2 ")]
    assert [b[:3] for b in best] == [["best", "2", "0"], ["best", "2", "1"], ["best", "2", "3"]]
    figures = json.loads(run_segmint(*args, "--json").stdout)
    assert figures["review"]["steps"] == [0, 1, 3]
    assert len(figures["review"]["ari"]["2"]["mean"]) == 3
    shown, best = figures["review"]["ari"]["2"]["mean"], figures["review"]["best_first"]["2"]["mean"]
    assert best[0] == shown[0] and all(b >= s - 1e-9 for b, s in zip(best, shown))
    assert set(figures["calibrations"]) == {"repo", "other"}
    rows = figures["reliability"]["raw"]["pairs"]
    assert rows and all(0.0 <= r["predicted"] <= 1.0 and r["n"] > 0 for r in rows)
    refused = run_segmint("bench", "untangle", str(repo.path), "--review", "3")
    assert refused.returncode == 2 and "--leave-one-out" in refused.stderr


def test_a_single_commit_weighs_half_a_tangled_case_in_the_merge_model_fit(repo: Repo) -> None:
    from segmint_bench.untangle.merges import SINGLE_WEIGHT, link_kinds, merge_rows
    from segmint_core.grouping.model import DEFAULT

    history(repo)
    with Workspace(str(repo.path)) as workspace:
        ((_, tangle),) = list(tangles(workspace, Selection(2, 1)))
    tangled = Sample("repo", 2, tangle, *case_evidence(tangle))
    single = Sample("repo", 1, tangle, tangled.units, tangled.links)  # the same tree, read as one commit
    kinds = link_kinds([tangled])
    rows = merge_rows(tangled, DEFAULT, kinds)
    halved = merge_rows(single, DEFAULT, kinds)
    assert rows and [r[:2] for r in halved] == [r[:2] for r in rows]
    assert [w for _, _, w in halved] == pytest.approx([SINGLE_WEIGHT * w for _, _, w in rows])
    assert SINGLE_WEIGHT == 0.5


def test_the_sources_that_key_the_cache_are_in_the_checkout() -> None:
    """A path that names nothing hashes nothing: the cache would outlive the code it was made by."""
    from segmint_bench.untangle.cache import CHECKOUT
    from segmint_bench.untangle.corpus import TANGLE_SOURCES
    from segmint_bench.untangle.features import DECISION_FILES, EVIDENCE_SOURCES

    assert [p for p in (*TANGLE_SOURCES, *EVIDENCE_SOURCES, *DECISION_FILES) if not (CHECKOUT / p).exists()] == []


def test_a_case_reads_the_house_commits_as_the_engine_would_at_its_base(repo: Repo, tmp_path) -> None:
    from segmint_bench.untangle.house import house_sizes
    from segmint_core.grouping.history import read_history as house_history

    history(repo)
    shas = repo.git("rev-list", "--first-parent", "HEAD").split()
    cache = Cache(tmp_path / "cache")
    found = house_sizes(str(repo.path), [*shas, "0" * 40], cache)
    assert [sorted(f) for f in found[:-1]] == [sorted(house_history(Git(repo.path), sha).sizes) for sha in shas]
    assert found[0] == (2, 2, 3) and found[-1] is None  # newest first; a base off the line: not known
    assert house_sizes(str(repo.path), shas, cache) == found[:-1]  # read back from the cache
    (sample,) = load_samples(str(repo.path), Selection(1, 1), cache)
    assert sample.house == found[shas.index(sample.tangle.case.base)]


def test_the_gate_cutoff_is_the_lowest_that_costs_tangled_trees_at_most_the_budget() -> None:
    from segmint_bench.untangle.one_intent import BUDGET, Row, lowest_cutoff

    single = Row(1, kept=0.0, joined=1.0, x=[0.0])
    tangled = Row(2, kept=1.0, joined=0.0, x=[0.0])
    whole = Row(2, kept=1.0, joined=0.0, x=None)  # clustering kept it whole: the gate is not asked
    assert lowest_cutoff([single, tangled, whole], [0.5, 0.4, 0.0]) == 0.425  # above the tangle's 0.4
    assert lowest_cutoff([single, tangled, whole], [0.5, 1.0, 0.0]) == 1.0  # never: it would cost the tangle
    assert BUDGET < 0.5
