"""Helpers for the MCP tests: a repository with several intents, and tool-call shorthands."""

from __future__ import annotations

import json
import warnings
from typing import Any

from mcp import Client
from mcp_types import CallToolResult

from tests.support.repo import Repo

PARSER = "".join(f"def rule_{n}(text):\n    return text.strip()\n\n\n" for n in range(12))
PARSER_TEST = "from parser import rule_0\n\n\ndef test_rule_0():\n    assert rule_0(' a ') == 'a'\n"


def make_changes(repo: Repo) -> Repo:
    """Four files: a parser fix with its test, a README edit, and a new untracked note."""
    repo.write("src/parser.py", PARSER)
    repo.write("tests/test_parser.py", PARSER_TEST)
    repo.write("README.md", "# Parser\n\nParses text.\n")
    repo.commit("base")
    repo.write(
        "src/parser.py",
        PARSER.replace(
            "def rule_1(text):\n    return text.strip()", "def rule_1(text):\n    return text.strip().lower()"
        ).replace("def rule_10(text):\n    return text.strip()", "def rule_10(text):\n    return text.rstrip()"),
    )
    repo.write("tests/test_parser.py", PARSER_TEST + "\n\ndef test_rule_1():\n    assert rule_1(' A ') == 'a'\n")
    repo.write("README.md", "# Parser\n\nParses text, case-insensitively.\n")
    repo.write("notes.txt", "remember the changelog\n")
    return repo


async def call(client: Client, name: str, **arguments: Any) -> CallToolResult:
    return await client.call_tool(name, arguments)


async def data(client: Client, name: str, **arguments: Any) -> dict[str, Any]:
    """The structured result of a call that must succeed."""
    result = await call(client, name, **arguments)
    assert not result.is_error, text(result)
    assert result.structured_content is not None
    return result.structured_content


async def error(client: Client, name: str, **arguments: Any) -> str:
    """The message of a call that must fail with isError."""
    result = await call(client, name, **arguments)
    assert result.is_error, f"{name} should have failed: {text(result)[:300]}"
    assert result.structured_content is None
    return text(result)


def text(result: CallToolResult) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return result.content[0].text


def json_text(result: CallToolResult) -> Any:
    return json.loads(text(result))


async def subscribe(client: Client, uri: str) -> None:
    """``resources/subscribe``, the 2025-era way (deprecated in the SDK in favour of listen)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        await client.subscribe_resource(uri)


async def unsubscribe(client: Client, uri: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        await client.unsubscribe_resource(uri)


def legacy(server: Any, **options: Any) -> Client:
    """An in-memory client of the 2025 protocol era (initialize handshake), like today's agents.

    (Used as ``async with legacy(server) as client``: an async fixture would enter
    and leave the SDK's task groups in different tasks.)
    """
    return Client(server, mode="legacy", **options)


def modern(server: Any, **options: Any) -> Client:
    """An in-memory client of the current protocol (2026-07-28: no handshake, subscriptions/listen)."""
    return Client(server, **options)
