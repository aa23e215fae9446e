"""Bad input gets a JSON-RPC or tool error, and the server answers the next request."""

from __future__ import annotations

import pytest
from mcp.server import MCPServer
from mcp.shared.exceptions import MCPError

from segmint_core.session.session import Session
from tests.mcp.embedded_thread import EmbeddedThread
from tests.mcp.process import McpProcess
from tests.mcp.support import data, error, legacy
from tests.support.repo import Repo


def test_bad_input_then_a_good_request(dirty: Repo) -> None:
    with McpProcess(cwd=dirty.path) as server:
        server.initialize()
        checks = 0

        def still_serving() -> None:
            nonlocal checks
            checks += 1
            answer = server.request(f"ok-{checks}", "tools/list", {})
            assert answer["result"]["tools"], answer

        server.send(b"{this is not json\n")
        assert server.answer(None)["error"] == {
            "code": -32700,
            "message": "Parse error",
            "data": "the line is not valid JSON",
        }
        still_serving()
        for invalid in (b"[1, 2]\n", b'"text"\n', b'{"jsonrpc": "2.0"}\n'):
            server.send(invalid)
            assert server.answer(None)["error"]["code"] == -32600
            still_serving()
        server.send(b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": "x"}\n')
        assert server.answer(7)["error"]["code"] == -32600
        assert server.request(8, "no/such/method", {})["error"] == {
            "code": -32601,
            "message": "Method not found",
            "data": "no/such/method",
        }
        still_serving()
        assert server.request("p", "prompts/get", {"name": "no_such_prompt"})["error"] == {
            "code": -32602,
            "message": "Unknown prompt: no_such_prompt",
        }
        unknown = server.call(9, "no_such_tool")
        assert (unknown["isError"], unknown["content"][0]["text"]) == (True, "Unknown tool: no_such_tool")
        wrong = server.call(10, "group_changes", change_ids=5)
        assert (
            wrong["content"][0]["text"]
            == "Invalid arguments for group_changes: change_ids: Input should be a valid list"
        )
        missing = server.call(11, "apply_commit")
        assert missing["content"][0]["text"] == "Invalid arguments for apply_commit: commit_id: Field required"
        still_serving()
        huge_summary = server.call(12, "update_group", group_id="group-1", summary="x" * 3_000_000)
        assert (
            huge_summary["isError"]
            and "String should have at most 2000 characters" in huge_summary["content"][0]["text"]
        )
        many_ids = server.call(13, "move_hunks", hunk_ids=[f"change-1:{n}" for n in range(20_000)], new_group=True)
        assert many_ids["isError"] and "List should have at most 10000 items" in many_ids["content"][0]["text"]
        server.send(
            b'{"jsonrpc":"2.0","id":14,"method":"tools/list","params":{"pad":"' + b"y" * (33 * 1024 * 1024) + b'"}}\n'
        )
        assert server.answer(None)["error"] == {
            "code": -32600,
            "message": "Invalid Request",
            "data": "message over 33554432 bytes",
        }
        still_serving()
        assert server.close() == 0
        server.assert_pure_json_rpc()
        assert "Traceback" not in server.stderr()


def test_any_line_is_answered_and_end_of_input_ends_the_server(dirty: Repo) -> None:
    with McpProcess(cwd=dirty.path) as server:
        answers_every_line_then_ends(server)


def test_a_relay_to_the_tui_answers_every_line_too(session: Session, dirty: Repo) -> None:
    with EmbeddedThread(session), McpProcess(cwd=dirty.path) as relay:
        assert relay.initialize()["result"]["serverInfo"]["name"] == "segmint"
        assert relay.call(2, "get_session")["structuredContent"]["person_present"] is True
        answers_every_line_then_ends(relay, initialize=False)


def answers_every_line_then_ends(server: McpProcess, initialize: bool = True) -> None:
    if initialize:
        server.initialize()
    server.send(b"[" * 1000 + b"\n")
    assert server.answer(None)["error"] == {
        "code": -32700,
        "message": "Parse error",
        "data": "the line is nested too deeply to read",
    }
    assert server.request("after-brackets", "tools/list", {})["result"]["tools"]
    deep = b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"arguments":' + b"[" * 300 + b"]" * 300 + b"}}\n"
    server.send(deep)
    assert server.answer(5)["error"]["code"] == -32600
    for bad_id, kind in (
        (b"{}", "an object"),
        (b"true", "a boolean"),
        (b"1e400", "a number with a fraction or exponent"),
        (b"[1]", "an array"),
        (b"1.5", "a number with a fraction or exponent"),
        (b"null", "null"),
    ):
        server.send(b'{"jsonrpc":"2.0","id":' + bad_id + b',"method":"tools/list","params":{}}\n')
        assert server.answer(None)["error"] == {
            "code": -32600,
            "message": "Invalid Request",
            "data": f"a request id must be a string or an integer, not {kind}",
        }
        assert server.request(f"after-{kind}", "tools/list", {})["result"]["tools"]
    assert server.close() == 0
    server.assert_pure_json_rpc()
    assert "Traceback" not in server.stderr()


async def test_a_nul_byte_in_a_path_is_a_clear_error(server: MCPServer, dirty: Repo) -> None:
    diff = str(dirty.path / "so\0me.diff")
    async with legacy(server) as client:
        for tool, extra in (
            ("load_diff", {}),
            ("list_chunks", {}),
            ("get_chunk", {"chunk_number": 1}),
            ("find_chunks_for_files", {"pattern": "*"}),
            ("get_file_diff", {"file_path": "x.py"}),
        ):
            assert await error(client, tool, absolute_file_path=diff, **extra) == (
                "absolute_file_path cannot hold a NUL byte: no file name can."
            )
        assert await error(client, "configure_project", path=str(dirty.path / "\0src")) == (
            "path cannot hold a NUL byte: no folder name can."
        )
        await data(client, "configure_project", path=str(dirty.path))
        for filepath in ("README\0.md", str(dirty.path / "README\0.md")):
            assert await error(client, "get_file_trajectory", filepath=filepath) == (
                "filepath cannot hold a NUL byte: no file name can."
            )
        assert (await data(client, "get_file_trajectory", filepath="README.md"))["filepath"] == "README.md"


def test_a_file_name_that_is_not_utf_8_is_sent_escaped_and_the_server_serves_on(repo: Repo) -> None:
    repo.write("base.txt", "base\n")
    repo.commit()
    repo.write("caf\udce9.txt", "x\n")  # the name's byte 0xe9 is Latin-1, not UTF-8
    with McpProcess(cwd=repo.path) as server:
        server.initialize()
        session = server.call(2, "get_session")["structuredContent"]
        assert [c["file_path"] for c in session["changes"]] == ["caf\\xe9.txt"]
        assert not server.call(3, "configure_project", path=str(repo.path))["isError"]
        timeline = server.call(4, "get_global_trajectory")
        assert "`caf\\xe9.txt` (new)" in timeline["content"][0]["text"]
        assert server.request(5, "tools/list", {})["result"]["tools"]
        assert server.close() == 0
        server.assert_pure_json_rpc()


def test_a_file_name_that_is_not_utf_8_is_sent_escaped_by_the_tui_too(repo: Repo) -> None:
    repo.write("base.txt", "base\n")
    repo.commit()
    repo.write("caf\udce9.txt", "x\n")  # the name's byte 0xe9 is Latin-1, not UTF-8
    session = Session.open(str(repo.path))
    with EmbeddedThread(session), McpProcess(cwd=repo.path) as relay:  # the TUI's server, over HTTP
        relay.initialize()
        assert [c["file_path"] for c in relay.call(2, "get_session")["structuredContent"]["changes"]] == [
            "caf\\xe9.txt"
        ]
        assert not relay.call(3, "configure_project", path=str(repo.path))["isError"]
        timeline = relay.call(4, "get_global_trajectory")
        assert not timeline.get("isError") and "`caf\\xe9.txt` (new)" in timeline["content"][0]["text"]
        assert relay.close() == 0
        relay.assert_pure_json_rpc()


def test_a_huge_argument_through_the_relay_gets_the_tool_error_the_headless_server_gives(
    session: Session, dirty: Repo
) -> None:
    """Joined to the TUI, a line the stdio reader takes (up to 32 MB) reaches the TUI's server whole."""
    with EmbeddedThread(session), McpProcess(cwd=dirty.path) as relay:
        relay.initialize()
        huge = relay.call(2, "update_group", group_id="group-1", summary="x" * 10_000_000)
        assert huge["isError"] and huge["content"][0]["text"] == (
            "Invalid arguments for update_group: summary: String should have at most 2000 characters"
        )
        assert relay.call(3, "get_session")["structuredContent"]["person_present"] is True, "still joined"
        assert relay.close() == 0
        relay.assert_pure_json_rpc()


async def test_bad_prompt_arguments_are_named_and_a_huge_focus_is_refused(server: MCPServer) -> None:
    async with legacy(server) as client:
        with pytest.raises(MCPError) as unknown:
            await client.get_prompt("split_my_changes", {"scope": "parser"})
        assert (unknown.value.error.code, unknown.value.error.message) == (
            -32602,
            "Invalid arguments for split_my_changes: scope: Unexpected keyword argument",
        )
        with pytest.raises(MCPError) as huge:
            await client.get_prompt("split_my_changes", {"focus": "x" * 10_000_000})
        assert (huge.value.error.code, huge.value.error.message) == (
            -32602,
            "Invalid arguments for split_my_changes: focus: String should have at most 10000 characters",
        )
        assert (await client.get_prompt("split_my_changes", {"focus": "parser"})).messages


def test_a_request_before_initialize_is_told_to_initialize_first(dirty: Repo) -> None:
    with McpProcess(cwd=dirty.path) as server:
        for n, method in enumerate(("tools/list", "resources/list")):
            assert server.request(n, method, {})["error"] == {
                "code": -32602,
                "message": "Invalid request parameters",
                "data": f"{method} was sent before initialize: send initialize, then notifications/initialized, "
                "then your requests",
            }
        server.initialize()
        assert server.request(5, "tools/list", {})["result"]["tools"]
        assert server.close() == 0
        server.assert_pure_json_rpc()


@pytest.mark.parametrize("flag", ["yes", "true", 1, None])
def test_a_flag_takes_true_or_false_only(dirty: Repo, flag: object) -> None:
    with McpProcess(cwd=dirty.path) as server:
        server.initialize()
        before = server.call(1, "get_session")["structuredContent"]["groups"]
        moved = server.call(2, "move_hunks", hunk_ids=["change-1:1"], new_group=flag)
        assert (moved["isError"], moved["content"][0]["text"]) == (
            True,
            "Invalid arguments for move_hunks: new_group: Input should be a valid boolean",
        )
        assert server.call(3, "get_session")["structuredContent"]["groups"] == before, "nothing moved"
        loaded = server.call(4, "load_diff", absolute_file_path="working-tree", skip_trivial=flag)
        assert (loaded["isError"], loaded["content"][0]["text"]) == (
            True,
            "Invalid arguments for load_diff: skip_trivial: Input should be a valid boolean",
        )
        assert server.close() == 0


async def test_a_dry_run_said_in_words_commits_nothing(server: MCPServer, dirty: Repo) -> None:
    before = dirty.head()
    async with legacy(server) as client:
        commit = (await data(client, "propose_commits"))["commits"][0]["id"]
        assert await error(client, "apply_commit", commit_id=commit, dry_run="no") == (
            "Invalid arguments for apply_commit: dry_run: Input should be a valid boolean"
        )
    assert dirty.head() == before
