"""A local stand-in for an OpenAI-compatible server (NOT a real model).

A tiny ``http.server`` thread speaking the two shapes Segmint uses:
``POST /v1/embeddings`` (deterministic vectors from the words of each input)
and ``POST /v1/chat/completions`` (a fixed reply). It records every request,
so tests can check what would have left the machine.
"""

from __future__ import annotations

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIMENSIONS = 16


def fake_vector(text: str) -> list[float]:
    """Texts sharing words get similar vectors: a bag of hashed words."""
    vector = [0.0] * DIMENSIONS
    for word in text.split():
        digest = hashlib.sha256(word.encode()).digest()
        vector[digest[0] % DIMENSIONS] += 1.0
    return vector


class StandIn:
    def __init__(self, *, chat_reply: str = "Add strict token checks", fail_chat: bool = False) -> None:
        self.requests: list[tuple[str, dict]] = []
        self.chat_reply = chat_reply
        self.fail_chat = fail_chat
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> "StandIn":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                standin.requests.append((self.path, body))
                if self.path.endswith("/embeddings"):
                    inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                    data = [
                        {"object": "embedding", "index": i, "embedding": fake_vector(t)} for i, t in enumerate(inputs)
                    ]
                    self._send(
                        200,
                        {
                            "object": "list",
                            "data": data,
                            "model": body.get("model"),
                            "usage": {"prompt_tokens": 1, "total_tokens": 1},
                        },
                    )
                elif self.path.endswith("/chat/completions") and not standin.fail_chat:
                    self._send(
                        200,
                        {
                            "id": "standin",
                            "object": "chat.completion",
                            "created": 0,
                            "model": body.get("model"),
                            "choices": [
                                {
                                    "index": 0,
                                    "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": standin.chat_reply},
                                }
                            ],
                        },
                    )
                else:
                    self._send(500, {"error": {"message": "stand-in failure", "type": "server_error"}})

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
