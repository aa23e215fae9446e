"""Pairing: the embedded MCP server that lets an agent join the app's session.

``segmint_core.mcp.embedded.EmbeddedServer`` serves the app's own ``Session``
over streamable HTTP on 127.0.0.1 with a bearer token, and publishes a
discovery file so that ``segmint mcp`` started in the same repository relays
to it. It runs as an async worker in the app's event loop; the agent's tool
calls run in worker threads, and their session events reach the screen through
the session listener like any other change.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.worker import Worker

from segmint_core.errors import SegmintError
from segmint_core.session.session import Session
from segmint_tui.messages import PairingChanged

if TYPE_CHECKING:
    from segmint_core.mcp.embedded import EmbeddedServer  # loaded only when pairing starts

log = logging.getLogger("segmint.tui")


class Pairing:
    def __init__(
        self,
        app: App[Any],
        session: Callable[[], Session | None],
        *,
        enabled: bool,
        agent_can_commit: bool,
        allowed_roots: tuple[str, ...] = (),
    ) -> None:
        self.app = app
        self.session = session  # the app's session, once it has opened
        self.enabled = enabled
        self.agent_can_commit = agent_can_commit
        self.allowed_roots = allowed_roots
        self.info = None  # EndpointInfo once listening
        self.error: str | None = None
        self._server: EmbeddedServer | None = None
        self._worker: Worker | None = None
        self._stopping = False  # stop() was called, maybe before the worker made the server

    @property
    def status(self) -> str:
        if not self.enabled:
            return "pairing off (--no-mcp)"
        if self.error:
            return f"pairing failed: {self.error}"
        if self.info is None:
            return "pairing: starting the MCP server…"
        commits = "agent may commit" if self.agent_can_commit else "agent commits wait for approval"
        return f"pairing on {self.info.url} · agents join with `segmint mcp` · {commits}"

    def start(self) -> None:
        if self.enabled:
            self._worker = self.app.run_worker(self._serve(), name="mcp", group="mcp", exit_on_error=False)

    async def _serve(self) -> None:
        try:
            from segmint_core.mcp.embedded import EmbeddedServer

            session = self.session()
            assert session is not None  # pairing starts once the session is open
            server = self._server = EmbeddedServer(
                session, agent_can_commit=self.agent_can_commit, allowed_roots=self.allowed_roots
            )
            if self._stopping:  # the app is quitting: the server returns at once
                server.stop()
            await server.serve(ready=self._ready)
        except SegmintError as exc:
            self._failed(str(exc))
        except Exception as exc:  # a bug in the server must not take the app down
            log.exception("embedded MCP server failed")
            self._failed(f"{type(exc).__name__}: {exc}")

    def _ready(self, info) -> None:
        self.info = info
        self.app.post_message(PairingChanged())

    def _failed(self, reason: str) -> None:
        self.error = reason
        self.app.post_message(PairingChanged())
        self.app.notify(f"Agents cannot join: {reason}", title="Pairing", severity="error", markup=False)

    def stop(self) -> None:
        self._stopping = True
        if self._server is not None:
            self._server.stop()

    async def shutdown(self, timeout: float = 6.0) -> None:
        """Stop the server and wait until it has let go of its agents and its discovery file.

        Called before the app exits: Textual cancels its workers on the way out,
        and a cancelled server ends abruptly (uvicorn logs the cancelled lifespan).
        """
        worker = self._worker
        if worker is None or worker.is_finished:
            return
        self.stop()
        try:
            await asyncio.wait_for(worker.wait(), timeout)
        except Exception:  # failed, cancelled or slow: the app exits all the same
            log.warning("the embedded MCP server did not stop cleanly", exc_info=True)
