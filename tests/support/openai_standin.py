"""A local stand-in for an OpenAI-compatible HTTP endpoint (the real one cannot be reached here).

Serves ``/v1/chat/completions`` and ``/v1/embeddings`` on 127.0.0.1 from a
thread; records every request; can be told to fail (every time, or ``fail_count`` times), or to answer late
(``delay``, seconds), or to refuse structured output (``refuse_response_format``), or to
stop an answer at its token limit (``finish_reason = "length"``), or to answer with a web page (``html``) or JSON
of any shape (``raw``).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


DEFAULT_REPLY = "feat(app): do the thing\n\nBecause it was asked for."


class StandIn:
    def __init__(self, reply: str | Callable[[dict], str] = DEFAULT_REPLY) -> None:
        self.reply = reply
        self.fail_with: int | None = None
        self.fail_count: int | None = None  # fail only this many requests, then answer
        self.delay = 0.0
        self.refuse_response_format = False
        self.finish_reason = "stop"  # "length": the answer stopped at the request's max_tokens
        self.html: str | None = None  # answer every request with this web page instead (a proxy's, say)
        self.raw: object = None  # or with this JSON, whatever its shape
        self.requests: list[dict] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True  # a late answer never holds the test up at shutdown
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> "StandIn":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def answer(self, body: dict) -> str:
        """``reply``, or what ``reply(body)`` returns when it is a function of the request."""
        return self.reply(body) if callable(self.reply) else self.reply

    def _handler(self):
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                outer.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                if outer.delay:
                    time.sleep(outer.delay)
                if outer.html is not None:
                    page = outer.html.encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html")
                    self.send_header("Content-Length", str(len(page)))
                    self.end_headers()
                    self.wfile.write(page)
                elif outer.raw is not None:
                    self._send(200, outer.raw)
                elif outer.fail_with and outer.fail_count != 0:
                    if outer.fail_count is not None:
                        outer.fail_count -= 1
                    self._send(outer.fail_with, {"error": {"message": "stand-in failure", "type": "server_error"}})
                elif outer.refuse_response_format and "response_format" in body:
                    self._send(
                        400, {"error": {"message": "response_format is not supported", "type": "invalid_request_error"}}
                    )
                elif self.path.endswith("/chat/completions"):
                    self._send(
                        200,
                        {
                            "id": "x",
                            "object": "chat.completion",
                            "created": 0,
                            "model": body.get("model"),
                            "choices": [
                                {
                                    "index": 0,
                                    "finish_reason": outer.finish_reason,
                                    "message": {"role": "assistant", "content": outer.answer(body)},
                                }
                            ],
                        },
                    )
                elif self.path.endswith("/embeddings"):
                    inputs = body.get("input") or []
                    data = [
                        {"object": "embedding", "index": i, "embedding": [float(len(text) % 7), 1.0, float(i % 3)]}
                        for i, text in enumerate(inputs)
                    ]
                    self._send(200, {"object": "list", "data": data, "model": body.get("model")})
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def _send(self, status: int, payload: dict) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        return Handler
