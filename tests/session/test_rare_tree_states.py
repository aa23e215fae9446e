"""Rare tree states the generated repositories of issue 34 met: intent-to-add files moved, deleted or
made links, generated files added with -N or replaced by folders, staged entries with no net change,
line-ending-only differences git normalizes, and files where folders were. Each is planned, applied
and undone on a real repository: what is committed, what the index keeps, and the work tree untouched."""

from __future__ import annotations

import pytest

from segmint_core.session.session import Session
from tests.support.repo import Repo

LOCK = '{\n  "name": "app",\n  "lockfileVersion": 3\n}\n'


def tree(repo: Repo, rev: str = "HEAD") -> dict[str, str]:
    """path -> ``mode oid`` of every file in ``rev``."""
    rows = repo.git("ls-tree", "-r", "-z", rev).split("\0")
    return {row.split("\t", 1)[1]: " ".join(row.split("\t", 1)[0].split()[::2]) for row in rows if row}


def index(repo: Repo) -> list[tuple[str, str]]:
    """Each index entry: ``mode oid stage\tpath`` and its flags (intent-to-add among them)."""
    out = repo.git_bytes("ls-files", "--stage", "--debug", "-z").split(b"\0")
    rows, row = [], out[0]
    for chunk in out[1:]:
        lines = chunk.split(b"\n", 5)
        rows.append((row.decode("utf-8", "surrogateescape"), lines[4].rpartition(b"flags: ")[2].decode()))
        row = lines[5] if len(lines) > 5 else b""
    return rows


def undone(session: Session, repo: Repo, before: list[tuple[str, str]]) -> None:
    """Undo every commit of the session: the index is as it was ``before``, entry for entry."""
    base = repo.git("rev-list", "--max-parents=0", "HEAD").strip()
    while session.applied:
        session.undo()
    assert repo.head() == base
    assert index(repo) == before


def based(repo: Repo, **files: str) -> None:
    repo.write("a.txt", "a\n")
    for name, text in files.items():
        repo.write(name.replace("__", "/"), text)
    repo.commit("base")


def test_a_generated_file_added_with_intent_to_add_is_committed(repo: Repo) -> None:
    based(repo)
    repo.write("package-lock.json", LOCK)
    repo.git("add", "-N", "package-lock.json")
    repo.write("a.txt", "a\nmore\n")
    work, before = repo.snapshot()["files"], index(repo)

    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()

    assert repo.git("show", "HEAD:package-lock.json") == LOCK
    assert repo.git("status", "--porcelain") == ""
    assert repo.snapshot()["files"] == work
    undone(session, repo, before)


@pytest.mark.parametrize("path", ["package-lock.json", "vendor/lib/util.go"])
def test_a_generated_or_vendored_file_replaced_by_a_folder_is_committed(repo: Repo, path: str) -> None:
    based(repo, **{path.replace("/", "__"): "one\n"})
    repo.delete(path)
    repo.write(f"{path}/inner.txt", "inside\n")
    repo.write("a.txt", "a\nmore\n")
    work, before = repo.snapshot()["files"], index(repo)

    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()

    files = tree(repo)
    assert path not in files and f"{path}/inner.txt" in files
    assert repo.git("status", "--porcelain") == ""
    assert repo.snapshot()["files"] == work
    undone(session, repo, before)
