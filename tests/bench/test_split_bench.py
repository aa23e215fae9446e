"""``segmint bench split``: untangle's cases squashed into one commit, split as ``segmint split HEAD``
does, scored beside the working-tree grouping, then applied with the final tree checked."""

from __future__ import annotations

import json
import re

from tests.bench.test_untangle import history
from tests.support.cli import run_segmint
from tests.support.repo import Repo


def test_the_split_row_is_printed_beside_the_working_tree_row_and_every_tree_is_identical(repo: Repo, tmp_path) -> None:
    history(repo)
    before = repo.git("log", "--all", "--format=%H"), repo.git("status", "--porcelain")
    out = run_segmint("bench", "split", str(repo.path), "--k", "1", "2", "--n", "3", "--no-cache")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "k=1, 2 cases (single commits: ARI 1 when kept as one group" in text
    assert "k=2, 1 case (2 commits squashed)" in text
    assert len(re.findall(r"\nworking tree \(graph\) +\d\.\d{3}", text)) == 2
    assert len(re.findall(r"\nsplit HEAD +\d\.\d{3}", text)) == 2
    assert "final tip tree byte-identical after apply --all: 2 of 2 (100%)" in text
    assert "final tip tree byte-identical after apply --all: 1 of 1 (100%)" in text
    # the two intents of the squashed pair (calc.py, README.md) come apart again, as in the work tree
    assert re.search(r"k=2, 1 case .*\n.*\n.*\nsplit HEAD +1\.000", text), text
    assert "split ARI" in out.stderr and "tree identical" in out.stderr
    assert (repo.git("log", "--all", "--format=%H"), repo.git("status", "--porcelain")) == before


def test_json_gives_each_case_and_a_bad_k_is_one_sentence(repo: Repo) -> None:
    history(repo)
    out = run_segmint("bench", "split", str(repo.path), "--k", "2", "--n", "1", "--no-cache", "--json")
    assert out.returncode == 0, out.stderr
    (run,) = json.loads(out.stdout)["runs"]
    assert run["k"] == 2 and run["identical"] == 1
    (case,) = run["cases"]
    assert case["refused"] is None and case["commits"] >= 2
    assert set(case["scores"]) == {"working tree (graph)", "split HEAD"}
    bad = run_segmint("bench", "split", str(repo.path), "--k", "0", "--no-cache")
    assert bad.returncode == 2 and bad.stderr.strip() == "segmint: --k and --n must be at least 1"
