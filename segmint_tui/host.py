"""What the screens ask of the app that hosts them: the session and its calls, named once.

The screens are composed by the app (``SegmintApp``) and reach it through
``self.app``; they name what they use here rather than the app's class, so
the app, which imports the screens, is not imported back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from segmint_core.session.session import Session
from segmint_tui.saves import SaveRecorder

T = TypeVar("T")


class PairingStatus(Protocol):
    @property
    def status(self) -> str: ...

    @property
    def info(self) -> Any: ...  # the embedded server's endpoint once it listens, else None


class SessionHost(Protocol):
    session: Session
    grouping: bool  # a regroup (in a worker or a child process) is under way
    review_messages: int | None  # the person's review comments the agent has not read (None: not counted yet)
    pairing: PairingStatus
    saves: SaveRecorder | None  # the saves recorded under the person's intent, once the session is open
    watch_disk: bool  # the files are watched (saves are seen by the watcher)

    def call_session(self, label: str, fn: Callable[[], T], done: Callable[[T], Any] | None = None) -> Any: ...

    def start_grouping(self, *, auto: bool = False) -> None: ...

    def take_aside_evidence(self) -> bool: ...

    def count_review_messages(self) -> None: ...
