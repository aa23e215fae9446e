"""The greedy centroid clustering Segmint started from, measured beside the engine."""

from __future__ import annotations

from segmint_bench.models.seed import seed_labels
from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import group_changes
from tests.grouping.scenarios import two_intents
from tests.support.repo import Repo


def grouped(repo: Repo):
    changes = capture(Git.discover(repo.path))
    return changes, group_changes(changes, labeller=seed_labels, timeline=None)


def test_the_seed_clustering_groups_whole_files(repo: Repo) -> None:
    changes, grouping = grouped(two_intents(repo))
    assert grouping.splits == {}
    for group in grouping.groups:
        for change_id in group.change_ids:
            change = next(c for c in grouping.changes if c.id == change_id)
            assert {h.id for h in change.hunks} <= set(group.hunk_ids)
