"""``segmint mcp``: the server over stdio, or a relay to the TUI running on the same repository."""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

import anyio

from segmint_core.errors import SegmintError
from segmint_core.mcp.discovery import find_endpoint
from segmint_core.mcp.proxy import Runner, relay
from segmint_core.mcp.server import build_server, serve_streams
from segmint_core.mcp.services import SessionRef, in_thread
from segmint_core.mcp.stdio import stdio_transport

log = logging.getLogger("segmint.mcp")


def main(repo: str | None, allowed_roots: tuple[str, ...] = ()) -> int:
    """Serve, or relay to the TUI; ``allowed_roots`` are folders besides the repository the tools may use."""
    configure_logging()
    endpoint = find_endpoint(repo)
    if endpoint is not None:
        log.info("joining the TUI session at %s", endpoint.url)
        if allowed_roots:
            log.warning("--allow-root applies once the TUI quits; until then the TUI's own --allow-root does")
        anyio.run(relay, endpoint, lambda: local_server(endpoint.root, allowed_roots))
    else:
        anyio.run(serve_stdio, repo, allowed_roots)
    return 0


async def serve_stdio(repo: str | None, allowed_roots: tuple[str, ...] = ()) -> None:
    async with stdio_transport() as (read_stream, write_stream):
        await local_server(repo, allowed_roots)(read_stream, write_stream)


def local_server(repo: str | None, allowed_roots: tuple[str, ...] = ()) -> Runner:
    """A server over the repository's session, opened on first use (or earlier, in the background)."""
    sessions = SessionRef(repo=repo)
    server = build_server(sessions, repo=repo, allowed_roots=allowed_roots)

    async def run(read_stream: Any, write_stream: Any) -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_warm_up, sessions)
            await serve_streams(server, read_stream, write_stream)
            tg.cancel_scope.cancel()

    return run


async def _warm_up(sessions: SessionRef) -> None:
    """Open the session while the client is still initializing, so the first tool call is quick."""
    try:
        await in_thread(sessions.get)
    except SegmintError as exc:  # not a repository: each tool will say so
        log.info("%s", exc)


def configure_logging() -> None:
    """Logs go to stderr (stdout is the wire); SEGMINT_DEBUG=1 shows everything."""
    level = logging.DEBUG if os.environ.get("SEGMINT_DEBUG") else logging.WARNING
    logging.basicConfig(level=level, stream=sys.stderr, format="segmint mcp: %(levelname)s %(name)s: %(message)s")
