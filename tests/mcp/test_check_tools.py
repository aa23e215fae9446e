"""check_commits and fix_commits for agents, through the real SDK client; each plan's check in
propose_commits and get_session."""

from __future__ import annotations

from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from tests.checking.conftest import user_before_definer
from tests.mcp.support import data, error, legacy
from tests.support.repo import Repo


async def test_an_agent_checks_the_commits_and_fixes_the_one_that_fails(repo: Repo) -> None:
    session = user_before_definer(repo)
    first, second = [p.id for p in session.plans]
    async with legacy(build_server(session)) as client:
        checked = await data(client, "check_commits")
        assert [(c["commit_id"], c["status"]) for c in checked["commits"]] == [(first, "failed"), (second, "passed")]
        assert checked["commits"][0]["needs"] == [second]
        plans = (await data(client, "get_session"))["plans"]
        assert [p["check"]["status"] for p in plans] == ["failed", "passed"]

        fixed = await data(client, "check_commits", fix=True)
        assert fixed["fixed"] == f"merge {first} with {second}, which it needs"
        assert [c["status"] for c in fixed["commits"]] == ["passed"] and fixed["ok"] is True
        (merged,) = (await data(client, "get_session"))["plans"]
        assert merged["check"]["status"] == "passed"

        proposed = (await data(client, "propose_commits"))["commits"]
        assert [p["check"]["status"] for p in proposed] == ["passed"]
    assert len(Session.open(str(repo.path)).plans) == 1


async def test_a_command_from_the_repository_is_refused_until_the_person_allows_it(repo: Repo, tmp_path) -> None:
    marker = tmp_path / "ran"
    session = user_before_definer(repo, f'[tool.segmint]\ncheck = "touch {marker}"\n')
    async with legacy(build_server(session)) as client:
        said = await error(client, "check_commits")
        assert "segmint check --allow" in said
        assert (await error(client, "check_commits", fix=True)) == said
    assert not marker.exists()
