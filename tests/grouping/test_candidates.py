"""The sparse candidate index: pairs of units read off the words, names and folders they share,
on units made from real temporary repositories; and grouping a change set past the size whose
every pair is compared (``similarity.FULL_UNITS``), made small here by lowering that size."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import engine, group_changes
from segmint_core.grouping.candidates import candidate_pairs, cap_for, holder_pairs
from segmint_core.grouping.embeddings.base import embedding_text
from segmint_core.grouping.embeddings.local import LocalProvider
from segmint_core.grouping.model import DEFAULT
from segmint_core.grouping.repository import Repository
from segmint_core.grouping.signals import similarity
from segmint_core.grouping.signals.base import Context
from tests.support.repo import Repo

FOLDERS = ("billing", "shipping", "accounts")


def _tree(tmp_path: Path, files_per_folder: int = 5) -> Repo:
    """Modules in three folders, each with a one-line edit; a folder's edits share its words,
    and every edit uses ``value`` and ``limit``, which all the units hold."""
    repo = Repo(tmp_path / "repo")

    def module(folder: str, i: int, limit: int) -> str:
        return f"def {folder}_rule_{i}(value):\n    limit = {limit}\n    return {folder}_total(value, limit)\n"

    for folder in FOLDERS:
        for i in range(files_per_folder):
            repo.write(f"{folder}/rule_{i}.py", module(folder, i, 10))
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "base")
    for folder in FOLDERS:
        for i in range(files_per_folder):
            repo.write(f"{folder}/rule_{i}.py", module(folder, i, 20 + i))
    return repo


def _units(repo: Repo) -> list:
    changes = capture(Git(repo.path))
    return Repository(Git(repo.path)).units(list(changes.changes))


def _rows(units: list):
    texts = [embedding_text(u.path, u.hunk.header if u.hunk else "", u.lines) for u in units]
    return LocalProvider().embed_sparse(texts), LocalProvider().embed(texts)


def _brute_pairs(rows, cap: int) -> set[tuple[int, int]]:
    """Every two rows sharing a column held by 2..cap rows, pair by pair."""
    holding = [set(rows.indices[rows.indptr[r] : rows.indptr[r + 1]].tolist()) for r in range(len(rows))]
    holders = np.bincount(rows.indices, minlength=rows.width)
    return {
        (a, b)
        for a, b in combinations(range(len(rows)), 2)
        if any(2 <= holders[c] <= cap for c in holding[a] & holding[b])
    }


def test_sparse_rows_are_the_dense_embedding(tmp_path: Path) -> None:
    sparse, dense = _rows(_units(_tree(tmp_path)))
    rebuilt = np.zeros_like(dense)
    rebuilt[sparse.row_of_entries(), sparse.indices] = sparse.data
    assert sparse.width == dense.shape[1]
    assert np.allclose(rebuilt, dense, atol=1e-6)
    assert np.array_equal(rebuilt != 0, dense != 0)


def test_candidates_are_the_pairs_sharing_an_uncommon_word(tmp_path: Path) -> None:
    units = _units(_tree(tmp_path))
    rows, _ = _rows(units)
    found = candidate_pairs(rows.row_of_entries(), rows.indices, len(rows), per_unit=1000, ceiling=len(rows))
    assert found.cap == len(rows)  # the budget is large: every shared word makes pairs
    assert set(zip(found.first.tolist(), found.second.tolist())) == _brute_pairs(rows, found.cap)
    assert np.all(found.first < found.second)


def test_a_tight_budget_leaves_out_the_words_every_unit_holds(tmp_path: Path) -> None:
    units = _units(_tree(tmp_path))
    rows, _ = _rows(units)
    found = candidate_pairs(rows.row_of_entries(), rows.indices, len(rows), per_unit=4, ceiling=64)
    assert found.cap < len(units) and found.crowded_keys > 0
    pairs = set(zip(found.first.tolist(), found.second.tolist()))
    assert pairs == _brute_pairs(rows, found.cap)
    folder = [u.path.split("/")[0] for u in units]
    # what is left are the pairs of one folder, whose words only its five units hold
    assert pairs and all(folder[a] == folder[b] for a, b in pairs)
    assert len(pairs) == len(FOLDERS) * 10


def test_the_cap_is_the_largest_whose_pairs_fit_the_budget() -> None:
    holders = np.array([2, 2, 3, 5, 40])  # pairs: 1, 1, 3, 10, 780
    assert cap_for(holders, budget=5, ceiling=64) == 4  # 2 and 3 fit (5 pairs); no key has 4 holders
    assert cap_for(holders, budget=15, ceiling=64) == 39
    assert cap_for(holders, budget=10_000, ceiling=64) == 64
    assert cap_for(holders, budget=0, ceiling=64) == 2  # two units sharing a word always pair


def test_holder_pairs_are_every_two_entries_of_a_key() -> None:
    keys = np.array([7, 3, 7, 7, 3, 9])
    order, left, right = holder_pairs(keys)
    entries = order.tolist()
    made = sorted((entries[a], entries[b]) for a, b in zip(left.tolist(), right.tolist()))
    assert made == [(0, 2), (0, 3), (1, 4), (2, 3)]


def test_candidate_cosines_are_the_whole_cosines(tmp_path: Path) -> None:
    """Through the index, a pair's cosine still counts the words too common to have found it."""
    units = _units(_tree(tmp_path))
    rows, dense = _rows(units)
    source, other, value = similarity._sparse_nearest(rows, k=len(units) - 1)
    exact = dense.astype(np.float64) @ dense.T.astype(np.float64)
    assert len(source) and np.allclose(value, exact[source, other], atol=1e-6)


def test_a_change_set_past_the_full_size_still_groups_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _tree(tmp_path)
    changes = capture(Git(repo.path))
    full = group_changes(changes, root=str(repo.path), timeline=None)
    monkeypatch.setattr(similarity, "FULL_UNITS", 4)
    coarse = group_changes(changes, root=str(repo.path), timeline=None)
    hunks = sorted(h.id for c in changes.changes for h in c.hunks)
    assert sorted(h for g in coarse.groups for h in g.hunk_ids) == hunks  # every hunk, once
    reason = engine.coarse_reason(len(hunks))
    assert all(g.reasons[-1] == reason for g in coarse.groups)
    assert "15 units are more than the 4" in reason
    assert not any(reason in g.reasons for g in full.groups)


def test_similarity_links_past_the_full_size_are_those_found_between_candidates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With room for every word in the index, the links are those of every pair compared (each
    unit's neighbours all the others, so no tie decides which are kept)."""
    units = _units(_tree(tmp_path))
    rows, dense = _rows(units)
    model = replace(DEFAULT, similarity_neighbours=len(units))
    every = [(i.a, i.b, i.kind, i.detail) for i in similarity.links(Context(units, model, None, dense, 0.1))]
    monkeypatch.setattr(similarity, "CANDIDATES_PER_UNIT", 1000)
    through_index = [(i.a, i.b, i.kind, i.detail) for i in similarity.links(Context(units, model, None, rows, 0.1))]
    assert through_index == every and every
