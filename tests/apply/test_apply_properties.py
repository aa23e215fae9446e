"""Applying random selections in sequence: exact commits, nothing lost, work tree untouched."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segmint_core.apply.commit import NothingToCommit, Selection, apply_selection
from segmint_core.apply.lines import MissingDependency
from segmint_core.changes import build_patch, capture
from segmint_core.git import Git
from tests.support.edits import build, worktree_story
from tests.support.examples import examples
from tests.support.repo import GIT_ENV, Repo


def work_files(repo: Repo) -> dict[str, bytes]:
    return {k: v for k, v in repo.snapshot()["files"].items()}


def head_files(repo: Repo) -> dict[str, bytes]:
    out = repo.git_bytes("ls-tree", "-r", "-z", "HEAD")
    files = {}
    for row in out.split(b"\0"):
        if row:
            meta, path = row.split(b"\t", 1)
            files[path.decode("utf-8", "surrogateescape")] = repo.git_bytes(
                "cat-file", "blob", meta.split()[2].decode()
            )
    return files


def select(cs, picked: set[str]) -> Selection:
    selection = Selection()
    for change in cs.changes:
        if not change.hunks and change.id in picked:
            selection.whole.add(change.id)
        for hunk in change.hunks:
            if hunk.id in picked:
                selection.refs.setdefault(change.id, set()).update(
                    (hunk.id, i) for i, line in enumerate(hunk.lines) if line[:1] in "+-"
                )
    return selection


def oracle_matches(repo: Repo, cs, picked: set[str], parent: str | None, sha: str) -> None:
    """For files whose selected hunks all sit on HEAD (staged hunks, or unstaged
    hunks of files with no staged layer), git apply of those hunks onto the
    parent must give exactly the commit's version of the file."""
    moved_away = {c.old_path for c in cs.changes if c.old_path and c.old_path != c.file_path}
    for change in cs.changes:
        if change.binary or change.status in ("renamed", "copied"):
            continue
        if change.file_path in moved_away or change.old_path not in (None, change.file_path):
            continue  # the path's staged layer lives in another change (a staged rename away from it)
        chosen = [h for h in change.hunks if h.id in picked]
        if not chosen:
            continue
        if change.staged_patch is not None and change.unstaged_patch is not None:
            continue  # git apply knows one base; the line model is checked against git elsewhere
        layers = {h.staged for h in chosen}
        fp = change.staged_patch if layers == {True} else change.unstaged_patch
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, **GIT_ENV, "GIT_INDEX_FILE": os.path.join(tmp, "i")}
            subprocess.run(["git", "read-tree", parent or "--empty"], cwd=repo.path, env=env, check=True)
            patch = build_patch(fp, chosen).encode("utf-8", "surrogateescape")
            subprocess.run(["git", "apply", "--cached", "-"], cwd=repo.path, env=env, input=patch, check=True)
            expected = subprocess.run(
                ["git", "ls-files", "-s", "--", change.file_path],
                cwd=repo.path,
                env=env,
                capture_output=True,
                text=True,
            ).stdout.split()
            actual = repo.git("ls-tree", sha, "--", change.file_path).split()
            want = expected[1] if expected else None
            got = actual[2] if actual else None
            assert want == got, f"{change.file_path}: commit has {got}, git apply gives {want}"


@settings(max_examples=examples(60))
@given(story=worktree_story(), data=st.data())
def test_random_sequences_of_commits(story: dict, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repo(Path(tmp) / "r")
        build(repo, story)
        git = Git.discover(repo.path)
        before = work_files(repo)
        for step in range(8):
            cs = capture(git)
            if not cs.changes:
                break
            ids = [h.id for c in cs.changes for h in c.hunks] + [c.id for c in cs.changes if not c.hunks]
            last = step == 7
            picked = set(ids) if last else set(data.draw(st.lists(st.sampled_from(ids), min_size=1, unique=True)))
            result = None
            while True:
                try:
                    result = apply_selection(git, cs, select(cs, picked), f"step {step}\n")
                    break
                except MissingDependency as exc:
                    picked.add(exc.needs if exc.needs in ids else next(i for i in ids if i not in picked))
                except NothingToCommit:
                    break  # the picked changes cancel out (staged, then deleted)
            assert work_files(repo) == before, "the work tree changed"
            if result is None:
                if last:
                    break
                continue
            oracle_matches(repo, cs, picked, result.parent, result.sha)
        assert head_files(repo) == {k: v[3:] if v.startswith(b"-> ") else v for k, v in before.items()}


def test_recreating_a_path_git_saw_renamed_away_commits_the_new_content() -> None:
    # Two empty files: git pairs the staged deletion of b.txt with the staged
    # a.py as a rename, so b.txt's own change is only the untracked re-creation.
    story = {"base": {"b.txt": ""}, "staged": {"a.py": "", "b.txt": None}, "work": {"a.py": None, "b.txt": "\n"}}
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repo(Path(tmp) / "r")
        build(repo, story)
        git = Git.discover(repo.path)
        cs = capture(git)
        recreated = next(c for c in cs.changes if c.file_path == "b.txt")
        picked = {h.id for h in recreated.hunks}
        with pytest.raises(MissingDependency) as refused:
            apply_selection(git, cs, select(cs, picked), "recreate b.txt\n")
        assert refused.value.needs == "change-1"  # the rename that frees the path comes first
        picked.add("change-1")
        result = apply_selection(git, cs, select(cs, picked), "recreate b.txt\n")
        oracle_matches(repo, cs, picked, result.parent, result.sha)
        assert repo.git_bytes("cat-file", "blob", f"{result.sha}:b.txt") == b"\n"
        assert repo.git("ls-tree", "--name-only", result.sha).split() == ["b.txt"]


@pytest.mark.parametrize("name", ["caf\u00e9 menu.txt", "with space.txt", "tab\there.txt"])
def test_a_quoted_path_with_a_space_commits_exactly(repo: Repo, name: str) -> None:
    # git ends such a name with a tab after its closing quote in `---`/`+++` lines.
    repo.write(name, "one\n")
    repo.write("other.txt", "x\n")
    repo.commit()
    repo.write(name, "two\n")
    repo.write("other.txt", "y\n")
    git = Git.discover(repo.path)
    cs = capture(git)
    change = next(c for c in cs.changes if c.file_path == name)
    result = apply_selection(git, cs, select(cs, {h.id for h in change.hunks}), "edit\n")
    assert repo.git_bytes("cat-file", "blob", f"{result.sha}:{name}") == b"two\n"
    assert repo.git_bytes("cat-file", "blob", f"{result.sha}:other.txt") == b"x\n"
    assert repo.read(name) == b"two\n" and repo.read("other.txt") == b"y\n"


def test_a_line_staged_then_edited_again_counts_once(repo: Repo) -> None:
    repo.stage_then_edit("f.txt", "1\n2\n3\n4\n5\n", "1\n2\n3\n4\nfive\n", "1\n2\n3\n4\nFIVE\n6\n")
    git = Git.discover(repo.path)
    cs = capture(git)
    result = apply_selection(git, cs, select(cs, {h.id for c in cs.changes for h in c.hunks}), "five\n")
    assert [(f.path, f.added, f.removed) for f in result.files] == [("f.txt", 2, 1)]
    numstat = repo.git("diff", "--numstat", f"{result.sha}~1", result.sha).split()
    assert numstat[:2] == ["2", "1"]
