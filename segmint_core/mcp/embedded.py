"""The MCP server inside the TUI: streamable HTTP on 127.0.0.1, over the TUI's own session.

For the TUI: run ``serve_embedded`` as a worker in the app's event loop::

    from segmint_core.mcp.embedded import EmbeddedServer

    class SegmintApp(App):
        def on_mount(self) -> None:
            self.session.set_presence(person_present=True, agent_can_commit=self.agent_can_commit)
            self.mcp = EmbeddedServer(self.session, agent_can_commit=self.agent_can_commit)
            self.run_worker(self.mcp.serve(ready=self.on_mcp_ready), exclusive=False, group="mcp")

        def on_mcp_ready(self, info: EndpointInfo) -> None:   # called on the app's loop
            self.notify(f"Agents: segmint mcp (or {info.url})")

        async def on_unmount(self) -> None:
            self.mcp.stop()            # or cancel the worker: both shut down cleanly

or, in one line, ``self.run_worker(serve_embedded(self.session, ready=...))``.

What it does:

- listens on 127.0.0.1 on a port the OS picks, until ``stop()`` is called or
  the worker is cancelled; uvicorn runs inside the caller's event loop and
  never touches signal handlers or the logging set-up;
- requires a bearer token (random, per run), refuses foreign Host and Origin
  headers (``guard.LocalOnly``, and the SDK's DNS-rebinding protection);
- writes ``.git/segmint/mcp-endpoint-<pid>-<port>.json`` and
  ``mcp-token-<pid>-<port>`` (mode 0600) once listening, removes those two on
  the way out (another TUI's stay); ``segmint mcp`` started for the same
  repository finds them and relays to this server, so an agent configured
  with ``segmint mcp`` works on the person's session (``discovery``);
- marks the person present (``session.set_presence``): an agent's
  ``apply_commit`` then waits for approval unless ``agent_can_commit``.

Threads: the agent's tools run session methods in worker threads, so
``Session`` events caused by the agent reach the TUI's listener on a worker
thread, never on the app's loop. Hop with ``App.call_from_thread`` (or
``post_message``, which is thread-safe) in the listener.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import uvicorn
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import Request
from starlette.responses import JSONResponse

from segmint_core import __version__
from segmint_core.errors import SegmintError
from segmint_core.mcp import discovery
from segmint_core.mcp.discovery import Endpoint
from segmint_core.mcp.guard import LocalOnly
from segmint_core.mcp.server import build_server
from segmint_core.mcp.stdio import MAX_LINE
from segmint_core.session.session import Session

log = logging.getLogger("segmint.mcp")

HOST = "127.0.0.1"
MCP_PATH = "/mcp"
SHUTDOWN_SECONDS = 5.0
# A line `segmint mcp` reads (up to stdio's MAX_LINE) and relays here arrives whole, as it would headless,
# so its arguments get the tools' own answer, not a 413; re-encoded, a message may grow a little.
MAX_BODY = 2 * MAX_LINE


@dataclass(frozen=True)
class EndpointInfo:
    """Where the embedded server listens, for display and for tests."""

    url: str  # http://127.0.0.1:PORT/mcp
    port: int
    token: str  # the bearer token (also in token_file)
    token_file: str
    discovery_file: str  # .git/segmint/mcp-endpoint-PID-PORT.json


class EmbeddedServer:
    """One embedded MCP server over ``session``; ``serve()`` runs it, ``stop()`` ends it."""

    def __init__(
        self, session: Session, *, agent_can_commit: bool = False, port: int = 0, allowed_roots: tuple[str, ...] = ()
    ) -> None:
        self.session = session
        self.agent_can_commit = agent_can_commit
        self.allowed_roots = allowed_roots  # folders besides the repository the tools may use
        self.port = port
        self.info: EndpointInfo | None = None
        self._uvicorn: _HostedUvicorn | None = None
        self._guard: LocalOnly | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_requested: asyncio.Event | None = None
        self._stopped = False  # stop() was called, maybe before serve() began

    async def serve(self, ready: Callable[[EndpointInfo], None] | None = None) -> None:
        """Serve until ``stop()`` or cancellation; ``ready(info)`` is called once listening.

        Raises ``SegmintError`` if the server cannot start (no free port, ...).
        """
        before = self.session.own_presence  # the TUI's, when it hosts this server
        self.session.set_presence(person_present=True, agent_can_commit=self.agent_can_commit)
        try:
            await self._serve(ready)
        finally:
            self.session.set_presence(person_present=before.person_present, agent_can_commit=before.agent_can_commit)

    async def _serve(self, ready: Callable[[EndpointInfo], None] | None) -> None:
        self._loop, self._stop_requested = asyncio.get_running_loop(), asyncio.Event()
        if self._stopped:  # stopped before it began (the app quit at once): nothing to serve
            return
        with _listening_socket(self.port) as sock:
            port = sock.getsockname()[1]
            token = secrets.token_urlsafe(32)
            self._uvicorn = _HostedUvicorn(self._config(port, token))
            task = asyncio.ensure_future(self._uvicorn.serve(sockets=[sock]))
            endpoint = None
            try:
                await self._started(task)
                endpoint = self._endpoint(port)
                published = discovery.publish(self._folder, endpoint, token)
                self.info = EndpointInfo(endpoint.url, port, token, endpoint.token_file, str(published))
                if ready is not None:
                    ready(self.info)
                await _first_of(task, self._stop_requested.wait())
            finally:
                if endpoint is not None:
                    discovery.withdraw(self._folder, endpoint)
                await self._shut_down(task)

    def stop(self) -> None:
        """End ``serve()``; connected agents are disconnected. Safe from any thread, and before
        ``serve()`` has begun (it then returns at once)."""
        self._stopped = True
        loop, requested = self._loop, self._stop_requested
        if loop is not None and requested is not None and not loop.is_closed():
            loop.call_soon_threadsafe(requested.set)

    # -- internals ------------------------------------------------------------------

    @property
    def _folder(self):
        return self.session.folder

    def _config(self, port: int, token: str) -> uvicorn.Config:
        server = build_server(self.session, allowed_roots=self.allowed_roots)

        @server.custom_route(discovery.IDENTITY_PATH, methods=["GET"])
        async def identity(_request: Request) -> JSONResponse:
            return JSONResponse(
                {"server": "segmint", "root": self.session.git.root, "pid": os.getpid(), "version": __version__}
            )

        hosts = [f"{HOST}:{port}", f"localhost:{port}"]
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=[f"http://{h}" for h in hosts]
        )
        app = server.streamable_http_app(
            streamable_http_path=MCP_PATH, host=HOST, transport_security=security, max_request_body_size=MAX_BODY
        )
        self._guard = LocalOnly(app, token=token, port=port)
        return uvicorn.Config(
            self._guard,
            log_config=None,
            log_level="warning",
            access_log=False,
            lifespan="on",
            loop="none",
            ws="none",
            timeout_graceful_shutdown=1,
        )

    def _endpoint(self, port: int) -> Endpoint:
        pid = os.getpid()
        return Endpoint(
            pid=pid,
            url=f"http://{HOST}:{port}{MCP_PATH}",
            host=HOST,
            port=port,
            token_file=str(discovery.token_path(self._folder, pid, port)),
            root=self.session.git.root,
            started=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            version=__version__,
        )

    async def _started(self, task: asyncio.Future[None]) -> None:
        assert self._uvicorn is not None
        while not self._uvicorn.started:
            if task.done():
                try:
                    task.result()
                except SystemExit as exc:  # uvicorn exits this way when its start-up fails
                    raise SegmintError(f"The embedded MCP server could not start (status {exc.code})") from None
                raise SegmintError("The embedded MCP server stopped before it was listening")
            if self._stop_requested is not None and self._stop_requested.is_set():
                return
            await asyncio.sleep(0.01)

    async def _shut_down(self, task: asyncio.Future[None]) -> None:
        assert self._uvicorn is not None
        if self._guard is not None:
            self._guard.disconnect_all()
        self._uvicorn.should_exit = True
        try:
            await asyncio.wait_for(asyncio.shield(task), SHUTDOWN_SECONDS)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()
        except SystemExit:  # a failed start-up, already reported by _started
            pass


async def serve_embedded(
    session: Session, *, ready: Callable[[EndpointInfo], None] | None = None, agent_can_commit: bool = False
) -> None:
    """Serve ``session`` over streamable HTTP until cancelled (see the module docstring)."""
    await EmbeddedServer(session, agent_can_commit=agent_can_commit).serve(ready)


async def _first_of(task: asyncio.Future[None], stop: Coroutine[Any, Any, Any]) -> None:
    """Wait for ``task`` to end or ``stop`` to happen, without cancelling ``task``."""
    stopping = asyncio.ensure_future(stop)
    try:
        await asyncio.wait({task, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()


class _HostedUvicorn(uvicorn.Server):
    """uvicorn as a guest in someone else's event loop: the host owns the signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@contextlib.contextmanager
def _listening_socket(port: int) -> Iterator[socket.socket]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        raise SegmintError(f"Cannot listen on {HOST}:{port} for agents: {exc.strerror}") from None
    sock.set_inheritable(False)
    try:
        yield sock
    finally:
        sock.close()
