"""Rare tree states the generated repositories of issue 34 met: intent-to-add files moved, deleted or
made links, generated files added with -N or replaced by folders, staged entries with no net change,
line-ending-only differences git normalizes, and files where folders were. Each is planned, applied
and undone on a real repository: what is committed, what the index keeps, and the work tree untouched."""

from __future__ import annotations

import pytest

from segmint_core.apply.commit import NothingToCommit, Selection, apply_selection
from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.session.session import Session
from tests.support.cli import assert_clean_error, run_segmint
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


def based(repo: Repo, files: dict[str, str] | None = None) -> str:
    """a.txt and ``files`` committed; the commit."""
    repo.write("a.txt", "a\n")
    for name, text in (files or {}).items():
        repo.write(name, text)
    return repo.commit("base")


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
    based(repo, {path: "one\n"})
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


def segmint(repo: Repo, *args: str):
    return run_segmint(*args, "--repo", str(repo.path))


def test_an_intent_to_add_file_moved_commits_the_new_file_and_keeps_the_entry(repo: Repo) -> None:
    # Issue 34: echo x > n.txt; git add -N n.txt; mv n.txt m.txt; segmint plan; segmint apply --all
    based(repo)
    repo.write("n.txt", "x\n")
    repo.git("add", "-N", "n.txt")
    (repo.path / "n.txt").rename(repo.path / "m.txt")
    work, before = repo.snapshot()["files"], index(repo)

    assert segmint(repo, "plan").returncode == 0
    applied = segmint(repo, "apply", "--all")

    assert applied.returncode == 0, applied.stderr
    assert "n.txt" not in applied.stdout.split("Not committed")[0], "no commit claims the moved entry"
    assert tree(repo) == {**tree(repo, "HEAD~1"), "m.txt": f"100644 {repo.git('hash-object', 'm.txt').strip()}"}
    assert sorted(index(repo)) == sorted(
        before + [(f"100644 {repo.git('hash-object', 'm.txt').strip()} 0\tm.txt", "0")]
    )
    assert repo.snapshot()["files"] == work
    assert segmint(repo, "undo").returncode == 0
    assert index(repo) == before


def test_an_intent_to_add_file_deleted_gets_no_plan_and_apply_says_why(repo: Repo) -> None:
    based(repo)
    repo.write("n.txt", "x\n")
    repo.git("add", "-N", "n.txt")
    repo.delete("n.txt")
    state = repo.snapshot()

    plan = segmint(repo, "plan")
    applied = segmint(repo, "apply", "--all")

    assert "No commits planned." in plan.stdout and "group-1 (n.txt) has nothing to commit" in plan.stdout
    assert "plan --new" not in plan.stdout, "proposing again would not plan it either"
    assert_clean_error(applied, "Nothing to commit: group-1 (n.txt) has nothing to commit")
    assert "git restore --staged -- n.txt" in applied.stderr
    assert repo.snapshot() == state


@pytest.mark.parametrize("normalized", ["core.autocrlf", "text=auto"])
def test_git_rm_cached_of_a_file_differing_only_in_line_endings_commits_the_rest(repo: Repo, normalized: str) -> None:
    # Issue 34: a file git stores as HEAD has it, line endings aside, removed from the index only:
    # no plan commits it, the other plans apply, and its staged removal stays staged.
    if normalized == "core.autocrlf":
        repo.git("config", "core.autocrlf", "true")
    else:
        repo.write(".gitattributes", "* text=auto\n")
    base = based(repo, {"docs/f.txt": "one\ntwo\n", "src/m.py": "def a():\n    return 1\n"})
    repo.write("docs/f.txt", "one\r\ntwo\r\n")
    repo.git("rm", "-q", "--cached", "docs/f.txt")
    repo.write("src/m.py", "def a():\n    return 2\n")
    repo.write("a.txt", "a\nmore\n")
    work, before = repo.snapshot()["files"], index(repo)

    plan = segmint(repo, "plan")
    applied = segmint(repo, "apply", "--all")

    assert applied.returncode == 0, applied.stderr
    assert "docs/f.txt (+" not in applied.stdout
    assert "docs/f.txt" in plan.stdout, "the plan says what it leaves"
    assert repo.git("diff", "--name-only", base, "HEAD").split() == ["a.txt", "src/m.py"]
    assert [e for e in index(repo) if e[0].endswith("docs/f.txt")] == [], "its removal is still staged"
    assert repo.git("show", "HEAD:docs/f.txt") == "one\ntwo\n"
    assert repo.snapshot()["files"] == work
    while segmint(repo, "undo").returncode == 0:
        pass
    assert index(repo) == before


