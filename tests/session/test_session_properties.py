"""The promise, on random work: group, plan, apply every plan; nothing lost, commits exact.

Each example builds a real repository with random staged and unstaged edits
(new, modified and deleted files), lets the session group and plan them, and
applies every plan in order. After each run: the work tree is byte-identical,
HEAD's files equal the original work tree's, and after every commit exactly the
lines of the plans not yet applied remain. `--hypothesis-profile=thorough`
runs 2,000 examples.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import example, given, settings

from segmint_core.apply.commit import NothingToCommit
from segmint_core.changes import capture
from segmint_core.session.session import Session
from tests.support.edits import build, worktree_story
from tests.support.examples import examples
from tests.support.repo import Repo


def lines_of(changes, hunk_ids=None) -> Counter:
    """Changed lines (path, sign, text) of the given hunks (default: all)."""
    out: Counter = Counter()
    for change in changes:
        for hunk in change.hunks:
            if hunk_ids is None or hunk.id in hunk_ids:
                out.update((change.file_path, line[:1], line[1:]) for line in hunk.lines if line[:1] in "+-")
    return out


def head_files(repo: Repo) -> dict[str, bytes]:
    files = {}
    if not repo.git("rev-parse", "--verify", "--quiet", "HEAD", check=False).strip():
        return files
    for row in repo.git_bytes("ls-tree", "-r", "-z", "HEAD").split(b"\0"):
        if row:
            meta, path = row.split(b"\t", 1)
            files[path.decode("utf-8", "surrogateescape")] = repo.git_bytes("cat-file", "blob", meta.split()[2].decode())
    return files


def expected_head(before: dict[str, bytes]) -> dict[str, bytes]:
    return {k: v[3:] if v.startswith(b"-> ") else v for k, v in before.items()}


@settings(max_examples=examples(200))
@given(story=worktree_story())
# Found by CI. Two parts of one hunk with the same changed line: the committed part must not claim the other.
@example(story={"base": {"a.py": "\r\n"}, "staged": {"a.py": "\r\n"}, "work": {"a.py": "a\n\r\na"}})
# One file with staged and unstaged hunks, the unstaged one split by grouping.
@example(story={"base": {"a.py": "\n\n\n"}, "staged": {"a.py": "\na\n\n"}, "work": {"a.py": "a\n"}})
@example(story={"base": {"a.py": "\n\n\ncafé\n\r\n"}, "staged": {"a.py": "café\n\na\n\r\n"},
                "work": {"a.py": "café\na\n"}})
@example(story={"base": {"a.py": "\n\n\ntab\there\n\r\n"}, "staged": {"a.py": "tab\there\n\ntab\there\ncafé\n"},
                "work": {"a.py": "\ncafé\n"}})
# A file added and then deleted again (no plan) beside one deleted then re-created untracked.
@example(story={"base": {"b.txt": ""}, "staged": {"a.py": "\r\n", "b.txt": None}, "work": {"a.py": None, "b.txt": "\r\n"}})
def test_group_plan_apply_everything(story: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repo(Path(tmp) / "r")
        build(repo, story)
        before = repo.snapshot()["files"]
        session = Session.open(str(repo.path))
        session.regroup()
        plans = session.propose_commits()
        remaining = {p.id: lines_of(session.changes, set(p.hunk_ids)) for p in plans}
        # A file staged, then put back as HEAD has it, gets no plan: its lines stay.
        nothing = {u.group_id for u in session.unplanned() if u.nothing}
        remaining["nothing"] = lines_of(session.changes, {h for g in session.groups if g.id in nothing
                                                          for h in g.hunk_ids})
        for plan in plans:
            head = head_files(repo)
            try:
                session.apply_commit(plan.id)
            except NothingToCommit:
                # Changes that cancel out (staged, then deleted) make no commit.
                assert head_files(repo) == head
                continue
            assert repo.snapshot()["files"] == before, "the work tree changed"
            del remaining[plan.id]
            left = sum(remaining.values(), Counter())
            assert lines_of(capture(session.git).changes) == left, f"after {plan.id} the wrong lines remain"
        assert head_files(repo) == expected_head(before)
