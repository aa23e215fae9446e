"""The TUI shows the range being split and the commits fixes are absorbed into; its commit keys apply
both; an agent's split waits for the person's a, as its commit does."""

from __future__ import annotations

from segmint_core.rewrite import split
from segmint_core.session.session import Session
from tests.history.test_absorb import stack
from tests.history.test_split import linear, trees_and_messages
from tests.mcp.support import data
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle, until
from tests.tui.test_pairing import agent


async def test_the_header_shows_the_range_and_x_applies_the_split(repo: Repo) -> None:
    made = linear(repo)
    later = trees_and_messages(repo, "HEAD", 2)
    session = Session.open(str(repo.path))
    session.start_split("HEAD~2")  # by the command line, say, before the person opens the TUI
    async with running(repo.path, session=session) as pilot:
        app = pilot.app
        assert f"Splitting {made['mixed'][:7]} (1 commit)" in app.sub_title, "one commit: no X..X range"
        await pilot.press("2", "x")
        await until(pilot, lambda: repo.head() != made["head"], what="the split applied")
        assert repo.git("rev-parse", "HEAD^{tree}") == repo.git("rev-parse", f"{made['head']}^{{tree}}")
        assert trees_and_messages(repo, "HEAD", 2) == later
        await until(pilot, lambda: "Splitting" not in app.sub_title, what="the header without the split")
        assert any(n.startswith("Split into 2 commits: the branch is at") for n in notifications(app))
        await pilot.press("u")
        await until(pilot, lambda: repo.head() == made["head"], what="the split undone")


async def test_an_agents_split_waits_for_the_persons_a(repo: Repo) -> None:
    made = linear(repo)
    async with running(repo.path, mcp=True) as pilot:
        app = pilot.app
        async with agent(pilot) as client:
            await data(client, "propose_commits", split="HEAD~2")
            await until(pilot, lambda: "Splitting" in app.sub_title, what="the range in the header")
            asked = await data(client, "apply_commit", commit_id="split")
            assert asked["status"] == "awaiting_approval" and repo.head() == made["head"]
            await until(pilot, lambda: "the agent asks to apply it" in app.sub_title, what="the request shown")
            assert any("The agent asks to apply the split under way" in n for n in notifications(app))
            await pilot.press("2", "a")  # the person approves: the branch is rewritten
            await until(pilot, lambda: repo.head() != made["head"], what="the split applied")
            assert split.pending(app.session.git) is None
            assert repo.git("rev-parse", "HEAD^{tree}") == repo.git("rev-parse", f"{made['head']}^{{tree}}")


async def test_absorb_shows_its_targets_and_x_folds_the_fix_in(repo: Repo) -> None:
    made = stack(repo)
    async with running(repo.path) as pilot:
        app = pilot.app
        await app.screen.run_action("absorb")
        target = f"absorb into {made['first'][:7]} 'feat: parse'"
        await until(pilot, lambda: target in screen_text(app), what="the absorb target in the commits pane")
        assert f"absorb into {made['third'][:7]} 'feat: save'" in screen_text(app)
        fold = next(p for p in app.session.plans if p.title.startswith(target))
        await pilot.press("2")
        app.screen.commits.highlight(fold.id)
        await settle(pilot)
        await pilot.press("x")
        await until(pilot, lambda: repo.head() != made["third"], what="the fold")
        assert "parse = 33" in repo.git("show", "HEAD~2:app.py")
        assert repo.git("log", "-1", "--format=%s", "HEAD~2").strip() == "feat: parse"
