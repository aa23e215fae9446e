"""``segmint split``: committed work re-planned by intent; the branch rewritten only when its final tree
is unchanged; refusals in one sentence; one undo takes it back; a kill at each step is recovered."""

from __future__ import annotations

import shutil
import signal
import subprocess

import pytest

from segmint_core.rewrite.split import SplitState
from segmint_core.session.session import Session
from tests.apply.test_interrupted import run_child
from tests.conftest import SHARED_DATA
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo


def linear(repo: Repo) -> dict[str, str]:
    """Base, then a commit mixing two intents (a feature in one file, docs in another), then two more."""
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("README.md", "# Calc\n")
    repo.write("other.txt", "other\n")
    repo.commit("base")
    base = repo.head()
    repo.write("calc.py", "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n")
    repo.write("README.md", "# Calc\n\n## Usage\n\nImport it.\n")
    repo.git("add", "-A")
    repo.git(
        "commit",
        "-q",
        "-m",
        "wip",
        env={
            "GIT_AUTHOR_NAME": "Ann",
            "GIT_AUTHOR_EMAIL": "ann@example.invalid",
            "GIT_AUTHOR_DATE": "2025-03-01T09:00:00+00:00",
        },
    )
    mixed = repo.head()
    repo.write("calc.py", repo.read("calc.py").decode() + "\n\ndef mul(a, b):\n    return a * b\n")
    repo.commit("feat: mul")
    repo.write("README.md", repo.read("README.md").decode() + "\nMore.\n")
    repo.commit("docs: more")
    return {"base": base, "mixed": mixed, "head": repo.head()}


def trees_and_messages(repo: Repo, rev: str, count: int) -> list[str]:
    """The last ``count`` commits' trees, authors, author dates and whole messages."""
    return repo.git("log", f"-{count}", "--format=%T|%an|%ae|%aI|%B%x00", rev).split("\x00")[:count]


