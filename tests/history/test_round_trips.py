"""Generated repositories: apply --all, absorb and split, each undone by one undo, leave HEAD, the index
and the work tree exactly as they were; a split keeps the final tree byte for byte."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from segmint_core.errors import SegmintError
from segmint_core.session.session import Session
from tests.support.edits import build, edited, file_text, worktree_story
from tests.support.examples import examples
from tests.support.repo import GIT_ENV, Repo


def state(repo: Repo) -> dict:
    index = [
        line.rpartition("\t")[2] if line.startswith("  size:") else line
        for line in repo.git("ls-files", "--stage", "--debug").splitlines()
        if not line.startswith(("  ctime", "  mtime", "  dev", "  uid"))
    ]
    return {
        "head": repo.git("rev-parse", "--verify", "-q", "HEAD", check=False).strip(),
        "branch": repo.git("symbolic-ref", "HEAD").strip(),
        "index": index,
        "files": repo.snapshot()["files"],
    }


def new_repo(tmp: str) -> Repo:
    import os

    os.environ.update(GIT_ENV)
    return Repo(Path(tmp) / "repo")


def undone_exactly(repo: Repo, session: Session, before: dict) -> None:
    session.undo()
    assert state(repo) == before


@settings(max_examples=examples(15))
@given(story=worktree_story())
def test_apply_all_then_undo(story: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = new_repo(tmp)
        build(repo, story)
        before = state(repo)
        session = Session.open(str(repo.path))
        if not session.changes:
            return
        try:
            session.propose_commits()
            made = session.apply_all()
        except SegmintError:
            return  # refused as a whole (nothing to commit, a plan to merge): nothing was made
        if made:
            undone_exactly(repo, session, before)


@st.composite
def stack_story(draw) -> dict:
    names = draw(st.lists(st.sampled_from(["a.py", "b.txt", "dir/c.md"]), min_size=1, max_size=3, unique=True))
    base = {n: draw(file_text(min_lines=3)) for n in names}
    first = {n: draw(edited(t)) for n, t in base.items()}
    second = {n: draw(edited(t)) for n, t in first.items()}
    work = {n: draw(edited(t)) for n, t in second.items()}
    return {"versions": [base, first, second], "work": work}


def commit_versions(repo: Repo, story: dict) -> None:
    for n, version in enumerate(story["versions"]):
        for name, text in version.items():
            repo.write(name, text)
        repo.git("add", "-A")
        repo.git("commit", "-q", "--allow-empty", "-m", f"version {n}")
        if n == 0:
            repo.git("update-ref", "refs/remotes/origin/main", repo.head())


@settings(max_examples=examples(15))
@given(story=stack_story())
def test_absorb_then_undo(story: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = new_repo(tmp)
        commit_versions(repo, story)
        for name, text in story["work"].items():
            repo.write(name, text)
        before = state(repo)
        session = Session.open(str(repo.path))
        if not session.changes:
            return
        session.absorb()
        try:
            made = session.apply_all()
        except SegmintError:
            assert state(repo)["files"] == before["files"]
            return
        assert state(repo)["files"] == before["files"], "no work-tree byte changed"
        assert repo.git("status", "--porcelain") == ""
        if made:
            undone_exactly(repo, session, before)


@settings(max_examples=examples(10))
@given(story=stack_story())
def test_split_then_undo(story: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = new_repo(tmp)
        commit_versions(repo, story)
        before = state(repo)
        tree = repo.git("rev-parse", "HEAD^{tree}")
        session = Session.open(str(repo.path))
        try:
            session.start_split("HEAD~1")
        except SegmintError:
            return  # nothing to split (an empty commit)
        try:
            session.apply_split()
        except SegmintError:
            session.abort_split()
            assert state(repo) == before
            return
        assert repo.git("rev-parse", "HEAD^{tree}") == tree, "the final tree is byte-identical"
        assert state(repo)["files"] == before["files"] and state(repo)["index"] == before["index"]
        undone_exactly(Repo(repo.path, init=False), Session.open(str(repo.path)), before)
