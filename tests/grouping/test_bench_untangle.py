"""``segmint bench untangle``: scores, case picking, blame truth, and the command on small histories."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from segmint_core.bench.untangle.cases import candidate_cases, read_history
from segmint_core.bench.untangle.metrics import (
    adjusted_rand_index,
    matched_accuracy,
    max_weight_matching,
    rand_index,
    score,
)
from segmint_core.bench.untangle.runner import METHODS, run_case, tangles
from segmint_core.bench.untangle.workspace import Workspace
from segmint_core.git import Git
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
        best = max(sum(weights[r, c] for r, c in enumerate(p))
                   for p in itertools.permutations(range(weights.shape[1]), rows))
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
        (tangle,) = list(tangles(workspace, 2, 5, 0))
        result = run_case(tangle, METHODS, "local")
    by_path = {}
    for (hunk_id, index), commit in tangle.truth.items():
        path = tangle.changes.change_of(hunk_id).file_path
        by_path.setdefault(path, set()).add(commit)
    assert by_path == {"calc.py": {0}, "README.md": {1}}  # the test file came and went: no line
    assert result.scores["oracle hunks"].ari == 1.0 and result.scores["all-in-one"].ari == 0.0
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
    result = run_segmint("bench", "untangle", str(clone), "--n", "1", "--synthetic-hunks", "0")
    assert result.returncode == 0, result.stderr
    assert "1 case of k=2" in result.stdout


def test_the_command_prints_the_table_and_timing(repo: Repo) -> None:
    history(repo)
    result = run_segmint("bench", "untangle", str(repo.path), "--k", "2", "--n", "3", "--synthetic-hunks", "4")
    assert result.returncode == 0, result.stderr
    for method in ("graph", "seed", "per-file", "all-in-one", "per-hunk", "oracle hunks (ceiling)"):
        assert method in result.stdout
    assert "synthetic 4 hunks" in result.stdout
    assert "case 1/3" in result.stderr and " s (per-file" in result.stderr


def test_bad_dates_and_empty_histories_are_clear_errors(repo: Repo) -> None:
    history(repo)
    bad = run_segmint("bench", "untangle", str(repo.path), "--since", "yesterday")
    assert bad.returncode == 2 and "YYYY-MM-DD" in bad.stderr
    none = run_segmint("bench", "untangle", str(repo.path), "--k", "3", "--synthetic-hunks", "0")
    assert none.returncode == 2 and "No case of 3 consecutive commits" in none.stderr


@pytest.mark.slow
def test_smoke_on_a_real_history_bundle() -> None:
    bundle = shared_data("click.bundle")
    result = run_segmint("bench", "untangle", str(bundle), "--n", "3", "--synthetic-hunks", "100", timeout=300)
    assert result.returncode == 0, result.stderr
    assert "3 cases of k=2" in result.stdout


def test_fit_gives_the_model_coefficients_to_paste(repo: Repo) -> None:
    history(repo)
    result = run_segmint("bench", "fit", str(repo.path), "--k", "2", "--n", "3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("FITTED: dict[str, float] = {\n")
    assert "\nbias = " in result.stdout and "\nsize_prior = " in result.stdout
    empty = run_segmint("bench", "fit", str(repo.path), "--k", "3")
    assert empty.returncode == 2 and "No tangled cases" in empty.stderr