def test_split_a_commit_in_the_middle_replays_the_later_ones_unchanged(repo: Repo) -> None:
    made = linear(repo)
    repo.write("other.txt", "dirty, not in the range\n")  # a dirty file the split does not touch
    files = repo.snapshot()["files"]
    index = repo.git("ls-files", "-s")
    later = trees_and_messages(repo, "HEAD", 2)
    out = run_segmint("split", "HEAD~2", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    assert f"Splitting {made['mixed'][:7]} (1 commit), then replaying 2 later commits" in out.stdout, out.stdout
    assert repo.head() == made["head"], "split only proposes"
    applied = run_segmint("apply", "--all", cwd=repo.path)
    assert applied.returncode == 0, applied.stderr
    assert repo.git("rev-parse", "HEAD^{tree}") == repo.git("rev-parse", f"{made['head']}^{{tree}}")
    assert trees_and_messages(repo, "HEAD", 2) == later, "the later commits keep their trees and messages"
    rows = repo.git("log", "--format=%an|%aI|%s", f"{made['base']}..HEAD~2").splitlines()
    assert len(rows) == 2 and all(r.startswith("Ann|2025-03-01T09:00:00+00:00|") for r in rows), rows
    assert repo.snapshot()["files"] == files and repo.git("ls-files", "-s") == index, "work tree and index untouched"
    assert not (repo.path / ".git" / "segmint" / "split").exists()

    undo = run_segmint("undo", cwd=repo.path)
    assert undo.returncode == 0, undo.stderr
    assert repo.head() == made["head"] and repo.git("ls-files", "-s") == index and repo.snapshot()["files"] == files


def test_a_range_is_named_as_git_names_it(repo: Repo) -> None:
    made = linear(repo)
    out = run_segmint("split", "HEAD~2..HEAD", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    # HEAD~2..HEAD is the two commits after `mixed`: "mixed..head", never "feat..head (2 commits)"
    assert f"Splitting {made['mixed'][:7]}..{made['head'][:7]} (2 commits)" in out.stdout, out.stdout
    from_root = SplitState(
        base=None, tip="c" * 40, head="c" * 40, ref="refs/heads/main", originals=["a" * 40, "c" * 40]
    )
    assert from_root.label == "ccccccc and every commit before it"


def test_after_a_split_the_pull_request_is_the_branchs_commits(repo: Repo) -> None:
    made = linear(repo)
    repo.git("update-ref", "refs/remotes/origin/main", made["base"])  # what the remote has
    assert run_segmint("split", "HEAD~2", cwd=repo.path).returncode == 0
    assert run_segmint("apply", "--all", cwd=repo.path).returncode == 0
    draft = run_segmint("pr", cwd=repo.path)
    assert draft.returncode == 0, draft.stderr
    on_branch = repo.git("log", "--reverse", "--format=%h %s", f"{made['base']}..HEAD").splitlines()
    listed = [line[2:] for line in draft.stdout.splitlines() if line.startswith("- `")]
    assert listed == [f"`{row.split()[0]}` {row.split(' ', 1)[1]}" for row in on_branch], draft.stdout
    assert len(listed) >= 3, "the split's commits and the two replayed after them"
    repo.git("update-ref", "-d", "refs/remotes/origin/main")  # nothing says where the branch began
    assert_clean_error(run_segmint("pr", "--new", cwd=repo.path), "No commits to describe")


def test_refusals_say_one_sentence_and_change_nothing(repo: Repo) -> None:
    made = linear(repo)
    repo.git("update-ref", "refs/remotes/origin/main", made["mixed"])
    assert_clean_error(run_segmint("split", "HEAD~2", cwd=repo.path), "is already pushed (origin/main)")
    assert run_segmint("split", "HEAD~2", "--force", cwd=repo.path).returncode == 0
    assert_clean_error(run_segmint("split", "HEAD~1", cwd=repo.path), "A split is already under way")
    assert run_segmint("split", "--abort", cwd=repo.path).returncode == 0
    repo.git("update-ref", "-d", "refs/remotes/origin/main")

    repo.write("calc.py", "changed\n")
    assert_clean_error(
        run_segmint("split", "HEAD~2", cwd=repo.path),
        "calc.py has uncommitted changes and is in the commits being split",
    )
    repo.git("checkout", "--", "calc.py")
    (repo.path / ".git" / "rebase-merge").mkdir()
    assert_clean_error(run_segmint("split", "HEAD~2", cwd=repo.path), "A rebase is under way")
    (repo.path / ".git" / "rebase-merge").rmdir()
    repo.git("checkout", "-q", "--detach")
    assert_clean_error(run_segmint("split", "HEAD~2", cwd=repo.path), "HEAD is detached")
    repo.git("checkout", "-q", "main")
    repo.git("checkout", "-q", "-b", "side", made["base"])
    repo.write("side.txt", "side\n")
    repo.commit("side")
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
    assert_clean_error(run_segmint("split", f"{made['base']}..HEAD", cwd=repo.path), "is a merge")
    assert repo.git("status", "--porcelain") == ""


def test_a_hook_that_changes_the_tree_is_refused_and_nothing_moves(repo: Repo) -> None:
    made = linear(repo)
    hook = repo.path / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho sneaked >> other.txt\ngit add other.txt\n")
    hook.chmod(0o755)
    assert run_segmint("split", "HEAD~2", cwd=repo.path).returncode == 0
    out = run_segmint("apply", "--all", cwd=repo.path)
    assert out.returncode in (2, 3), out
    assert repo.head() == made["head"], "the branch did not move"


@pytest.mark.parametrize(
    "point,said", [("split-before-move", "rolled it back"), ("split-before-record", "finished applying")]
)
def test_a_killed_split_is_rolled_back_or_finished(repo: Repo, point: str, said: str) -> None:
    made = linear(repo)
    files = repo.snapshot()["files"]
    Session.open(str(repo.path)).start_split("HEAD~2")
    assert run_child(repo, point).returncode == -signal.SIGKILL
    session = Session.open(str(repo.path))
    assert len(session.recovered) == 1 and said in session.recovered[0], session.recovered
    assert repo.git("rev-parse", "HEAD^{tree}") == repo.git("rev-parse", f"{made['head']}^{{tree}}")
    if said == "rolled it back":
        assert repo.head() == made["head"]
        session.apply_split()  # the next apply --all finishes the split
    assert repo.head() != made["head"] and repo.snapshot()["files"] == files
    assert not (repo.path / ".git" / "segmint" / "split").exists()
    session = Session.open(str(repo.path))
    session.undo()
    assert repo.head() == made["head"]


@pytest.mark.parametrize("point", ["split-starting", "split-planning", "split-committing", "split-replaying"])
def test_a_split_killed_at_any_other_step_is_carried_on_by_the_next_command(repo: Repo, point: str) -> None:
    made = linear(repo)
    files, index = repo.snapshot()["files"], repo.git("ls-files", "-s")
    later = trees_and_messages(repo, "HEAD", 2)
    if point not in ("split-starting", "split-planning"):
        Session.open(str(repo.path)).start_split("HEAD~2")
    assert run_child(repo, point).returncode == -signal.SIGKILL
    assert repo.head() == made["head"], "the branch never moves before the final tree is checked"
    assert repo.snapshot()["files"] == files and repo.git("ls-files", "-s") == index
    if point == "split-starting":  # no marker yet: nothing is under way, and the split starts again
        assert run_segmint("split", "HEAD~2", cwd=repo.path).returncode == 0
    applied = run_segmint("apply", "--all", cwd=repo.path)  # the next command finishes the split
    assert applied.returncode == 0, applied.stderr
    if point == "split-starting":
        assert applied.stderr == ""
    else:  # and says so, in one line on stderr
        doing = "planning" if point == "split-planning" else "applying"
        assert applied.stderr == (
            f"segmint: Segmint found the split of {made['mixed'][:7]} interrupted while {doing} it; it is still "
            "under way, and `segmint apply --all` carries it on from where it stopped.\n"
        ), applied.stderr
    assert repo.head() != made["head"] and trees_and_messages(repo, "HEAD", 2) == later
    assert repo.git("rev-parse", "HEAD^{tree}") == repo.git("rev-parse", f"{made['head']}^{{tree}}")
    assert int(repo.git("rev-list", "--count", f"{made['base']}..HEAD")) == 4
    assert not (repo.path / ".git" / "segmint" / "split").exists()
    assert repo.git("worktree", "list", "--porcelain").count("worktree ") == 1, "the scratch tree is gone"
    session = Session.open(str(repo.path))
    session.undo()
    assert repo.head() == made["head"] and repo.snapshot()["files"] == files


def test_split_commit_n_minus_3_of_a_real_history(tmp_path) -> None:
    repo = _real_commit(tmp_path, "click", "HEAD")
    rows = repo.git("rev-list", "--first-parent", "--parents", "HEAD").splitlines()
    run = 0
    for row in rows:  # the first line of four single-parent commits, the newest first
        run = run + 1 if len(row.split()) == 2 else 0
        if run == 4:
            break
    start = rows[rows.index(row) - 3].split()[0]
    repo.git("checkout", "-q", "-B", "work", start)
    later = trees_and_messages(repo, "HEAD", 3)
    head_tree = repo.git("rev-parse", "HEAD^{tree}")
    assert run_segmint("split", "HEAD~3", "--force", cwd=repo.path).returncode == 0
    done = run_segmint("apply", "--all", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert trees_and_messages(repo, "HEAD", 3) == later
    assert repo.git("rev-parse", "HEAD^{tree}") == head_tree
    assert repo.git("status", "--porcelain") == ""
    shutil.rmtree(repo.path)


def test_a_line_left_over_by_committing_parts_is_committed_too_so_the_tree_is_identical(tmp_path) -> None:
    """click 0859d19: its hunk cut in parts and committed part by part leaves a blank line git then places
    elsewhere; the split plans and commits that too rather than refusing for a tree that differs."""
    repo = _real_commit(tmp_path, "click", "0859d19c5b29ac9cf2895e06e91312b627e6e692")
    tree = repo.git("rev-parse", "HEAD^{tree}")
    assert run_segmint("split", "HEAD", "--force", cwd=repo.path).returncode == 0
    done = run_segmint("apply", "--all", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert repo.git("rev-parse", "HEAD^{tree}") == tree
    assert int(repo.git("rev-list", "--count", "0859d19c^..HEAD")) >= 2, "split into commits"
    assert repo.git("status", "--porcelain") == ""


def test_a_submodule_the_range_moves_is_committed_too(repo: Repo) -> None:
    """A submodule's work tree is not checked out in the split's scratch tree, so no plan holds its move:
    it is committed after the plans, and the final tree is the original's."""
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.commit("base")
    base = repo.head()
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{base},vendor/lib")
    repo.git("commit", "-q", "-m", "add the submodule")
    repo.write("calc.py", "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n")
    repo.git("add", "calc.py")
    repo.git("update-index", "--cacheinfo", f"160000,{repo.head()},vendor/lib")
    repo.git("commit", "-q", "-m", "sub, and the submodule moved")
    tip = repo.head()
    (repo.path / "vendor" / "lib").mkdir(parents=True)  # as a clone leaves a submodule not checked out
    assert repo.git("status", "--porcelain") == ""
    assert run_segmint("split", "HEAD", cwd=repo.path).returncode == 0
    done = run_segmint("apply", "--all", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert repo.git("rev-parse", "HEAD^{tree}") == repo.git("rev-parse", f"{tip}^{{tree}}")
    assert repo.git("log", "-1", "--format=%s").strip() == "Move submodule vendor/lib"
    assert "vendor/lib" not in repo.git("diff-tree", "-r", "--name-only", "HEAD~1")


def test_a_plan_left_out_of_date_by_the_parts_before_it_is_planned_again(tmp_path) -> None:
    """fd 4fea5f3: once its first part is committed, the next plan of the same hunk is out of date; the
    split plans what is left again and commits it, rather than stopping half-way."""
    repo = _real_commit(tmp_path, "fd", "4fea5f3a")
    tree = repo.git("rev-parse", "HEAD^{tree}")
    assert run_segmint("split", "HEAD", "--force", cwd=repo.path).returncode == 0
    done = run_segmint("apply", "--all", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert repo.git("rev-parse", "HEAD^{tree}") == tree
    assert repo.git("status", "--porcelain") == ""


def _real_commit(tmp_path, history: str, rev: str) -> Repo:
    """A clone of ``../shared/data``'s ``history`` with ``rev`` checked out on a branch; skipped without it."""
    bundle = SHARED_DATA / f"{history}.bundle"
    if not bundle.exists():
        pytest.skip(f"needs {bundle} (real history)")
    path = tmp_path / history
    subprocess.run(["git", "clone", "-q", str(bundle), str(path)], check=True)
    repo = Repo(path, init=False)
    repo.git("checkout", "-q", "-B", "work", rev)
    return repo


def _files_by_commit(repo: Repo, span: str) -> set[frozenset[str]]:
    rows = repo.git("log", "--format=%x00", "--name-only", span).split("\x00")[1:]
    return {frozenset(row.split()) for row in rows}


def _messages(repo: Repo, span: str) -> set[str]:
    return {m.strip() for m in repo.git("log", "--format=%B%x00", span).split("\x00") if m.strip()}


def test_a_range_of_clean_commits_followed_comes_back_as_its_commits(tmp_path) -> None:
    # cobra's last three: a completion fix with its test, a new args validator with tests and docs,
    # a CI and lint change. Without the commits as evidence the fix joins the validator ("Errorf").
    repo = _real_commit(tmp_path, "cobra", "adbc8813901bba65827259daa8e22ff94ec1f30e")
    originals = _files_by_commit(repo, "HEAD~3..HEAD")
    messages = _messages(repo, "HEAD~3..HEAD")
    subjects = repo.git("log", "--format=%s", "HEAD~3..HEAD")
    planned = run_segmint("split", "HEAD~3..HEAD", "--force", "--follow-commits", cwd=repo.path)
    assert planned.returncode == 0
    assert "commit-1  proposed      2  fix: prevent completions" in planned.stdout, "the range's order, numbered so"
    done = run_segmint("apply", "--all", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert _files_by_commit(repo, "HEAD~3..HEAD") == originals
    assert _messages(repo, "HEAD~3..HEAD") == messages, "a commit made again whole keeps its message"
    assert repo.git("log", "--format=%s", "HEAD~3..HEAD") == subjects, "in the order they were made"
    assert repo.git("rev-parse", "HEAD^{tree}") == repo.git("rev-parse", "adbc881^{tree}")
    shutil.rmtree(repo.path)


def priced_then_explained(repo: Repo) -> None:
    """Two clean commits on a base: one across two files, one in the docs."""
    repo.write("shop/cart.py", "TOTAL = 0\n")
    repo.write("shop/tax.py", "RATE = 1\n")
    repo.write("docs/guide.md", "# Guide\n")
    repo.commit("base")
    repo.write("shop/cart.py", "TOTAL = 0\nCURRENCY = 'EUR'\n")
    repo.write("shop/tax.py", "RATE = 1\nROUNDING = 2\n")
    repo.commit("Price in euros, rounded")
    repo.write("docs/guide.md", "# Guide\n\nHow to shop.\n")
    repo.commit("Explain shopping")


def test_a_ranges_commits_are_evidence_only_when_followed(repo: Repo) -> None:
    priced_then_explained(repo)
    session = Session.open(str(repo.path))
    alone = [reason for group in session.start_split("HEAD~2..HEAD").groups for reason in group.reasons]
    assert not any("commit of the range" in r for r in alone), "without --follow-commits: the change alone"
    session.abort_split()
    inner = session.start_split("HEAD~2..HEAD", follow_commits=True)
    reasons = [reason for group in inner.groups for reason in group.reasons]
    assert any(
        r.startswith("written in one commit of the range, ") and "'Price in euros, rounded'" in r for r in reasons
    ), reasons
