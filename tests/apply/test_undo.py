"""Undo puts the index entries an apply rewrote back exactly, flags included."""

from __future__ import annotations

import os

import pytest

from segmint_core.errors import RefusedError
from segmint_core.session import state as saved_state
from segmint_core.session.session import Session
from tests.support.groups import one_group_per_hunk
from tests.support.repo import Repo


def entries(repo: Repo) -> list[tuple[str, str]]:
    """Each index entry: ``mode oid stage\\tpath`` and its flags (from ``ls-files --debug``)."""
    out = repo.git_bytes("ls-files", "--stage", "--debug", "-z").split(b"\0")
    rows, row = [], out[0]
    for chunk in out[1:]:
        lines = chunk.split(b"\n", 5)
        rows.append((row.decode(), lines[4].rpartition(b"flags: ")[2].decode()))
        row = lines[5] if len(lines) > 5 else b""
    return rows


def test_undo_keeps_an_intent_to_add_entry_intent_to_add(repo: Repo) -> None:
    repo.write("app.py", "print('app')\n")
    repo.commit("base")
    repo.write("new.py", "print('new')\n")
    repo.git("add", "-N", "new.py")
    repo.write("app.py", "print('app, changed')\n")
    before = entries(repo)
    assert ("100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\tnew.py", "20004000") in before

    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    assert repo.git("status", "--porcelain") == ""
    while session.applied:
        session.undo()

    assert entries(repo) == before, "the intent-to-add entry is one again, not a staged empty file"
    assert repo.git("diff", "--cached", "--name-only") == ""
    assert repo.git("diff", "--name-only").split() == ["app.py", "new.py"]


def test_undo_keeps_skip_worktree_and_assume_unchanged_flags(repo: Repo) -> None:
    repo.write("app.py", "one\n")
    repo.write("quiet.txt", "quiet\n")
    repo.commit("base")
    repo.write("app.py", "two\n")
    repo.git("update-index", "--skip-worktree", "quiet.txt")
    repo.git("add", "app.py")
    repo.git("update-index", "--assume-unchanged", "app.py")  # set on the staged entry Segmint rewrites
    before = entries(repo)

    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    session.undo()

    assert entries(repo) == before


def test_undo_restores_a_file_named_like_a_glob_and_only_it(repo: Repo) -> None:
    # `[a].txt` as a pattern matches a.txt too: the undo must read and restore the entry
    # of that one name, leaving a.txt as it was staged since the commit.
    repo.write("a.txt", "one\n")
    repo.commit("base")
    repo.write("[a].txt", "new\n")
    before = entries(repo)

    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    repo.write("a.txt", "two\n")
    repo.git("add", "a.txt")  # staged after the apply: the undo leaves it
    staged = [e for e in entries(repo) if e[0].endswith("\ta.txt")]
    session.undo()

    assert entries(repo) == staged
    assert [e for e in before if e[0].endswith("\ta.txt")] != staged
    assert repo.git("status", "--porcelain", "--untracked-files=all").splitlines() == ["M  a.txt", "?? [a].txt"]


def test_undo_keeps_what_was_staged_since_the_commit(repo: Repo) -> None:
    # After the apply the person staged more of a.txt, then changed the work tree again: that
    # staged version is nowhere else. The undo moves HEAD back and leaves that entry as it is;
    # b.txt, untouched since, gets its entry from before the apply back.
    repo.write("a.txt", "a\n")
    repo.write("b.txt", "b\n")
    repo.commit("base")
    repo.write("a.txt", "a\nmore\n")
    repo.write("b.txt", "b\nmore\n")
    before = entries(repo)
    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    repo.write("a.txt", "a\nmore\nstaged only\n")
    repo.git("add", "a.txt")
    repo.write("a.txt", "a\nmore\n")
    staged = [e for e in entries(repo) if e[0].endswith("\ta.txt")]
    while session.applied:
        session.undo()

    assert repo.git("rev-list", "--count", "HEAD").strip() == "1"
    assert repo.git("show", ":a.txt") == "a\nmore\nstaged only\n", "the staged version is kept"
    assert sorted(entries(repo)) == sorted(staged + [e for e in before if e[0].endswith("\tb.txt")])


