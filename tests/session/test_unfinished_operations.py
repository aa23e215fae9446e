"""A merge, rebase, cherry-pick or revert under way, or unmerged paths in the index: the changes
are listed, grouped and planned, but no commit is made (session, CLI, MCP), and git is left as it was."""

from __future__ import annotations

import json

import pytest

from segmint_core.errors import UnfinishedOperationError
from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from tests.mcp.support import error, legacy
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo


def conflicting(repo: Repo) -> None:
    """``main`` and ``side`` each change a.py and b.py the other way, and other.py is edited, uncommitted."""
    repo.write("a.py", "a\nb\nc\n")
    repo.write("b.py", "1\n")
    repo.write("other.py", "x\n")
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "side")
    repo.write("a.py", "a\nSIDE\nc\n")
    repo.write("b.py", "side\n")
    repo.commit("side")
    repo.git("checkout", "-q", "main")
    repo.write("a.py", "a\nMAIN\nc\n")
    repo.write("b.py", "main\n")
    repo.commit("main")


def start(repo: Repo, operation: str) -> None:
    conflicting(repo)
    if operation == "merge":
        repo.git("merge", "side", check=False)
    elif operation == "cherry-pick":
        repo.git("cherry-pick", "side", check=False)
    elif operation == "revert":
        repo.git("revert", "--no-edit", "side", check=False)  # side's lines taken back where main changed them
    elif operation == "rebase":
        repo.git("checkout", "-q", "side")
        repo.git("rebase", "main", check=False)
    else:  # a stash popped onto changed lines: unmerged paths, no operation under way
        repo.git("checkout", "-q", "side")
        repo.write("a.py", "a\nSTASHED\nc\n")
        repo.write("b.py", "stashed\n")
        repo.git("stash", "-q")
        repo.git("checkout", "-q", "main")
        repo.git("stash", "pop", check=False)
    repo.write("other.py", "x\ny\n")


def everything(repo: Repo) -> dict[str, object]:
    """The work tree, and every byte under .git but Segmint's own folder."""
    git_dir = repo.path / ".git"
    files = {
        p.relative_to(git_dir).as_posix(): p.read_bytes()
        for p in sorted(git_dir.rglob("*"))
        if p.is_file() and "segmint" not in p.relative_to(git_dir).parts
    }
    return {**repo.snapshot(), "git": files}


EXPECTED = {
    "merge": "Cannot commit while a merge is in progress (unmerged: a.py, b.py); finish or abort it first",
    "cherry-pick": "Cannot commit while a cherry-pick is in progress (unmerged: a.py, b.py); finish or abort it first",
    "revert": "Cannot commit while a revert is in progress (unmerged: a.py, b.py); finish or abort it first",
    "rebase": "Cannot commit while a rebase is in progress (unmerged: a.py, b.py); finish or abort it first",
    "stash pop": "Cannot commit while the index holds unmerged paths (a.py, b.py); resolve the conflicts and "
    "stage the result (git add) first",
}


@pytest.mark.parametrize("operation", list(EXPECTED))
def test_planned_but_never_committed(repo: Repo, operation: str) -> None:
    start(repo, operation)
    session = Session.open(str(repo.path))
    assert {c.file_path: c.status for c in session.changes} == {
        "a.py": "conflicted",
        "b.py": "conflicted",
        "other.py": "modified",
    }
    session.regroup()
    plans = session.propose_commits()
    assert plans, "the changes are shown and planned"
    before = everything(repo)
    with pytest.raises(UnfinishedOperationError) as refused:
        session.apply_all()
    assert str(refused.value) == EXPECTED[operation]
    for plan in session.plans:  # the plan of other.py alone too, and a dry run
        with pytest.raises(UnfinishedOperationError, match="^Cannot commit while"):
            session.apply_commit(plan.id, dry_run=plan is plans[0])
    assert everything(repo) == before


def test_a_merge_resolved_but_not_committed_names_no_paths(repo: Repo) -> None:
    start(repo, "merge")
    repo.write("a.py", "a\nBOTH\nc\n")
    repo.write("b.py", "both\n")
    repo.add("a.py", "b.py")
    session = Session.open(str(repo.path))
    session.regroup()
    session.propose_commits()
    before = everything(repo)
    with pytest.raises(UnfinishedOperationError) as refused:
        session.apply_all()
    assert str(refused.value) == "Cannot commit while a merge is in progress; finish or abort it first"
    assert everything(repo) == before


