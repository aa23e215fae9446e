"""An agent splits committed work and absorbs fixes over MCP; with a person present, the rewrite
waits for their approval exactly as an agent's commit does."""

from __future__ import annotations

from mcp.server import MCPServer

from segmint_core.mcp.server import build_server
from segmint_core.rewrite import split
from segmint_core.session.session import Session
from tests.history.test_absorb import stack
from tests.history.test_split import linear, priced_then_explained, trees_and_messages
from tests.mcp.support import call, data, legacy, text
from tests.support.repo import Repo


def served(repo: Repo) -> tuple[Session, MCPServer]:
    session = Session.open(str(repo.path))
    return session, build_server(session)


async def test_an_agent_splits_a_commit_in_the_middle_then_undoes_it(repo: Repo) -> None:
    made = linear(repo)
    later = trees_and_messages(repo, "HEAD", 2)
    session, server = served(repo)
    async with legacy(server) as client:
        plans = (await data(client, "propose_commits", split="HEAD~2"))["commits"]
        assert len(plans) == 2 and {p["status"] for p in plans} == {"proposed"}
        assert repo.head() == made["head"], "proposing rewrites nothing"
        again = await call(client, "propose_commits", split="HEAD~1")
        assert again.is_error and text(again).startswith("A split is already under way")
        done = await data(client, "apply_commit", commit_id="split")
        assert done["status"] == "applied" and done["success"] and done["sha"] == repo.head() != made["head"]
        assert repo.git("rev-parse", "HEAD^{tree}") == repo.git("rev-parse", f"{made['head']}^{{tree}}")
        assert trees_and_messages(repo, "HEAD", 2) == later
        assert int(repo.git("rev-list", "--count", f"{made['base']}..HEAD")) == 4
        undone = await data(client, "undo")
        assert repo.head() == made["head"] and undone["head"] == made["head"]
        none = await call(client, "apply_commit", commit_id="split")
        assert none.is_error and text(none).startswith("No split is under way")


async def test_an_agent_splits_a_range_with_its_commits_as_evidence(repo: Repo) -> None:
    priced_then_explained(repo)
    session, server = served(repo)
    async with legacy(server) as client:
        await data(client, "propose_commits", split="HEAD~2..HEAD")
        assert not split.pending(session.git).follow_commits
        session.abort_split()
        await data(client, "propose_commits", split="HEAD~2..HEAD", follow_commits=True)
        assert split.pending(session.git).follow_commits, "as `segmint split --follow-commits`"
        session.abort_split()
        refused = await call(client, "propose_commits", split="HEAD~2..HEAD", follow_commits="yes")
        assert refused.is_error


async def test_with_a_person_present_an_agents_split_waits_for_their_approval(repo: Repo) -> None:
    made = linear(repo)
    session, server = served(repo)
    session.set_presence(person_present=True)
    async with legacy(server) as client:
        await data(client, "propose_commits", split="HEAD~2")
        asked = await data(client, "apply_commit", commit_id="split")
        assert asked["status"] == "awaiting_approval" and not asked["success"]
        assert "waiting for the person's approval" in asked["message"]
        assert repo.head() == made["head"] and split.pending(session.git).awaiting
        state = await data(client, "get_session")
        assert state["activity"][-1]["action"] == "requested"
    session.apply_split()  # the person approves it (the TUI's a)
    assert repo.head() != made["head"] and split.pending(session.git) is None
    assert repo.git("rev-parse", "HEAD^{tree}") == repo.git("rev-parse", f"{made['head']}^{{tree}}")


async def test_a_pushed_commit_is_refused_to_an_agent_in_one_sentence(repo: Repo) -> None:
    made = linear(repo)
    repo.git("update-ref", "refs/remotes/origin/main", made["mixed"])
    session, server = served(repo)
    async with legacy(server) as client:
        refused = await call(client, "propose_commits", split="HEAD~2")
        assert refused.is_error and "is already pushed (origin/main)" in text(refused)
    assert split.pending(session.git) is None and repo.head() == made["head"]


async def test_an_agents_absorb_waits_for_the_persons_approval_then_folds(repo: Repo) -> None:
    made = stack(repo)
    session, server = served(repo)
    session.set_presence(person_present=True)
    async with legacy(server) as client:
        plans = (await data(client, "propose_commits", absorb=True))["commits"]
        fold = next(p for p in plans if p["title"].startswith(f"absorb into {made['first'][:7]} 'feat: parse'"))
        asked = await data(client, "apply_commit", commit_id=fold["id"])
        assert asked["status"] == "awaiting_approval" and repo.head() == made["third"]
    session.approve([fold["id"]])
    session.apply_commit(fold["id"])  # the person's approval commits it (the TUI's a)
    assert repo.head() != made["third"]
    assert "parse = 33" in repo.git("show", "HEAD~2:app.py"), "folded into the first unpushed commit"
    assert repo.git("log", "-1", "--format=%s", "HEAD~2").strip() == "feat: parse"
