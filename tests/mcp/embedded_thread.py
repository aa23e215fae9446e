"""The TUI's embedded server, run on its own thread and event loop as the TUI would run it."""

from __future__ import annotations

import asyncio
import threading

from segmint_core.mcp.embedded import EmbeddedServer, EndpointInfo
from segmint_core.session.session import Session


class EmbeddedThread:
    def __init__(self, session: Session, **options: object) -> None:
        self.server = EmbeddedServer(session, **options)  # type: ignore[arg-type]
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.error: BaseException | None = None

    def _run(self) -> None:
        try:
            self._loop.run_until_complete(self.server.serve(ready=lambda _info: self._ready.set()))
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            self.error = exc
            self._ready.set()
        finally:
            self._loop.close()

    def __enter__(self) -> EndpointInfo:
        self._thread.start()
        assert self._ready.wait(timeout=30) and self.error is None, self.error
        assert self.server.info is not None
        return self.server.info

    def stop(self) -> None:
        self.server.stop()
        self._thread.join(timeout=30)
        assert not self._thread.is_alive()

    def __exit__(self, *exc: object) -> None:
        if self._thread.is_alive():
            self.stop()
