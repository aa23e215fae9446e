"""Property tests: random files and edits, staged and unstaged, on real repos."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings

from segmint_core.changes import capture
from segmint_core.git import Git
from tests.support.edits import build, worktree_story
from tests.support.examples import examples
from tests.support.patches import assert_all_subsets_apply
from tests.support.repo import Repo


@settings(max_examples=examples(60))
@given(story=worktree_story())
def test_listing_is_deterministic_and_every_subset_applies(story: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repo(Path(tmp) / "r")
        build(repo, story)
        git = Git.discover(repo.path)
        first = capture(git)
        second = capture(git)
        assert json.dumps(first.to_dict()) == json.dumps(second.to_dict())
        assert first.fingerprint == second.fingerprint
        ids = [c.id for c in first.changes]
        assert ids == [f"change-{i}" for i in range(1, len(ids) + 1)]
        for change in first.changes:
            assert [h.id for h in change.hunks] == [f"{change.id}:{k}" for k in range(1, len(change.hunks) + 1)]
            assert_all_subsets_apply(repo, change)