def test_undo_after_the_repository_was_moved_puts_the_index_back(repo: Repo, tmp_path) -> None:
    # The session names the copy of the index saved for undo by the folder's path at the apply.
    repo.write("a.txt", "a\n")
    repo.commit("base")
    repo.write("a.txt", "a\nmore\n")
    before = entries(repo)
    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    moved = Repo(repo.path.rename(tmp_path / "moved"), init=False)
    Session.open(str(moved.path)).undo()
    assert entries(moved) == before, "a.txt is staged as before, not removed from the index"
    assert moved.git("status", "--porcelain") == " M a.txt\n"


def test_undo_without_the_saved_copy_of_the_index_changes_nothing(repo: Repo) -> None:
    repo.write("a.txt", "a\n")
    repo.commit("base")
    repo.write("a.txt", "a\nmore\n")
    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    for copy in (repo.path / ".git" / "segmint" / "undo").iterdir():
        copy.unlink()
    before = repo.snapshot()
    with pytest.raises(RefusedError, match="copy of the index saved before commit-1 .* is missing"):
        session.undo()
    assert repo.snapshot() == before


def test_undo_refuses_when_git_gc_took_the_staged_version_it_would_put_back(repo: Repo) -> None:
    # a.txt's staged version is in no commit: only the index saved for undo names it once the
    # apply has committed an unstaged line on top of it, and `git gc --prune=now` removes it.
    lines = [f"line {n}\n" for n in range(30)]
    repo.write("a.txt", "".join(lines))
    repo.commit("base")
    lines[5] = "line five, staged\n"
    repo.write("a.txt", "".join(lines))
    repo.git("add", "a.txt")
    lines[25] = "line twenty-five\n"
    repo.write("a.txt", "".join(lines))
    session = Session.open(str(repo.path))
    one_group_per_hunk(session)
    unstaged = next(p for p in session.propose_commits() if p.hunk_ids == ["change-1:2"])
    session.apply_commit(unstaged.id)
    repo.git("gc", "-q", "--prune=now")
    before = repo.snapshot()
    with pytest.raises(RefusedError, match="the staged version of a.txt it saved is no longer in the repository"):
        session.undo()
    assert repo.snapshot() == before
    repo.git("diff", "--cached")  # the index names only objects git has


def test_undo_of_a_first_commit_on_a_detached_head_keeps_head(repo: Repo) -> None:
    # Deleting a detached HEAD would leave a folder git no longer takes for a repository.
    repo.write("a.txt", "a\n")
    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    repo.git("checkout", "-q", "--detach")
    before = repo.snapshot()
    with pytest.raises(RefusedError, match="HEAD is detached at .*, a commit with no parent"):
        session.undo()
    assert repo.snapshot() == before
    repo.git("checkout", "-q", "main")
    session.undo()
    assert repo.git("status", "--porcelain") == "?? a.txt\n"
    assert repo.git("rev-parse", "--verify", "--quiet", "HEAD", check=False) == ""


def test_undo_keeps_files_staged_since_in_a_folder_where_it_would_put_a_file_back(repo: Repo) -> None:
    # The commit removed the file x; the person then made x a folder and staged x/y, then changed
    # x/y again: putting x back in the index would drop that staged version of x/y.
    repo.write("x", "x\n")
    repo.commit("base")
    repo.delete("x")
    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    repo.write("x/y", "staged only\n")
    repo.git("add", "x/y")
    repo.write("x/y", "later\n")
    session.undo()
    assert repo.git("rev-list", "--count", "HEAD").strip() == "1"
    assert repo.git("show", ":x/y") == "staged only\n", "the staged version is kept"
    assert repo.git("status", "--porcelain") == "D  x\nAM x/y\n"


def test_undo_keeps_a_file_staged_since_where_it_would_put_a_folder_back(repo: Repo) -> None:
    # The reverse: the commit removed x/y, the person staged a file x since.
    repo.write("x/y", "y\n")
    repo.commit("base")
    repo.delete("x/y")
    (repo.path / "x").rmdir()
    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    repo.write("x", "staged only\n")
    repo.git("add", "x")
    repo.write("x", "later\n")
    session.undo()
    assert repo.git("show", ":x") == "staged only\n", "the staged version is kept"
    assert repo.git("status", "--porcelain") == "AM x\nD  x/y\n"


