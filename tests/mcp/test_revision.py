"""``revision``: ids an agent read before the changes were re-read are refused, whoever re-read them."""

from __future__ import annotations

from segmint_core.session.session import Session
from tests.mcp.process import McpProcess
from tests.support.repo import Repo


def test_ids_made_stale_by_a_tui_in_another_process_are_refused(session: Session, dirty: Repo) -> None:
    # The agent's `segmint mcp` serves the session itself (it started before the TUI) ...
    with McpProcess(cwd=dirty.path) as agent:
        agent.initialize()
        state = agent.call(2, "get_session")["structuredContent"]
        read_at = state["changes_revision"]
        readme = next(c for c in state["changes"] if c["file_path"] == "README.md")
        dirty.write("AAA.txt", "new\n")  # sorts first: every change id moves up by one
        session.refresh()  # ... and the person's TUI re-reads the tree
        assert session.changes_revision != read_at
        assert readme["id"] in [c.id for c in session.changes if c.file_path == "AAA.txt"]
        stale = (
            f"IDs from revision {read_at} are stale: the changes were re-read at revision "
            f"{session.changes_revision}; list them again"
        )
        groups_before = session.snapshot()["groups"]
        for n, (tool, arguments) in enumerate(
            (("move_hunks", {"hunk_ids": readme["hunk_ids"], "new_group": True}), ("propose_commits", {}))
        ):
            refused = agent.call(3 + n, tool, revision=read_at, **arguments)
            assert (refused["isError"], refused["content"][0]["text"]) == (True, stale), tool
        assert Session.open(str(dirty.path)).snapshot()["groups"] == groups_before, "nothing moved"
        assert agent.close() == 0
        agent.assert_pure_json_rpc()