def test_a_staged_file_whose_folder_became_a_file_goes_with_that_file(repo: Repo) -> None:
    # Issue 34: mkdir tests; echo 'def test_a(): pass' > tests/test_a.py; git add -A; rm -rf tests;
    # echo x > tests; segmint plan; segmint apply --all
    based(repo)
    repo.write("tests/test_a.py", "def test_a(): pass\n")
    repo.add()
    repo.delete("tests/test_a.py")
    (repo.path / "tests").rmdir()
    repo.write("tests", "x\n")
    work, before = repo.snapshot()["files"], index(repo)

    plan = segmint(repo, "plan")
    applied = segmint(repo, "apply", "--all")

    assert "Takes tests/test_a.py out of the index" in plan.stdout
    assert applied.returncode == 0, applied.stderr
    assert tree(repo) == {
        "a.txt": tree(repo, "HEAD~1")["a.txt"],
        "tests": f"100644 {repo.git('hash-object', 'tests').strip()}",
    }
    assert repo.git("status", "--porcelain") == ""
    assert repo.snapshot()["files"] == work
    assert segmint(repo, "undo").returncode == 0
    assert index(repo) == before, "the staged tests/test_a.py is back in the index"


def test_a_staged_file_deleted_again_stays_staged_beside_a_real_change(repo: Repo) -> None:
    # Issue 34: a new file staged, then deleted, grouped with a real change: it is not unstaged.
    based(repo)
    repo.write("s.txt", "new\n")
    repo.add("s.txt")
    repo.delete("s.txt")
    repo.write("a.txt", "a\nmore\n")
    work, before = repo.snapshot()["files"], index(repo)
    staged = [e for e in before if e[0].endswith("\ts.txt")]

    session = Session.open(str(repo.path))
    session.regroup()
    if len(session.groups) > 1:
        session.merge_groups([g.id for g in session.groups])
    (plan,) = session.propose_commits()
    assert "Leaves s.txt staged as it is in the index" in (plan.note or "")
    (outcome,) = session.apply_all()

    assert [f["path"] for f in outcome.files] == ["a.txt"]
    assert tree(repo) == {"a.txt": f"100644 {repo.git('hash-object', 'a.txt').strip()}"}
    assert [e for e in index(repo) if e[0].endswith("\ts.txt")] == staged
    assert repo.snapshot()["files"] == work
    assert [u.nothing for u in session.unplanned()] == [True]
    undone(session, repo, before)


def test_a_selection_that_commits_nothing_names_its_files(repo: Repo) -> None:
    # Issue 34: "Nothing to commit ..." named no plan and no file.
    based(repo)
    repo.write("n.txt", "x\n")
    repo.git("add", "-N", "n.txt")
    repo.delete("n.txt")
    state = repo.snapshot()
    git = Git.discover(repo.path)
    changes = capture(git)
    (change,) = changes.changes
    with pytest.raises(
        NothingToCommit, match=r"^Nothing to commit: commit-7 leaves HEAD's files as they are \(n\.txt: "
    ):
        apply_selection(git, changes, Selection(whole={change.id}), "remove n.txt\n", label="commit-7")
    assert repo.snapshot() == state
