"""The edit timeline as evidence: scripted histories change the grouping."""

from __future__ import annotations

from segmint_bench.untangle.metrics import adjusted_rand_index
from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import group_changes
from segmint_core.trajectory.timeline import HunkHistory
from tests.support.repo import Repo

FILES = {
    "billing/invoice.py": (
        "def total(lines):\n    return sum(lines)\n",
        "def total(lines):\n    return round(sum(lines), 2)\n",
    ),
    "web/layout.css": ("body { margin: 0; }\n", "body { margin: 0; padding: 4px; }\n"),
    "docs/faq.md": ("# FAQ\n", "# FAQ\n\nAsk us anything.\n"),
}


def scattered(repo: Repo) -> Repo:
    """Three edits with nothing lexical in common."""
    for path, (before, _) in FILES.items():
        repo.write(path, before)
    repo.commit()
    for path, (_, after) in FILES.items():
        repo.write(path, after)
    return repo


def labels(grouping) -> list[str]:
    return [g.id for c in grouping.changes for h in c.hunks for g in grouping.groups if h.id in g.hunk_ids]


def test_a_recorded_intent_joins_edits_nothing_else_links(repo: Repo) -> None:
    changes = capture(Git.discover(scattered(repo).path))
    ids = [h.id for c in changes.changes for h in c.hunks]  # docs/faq.md, billing/invoice.py, web/layout.css
    timeline = {
        ids[0]: HunkHistory(ids[0], ("s1",), (0,), ("round invoice totals",)),
        ids[1]: HunkHistory(ids[1], ("s2",), (0,), ("round invoice totals",)),
        ids[2]: HunkHistory(ids[2], ("s3",), (1,), ()),
    }
    without = group_changes(changes, timeline=None)
    with_timeline = group_changes(changes, timeline=timeline)
    truth = [0, 0, 1]
    assert adjusted_rand_index(truth, labels(with_timeline)) == 1.0
    assert adjusted_rand_index(truth, labels(without)) < 1.0
    assert any("same intent: round invoice totals" in r for r in with_timeline.groups[0].reasons)


def test_without_a_recorder_the_default_lookup_finds_nothing(repo: Repo) -> None:
    changes = capture(Git.discover(scattered(repo).path))
    assert group_changes(changes, root=str(repo.path)).to_dict() == group_changes(changes, timeline=None).to_dict()
