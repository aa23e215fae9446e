"""The line model against git: every version and every staged subset, exactly."""

from __future__ import annotations

import itertools
import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings

from segmint_core.apply.lines import FileLines, MissingDependency
from segmint_core.apply.states import renamed_away
from segmint_core.changes import build_patch, capture
from segmint_core.changes.models import Change
from segmint_core.git import Git
from tests.support.edits import build, worktree_story
from tests.support.examples import examples
from tests.support.repo import GIT_ENV, Repo


def versions(repo: Repo, change: Change) -> tuple[bytes, bytes | None, bytes | None]:
    base_path = change.old_path or change.file_path
    base = repo.git_bytes("cat-file", "-p", f"HEAD:{base_path}", check=False)
    in_index = repo.git_bytes("cat-file", "-p", f":{change.file_path}", check=False)
    path = repo.path / change.file_path
    work = path.read_bytes() if path.exists() else None
    has_head_file = bool(repo.git("ls-tree", "HEAD", "--", base_path, check=False).strip())
    has_index_file = bool(repo.git("ls-files", "--", change.file_path).strip())
    return (base if has_head_file else b""), (in_index if has_index_file else None), work


def file_lines(change: Change, base: bytes) -> FileLines:
    staged = change.staged_patch.hunks if change.staged_patch else []
    unstaged = change.unstaged_patch.hunks if change.unstaged_patch else []
    return FileLines(change.file_path, base, staged, unstaged)


def refs(hunks) -> set:
    return {(h.id, i) for h in hunks for i, line in enumerate(h.lines) if line[:1] in "+-"}


def staged_subset_via_git(repo: Repo, change: Change, subset) -> bytes:
    """What git makes of HEAD plus exactly these staged hunks."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, **GIT_ENV, "GIT_INDEX_FILE": os.path.join(tmp, "i")}
        subprocess.run(["git", "read-tree", "HEAD"], cwd=repo.path, env=env, check=True)
        patch = build_patch(change.staged_patch, subset).encode("utf-8", "surrogateescape")
        subprocess.run(["git", "apply", "--cached", "-"], cwd=repo.path, env=env, input=patch, check=True)
        out = subprocess.run(
            ["git", "cat-file", "-p", f":{change.file_path}"], cwd=repo.path, env=env, capture_output=True
        )
        return out.stdout


@settings(max_examples=examples(80))
@given(story=worktree_story())
def test_versions_and_staged_subsets_match_git(story: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repo(Path(tmp) / "r")
        build(repo, story)
        changes = capture(Git.discover(repo.path)).changes
        away = renamed_away(changes)
        for change in changes:
            base, in_index, work = versions(repo, change)
            if change.file_path in away and away[change.file_path] is not change:
                base = b""  # HEAD's file here left with a staged rename
            model = file_lines(change, base)
            staged = change.staged_patch.hunks if change.staged_patch else []
            unstaged = change.unstaged_patch.hunks if change.unstaged_patch else []
            assert model.materialize(set()) == base
            if change.staged_patch and in_index is not None:
                assert model.materialize(refs(staged)) == in_index
            if work is not None:
                assert model.materialize(refs(staged) | refs(unstaged)) == work
            if change.staged_patch and change.staged_patch.new_path is not None and len(staged) > 1:
                for r in range(1, len(staged)):
                    for subset in itertools.combinations(staged, r):
                        assert model.materialize(refs(subset)) == staged_subset_via_git(repo, change, subset)


def test_unstaged_change_of_a_staged_line_needs_it(repo: Repo) -> None:
    repo.stage_then_edit("f.txt", "a\nb\nc\n", "a\nB\nc\n", "a\nBB\nc\n")
    (change,) = capture(Git.discover(repo.path)).changes
    staged, unstaged = change.hunks
    model = file_lines(change, b"a\nb\nc\n")
    try:
        model.materialize(refs([unstaged]))
    except MissingDependency as exc:
        assert (exc.needs, exc.needed_by) == (staged.id, unstaged.id)
    else:
        raise AssertionError("expected a missing dependency")
    assert model.materialize(refs([staged, unstaged])) == b"a\nBB\nc\n"
    assert model.dependencies() == {unstaged.id: {staged.id}}


def test_a_line_rewritten_in_place_and_committed_alone_takes_its_old_lines_place(repo: Repo) -> None:
    """Two lines rewritten in one hunk (-a -b +A +B): committing the first rewrite alone puts A where a
    was, not after b, which stays; new lines unlike the removed ones keep the diff's order."""
    base = b"x\nlimit = 3\nname = 'old'\ny\n"
    repo.write("f.txt", base)
    repo.commit("base")
    repo.write("f.txt", "x\nlimit = 30\nname = 'new'\ny\n")
    (change,) = capture(Git.discover(repo.path)).changes
    (hunk,) = change.hunks
    first = {(hunk.id, i) for i, line in enumerate(hunk.lines) if line in ("-limit = 3", "+limit = 30")}
    model = file_lines(change, base)
    assert model.materialize(first) == b"x\nlimit = 30\nname = 'old'\ny\n"
    assert model.materialize(refs([hunk]) - first) == b"x\nlimit = 3\nname = 'new'\ny\n"
    assert model.materialize(refs([hunk])) == b"x\nlimit = 30\nname = 'new'\ny\n"
    repo.write("f.txt", "x\n# see the manual\nreturn None\ny\n")
    (change,) = capture(Git.discover(repo.path)).changes
    (hunk,) = change.hunks
    added = {(hunk.id, i) for i, line in enumerate(hunk.lines) if line[:1] == "+"}
    assert file_lines(change, base).materialize(added) == base.replace(b"y\n", b"# see the manual\nreturn None\ny\n")


def test_a_line_added_after_a_last_line_without_newline_needs_its_removal(repo: Repo) -> None:
    """The staged version drops HEAD's last line (it has no newline); the work tree adds a line
    where it stood. Kept, that line would end in the middle of the file: the added line needs its
    removal, and the dependencies say so, as the materialized file does."""
    repo.stage_then_edit("f.txt", "\n\n\na", "\n\n", "\na\n")
    (change,) = capture(Git.discover(repo.path)).changes
    staged, unstaged = change.hunks
    model = file_lines(change, b"\n\n\na")
    with pytest.raises(MissingDependency) as refused:
        model.materialize(refs([unstaged]))
    assert (refused.value.needs, refused.value.needed_by) == (staged.id, unstaged.id)
    assert model.materialize(refs([staged, unstaged])) == b"\na\n"
    assert model.dependencies() == {unstaged.id: {staged.id}}
