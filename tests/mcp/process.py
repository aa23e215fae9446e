"""A real ``segmint mcp`` process driven line by line over its stdin and stdout."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

WAIT = 30.0
PROTOCOL = "2024-11-05"


class McpProcess:
    def __init__(self, *args: str, cwd: Path, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "segmint", "mcp", *args],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.raw: list[bytes] = []  # every stdout line, for the purity check
        self._lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.held: list[dict[str, Any]] = []  # messages read while waiting for something else
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.raw.append(line)
            self._lines.put(json.loads(line))
        self._lines.put(None)

    def send(self, message: dict[str, Any] | bytes) -> None:
        assert self.proc.stdin is not None
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def request(self, request_id: Any, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.answer(request_id)

    def answer(self, request_id: Any) -> dict[str, Any]:
        return self._take(lambda m: m.get("id") == request_id and "method" not in m)

    def notification(self, method: str) -> dict[str, Any]:
        return self._take(lambda m: m.get("method") == method and "id" not in m)

    def call(self, request_id: Any, tool: str, **arguments: Any) -> dict[str, Any]:
        return self.request(request_id, "tools/call", {"name": tool, "arguments": arguments})["result"]

    def initialize(self) -> dict[str, Any]:
        answer = self.request(
            1,
            "initialize",
            {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "test", "version": "1.0.0"}},
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def _take(self, wanted) -> dict[str, Any]:
        for n, message in enumerate(self.held):
            if wanted(message):
                return self.held.pop(n)
        while True:
            message = self._lines.get(timeout=WAIT)
            if message is None:
                raise AssertionError(f"segmint mcp ended; stderr: {self.stderr()}")
            if wanted(message):
                return message
            self.held.append(message)

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=WAIT)
        return code

    def stderr(self) -> str:
        if self.proc.poll() is None:
            return "(still running)"
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")

    def assert_pure_json_rpc(self) -> None:
        for line in self.raw:
            assert line.endswith(b"\n")
            message = json.loads(line)
            assert isinstance(message, dict) and message.get("jsonrpc") == "2.0", line
            assert {"id", "method"} & set(message), line

    def __enter__(self) -> McpProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=WAIT)