def test_copies_of_the_index_are_kept_only_for_commits_undo_can_reach(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each apply keeps a copy of the whole index for undo: one no undo can reach any more (undone,
    # or older than the session keeps) is removed, so a long session does not fill the disk.
    monkeypatch.setattr(saved_state, "UNDO_KEPT", 2)
    for name in "abcd":
        repo.write(f"{name}.txt", f"{name}\n")
    repo.commit("base")
    for name in "abcd":
        repo.write(f"{name}.txt", f"{name}\nmore\n")
    session = Session.open(str(repo.path))
    one_group_per_hunk(session)
    session.propose_commits()
    for plan in list(session.plans):  # four operations: the last two are kept
        session.apply_commit(plan.id)
    copies = repo.path / ".git" / "segmint" / "undo"
    assert len(session.applied) == 2 and sorted(p.name for p in copies.iterdir()) == sorted(
        os.path.basename(a.index_before) for a in session.applied
    )
    session.undo()
    assert [p.name for p in copies.iterdir()] == [os.path.basename(session.applied[0].index_before)]
    session.undo()
    assert list(copies.iterdir()) == []
    assert repo.git("rev-list", "--count", "HEAD").strip() == "3"


def test_undo_puts_back_an_intent_to_add_entry_whose_file_became_a_symlink_as_a_file(repo: Repo) -> None:
    # Issue 34: `git add -N n.txt`, then n.txt made a link. The commit takes the link; undo gives
    # the intent-to-add entry back as it was, mode 100644, not the link's 120000.
    repo.write("a.txt", "a\n")
    repo.commit("base")
    repo.write("n.txt", "x\n")
    repo.git("add", "-N", "n.txt")
    repo.delete("n.txt")
    os.symlink("a.txt", repo.path / "n.txt")
    repo.write("a.txt", "a\nmore\n")
    before, work = entries(repo), repo.snapshot()["files"]

    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    assert repo.git("ls-tree", "HEAD", "n.txt").startswith("120000 blob")
    while session.applied:
        session.undo()

    assert entries(repo) == before
    assert repo.snapshot()["files"] == work


def test_undo_puts_back_intent_to_add_entries_of_files_gone_from_the_work_tree(repo: Repo) -> None:
    # Issue 34: files added with `git add -N` and then deleted, beside a real change; after every
    # commit is undone each entry is back as it was (an executable one 100755), though no file is there.
    repo.write("a.txt", "a\n")
    repo.commit("base")
    repo.write("n.txt", "x\n")
    repo.write("tool.sh", "run\n", mode=0o755)
    repo.git("add", "-N", "n.txt", "tool.sh")
    repo.delete("n.txt")
    repo.delete("tool.sh")
    repo.write("a.txt", "a\nmore\n")
    before, work = entries(repo), repo.snapshot()["files"]
    assert ("100755 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\ttool.sh", "20004000") in before

    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    assert repo.git("ls-tree", "-r", "--name-only", "HEAD").split() == ["a.txt"]
    while session.applied:
        session.undo()

    assert entries(repo) == before
    assert repo.snapshot()["files"] == work


def test_undo_puts_back_an_intent_to_add_entry_a_commit_took_out_for_a_file_at_its_folder(repo: Repo) -> None:
    # x/n.txt added with -N, then its folder made a file x: committing x takes x/n.txt's entry out of
    # the index (a path is a file or a folder); undo puts it back though the work tree has x a file.
    repo.write("a.txt", "a\n")
    repo.commit("base")
    repo.write("x/n.txt", "x\n")
    repo.git("add", "-N", "x/n.txt")
    repo.delete("x/n.txt")
    (repo.path / "x").rmdir()
    repo.write("x", "now a file\n")
    before, work = entries(repo), repo.snapshot()["files"]

    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    assert repo.git("ls-files").split() == ["a.txt", "x"] and repo.git("status", "--porcelain") == ""
    while session.applied:
        session.undo()

    assert entries(repo) == before
    assert repo.snapshot()["files"] == work
