"""The embedded endpoint's door: the local user's agent, and nobody else, gets in.

Checked on every HTTP request before any route runs: the Host header must name
this endpoint (127.0.0.1 or localhost, this port) and an Origin header, when
present, must too (a web page's request to 127.0.0.1 carries its own origin:
DNS rebinding and cross-site requests stop here); then the bearer token from
the token file must be presented.

It also lets the server close politely: ``disconnect_all()`` tells every open
request (an agent's event stream stays open for as long as it is connected)
that its client went away, so a shutdown need not wait for them or cut them.
"""

from __future__ import annotations

import asyncio
import hmac

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

DISCONNECT: Message = {"type": "http.disconnect"}


class LocalOnly:
    def __init__(self, app: ASGIApp, *, token: str, port: int) -> None:
        self.app = app
        self.token = token.encode("utf-8")
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.origins = {f"http://{host}" for host in self.hosts}
        self._open: set[_Receiver] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await PlainTextResponse("Only HTTP is served here", status_code=403)(scope, receive, send)
            return
        refusal = self.refusal(Headers(scope=scope))
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        receiver = _Receiver(receive)
        response = _Response(send)
        self._open.add(receiver)
        try:
            await self.app(scope, receiver, response)
        finally:
            self._open.discard(receiver)
            if receiver.closed.is_set():
                await response.finish()

    def refusal(self, headers: Headers) -> PlainTextResponse | None:
        if headers.get("host") not in self.hosts:
            return PlainTextResponse("Invalid Host header", status_code=421)
        origin = headers.get("origin")
        if origin is not None and origin not in self.origins:
            return PlainTextResponse("Invalid Origin header", status_code=403)
        scheme, _, credentials = headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(credentials.strip().encode("utf-8"), self.token):
            return PlainTextResponse(
                "Missing or wrong bearer token", status_code=401, headers={"WWW-Authenticate": 'Bearer realm="segmint"'}
            )
        return None

    def disconnect_all(self) -> None:
        """End every open request as if its client had gone (call on the server's loop)."""
        for receiver in list(self._open):
            receiver.closed.set()


class _Receiver:
    """An ASGI ``receive`` that reports a disconnect once ``closed`` is set."""

    def __init__(self, receive: Receive) -> None:
        self.receive = receive
        self.closed = asyncio.Event()

    async def __call__(self) -> Message:
        if self.closed.is_set():
            return DISCONNECT
        message = asyncio.ensure_future(self.receive())
        closing = asyncio.ensure_future(self.closed.wait())
        try:
            await asyncio.wait({message, closing}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closing.cancel()
            received = message.done()
            if not received:
                message.cancel()
        return message.result() if received else DISCONNECT


class _Response:
    """An ASGI ``send`` that can end a streamed response the app left open when its client was disconnected."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.started = False
        self.complete = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
        elif message["type"] == "http.response.body" and not message.get("more_body", False):
            self.complete = True
        await self.send(message)

    async def finish(self) -> None:
        if self.started and not self.complete:
            try:
                await self({"type": "http.response.body", "body": b"", "more_body": False})
            except Exception:  # noqa: BLE001 - the connection is already gone: nothing left to end
                pass