def test_a_range_cherry_picked_between_two_commits_is_under_way(repo: Repo) -> None:
    # The first pick's conflict resolved and committed by hand: only .git/sequencer says more are to come.
    conflicting(repo)
    repo.git("checkout", "-q", "side")
    repo.write("c.py", "c\n")
    repo.commit("side again")
    repo.git("checkout", "-q", "main")
    repo.git("cherry-pick", "side~1", "side", check=False)
    repo.write("a.py", "a\nBOTH\nc\n")
    repo.write("b.py", "both\n")
    repo.commit("picked by hand")
    repo.write("other.py", "x\ny\n")
    session = Session.open(str(repo.path))
    session.regroup()
    session.propose_commits()
    before = everything(repo)
    with pytest.raises(UnfinishedOperationError, match="^Cannot commit while a cherry-pick or revert is in progress;"):
        session.apply_all()
    assert everything(repo) == before


def test_many_unmerged_paths_are_named_ten_and_counted(repo: Repo) -> None:
    names = [f"f{n:02}.txt" for n in range(12)]
    for name in names:
        repo.write(name, "base\n")
    repo.commit("base")
    for name in names:
        repo.write(name, "stashed\n")
    repo.git("stash", "-q")
    for name in names:
        repo.write(name, "committed\n")
    repo.commit("change")
    repo.git("stash", "pop", check=False)
    session = Session.open(str(repo.path))
    session.regroup()
    session.propose_commits()
    with pytest.raises(UnfinishedOperationError, match=r"\(f00.txt, f01.txt, .*, f09.txt and 2 more\);"):
        session.apply_all()


def test_undo_waits_for_the_merge_too(repo: Repo) -> None:
    conflicting(repo)
    repo.write("other.py", "x\ny\n")
    session = Session.open(str(repo.path))
    session.regroup()
    session.propose_commits()
    session.apply_all()
    repo.git("merge", "side", check=False)
    before = everything(repo)
    with pytest.raises(
        UnfinishedOperationError,
        match=r"^Cannot undo while a merge is in progress \(unmerged: a.py, "
        r"b.py\); finish or abort it first$",
    ):
        session.undo()
    assert everything(repo) == before


def test_the_command_line_says_so_in_one_line(repo: Repo) -> None:
    start(repo, "merge")
    commits = json.loads(run_segmint("plan", "--json", cwd=repo.path).stdout)["commits"]
    assert commits
    before = everything(repo)
    for args in (["apply", "--all"], ["apply", commits[-1]["id"]], ["apply", commits[-1]["id"], "--dry-run"]):
        result = run_segmint(*args, cwd=repo.path)
        assert_clean_error(result, f"segmint: {EXPECTED['merge']}\n")
        assert result.stdout == ""
    assert everything(repo) == before


async def test_an_agent_gets_a_tool_error(repo: Repo) -> None:
    start(repo, "merge")
    session = Session.open(str(repo.path))
    session.regroup()
    plans = session.propose_commits()
    before = everything(repo)
    async with legacy(build_server(session)) as client:
        for plan in plans:
            assert await error(client, "apply_commit", commit_id=plan.id) == EXPECTED["merge"]
    assert everything(repo) == before


WARNING = (
    "segmint: warning: A rebase is in progress with 2 conflicted files (a.py, b.py): nothing can be "
    "committed until they are resolved and staged (git add) and it is finished or aborted.\n"
)


@pytest.mark.parametrize("command", [["changes"], ["changes", "--json"], ["group"], ["plan"], ["pr"]])
def test_every_command_says_a_rebase_left_conflicts(repo: Repo, command: list[str]) -> None:
    start(repo, "rebase")
    result = run_segmint(*command, cwd=repo.path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == WARNING
    assert result.stdout, "and it still does its work"


def test_no_warning_without_conflicts(repo: Repo) -> None:
    conflicting(repo)
    repo.write("other.py", "x\ny\n")
    assert run_segmint("plan", cwd=repo.path).stderr == ""


async def test_the_tui_says_a_rebase_left_conflicts(repo: Repo) -> None:
    from tests.tui.support import notifications, running

    start(repo, "rebase")
    async with running(repo.path) as pilot:
        told = WARNING.removeprefix("segmint: warning: ").removesuffix(".\n")
        assert f"Conflicts: {told}" in notifications(pilot.app)
        assert pilot.app.sub_title.endswith(f" · ⚠ {told}")
        await pilot.press("p")  # proposing tells no more: the same files, already told of
        await pilot.pause()
        assert notifications(pilot.app).count(f"Conflicts: {told}") == 1
