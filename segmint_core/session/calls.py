"""A caller's call running in this thread, and giving it up: an agent's tool call the client cancelled.

The MCP tools run session edits in worker threads. When the client cancels a
request (``notifications/cancelled``), the SDK cancels the task waiting for
the thread, but the thread itself runs on. So every edit asks first
(``SessionCore.begin_edit``): once the caller is gone it raises ``Abandoned``
before changing anything, and ``abandonable`` then puts back what the call's
earlier edits changed, unless something else edited the session since. A
cancelled call leaves the session as it found it; only when someone built on
its finished edits meanwhile do those stay (and none after them).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass


class Abandoned(Exception):
    """The caller gave up on the call: the edit about to begin is not made."""


@dataclass
class Call:
    gone: Callable[[], bool]  # whether the caller gave up
    put_back: Callable[[int], None] | None = None  # puts the session back as the call's first edit found it
    after: int | None = None  # the session's revision after the call's last edit


_here = threading.local()


def current() -> Call | None:
    """The call this thread is running, if a caller that may give up started it."""
    return getattr(_here, "call", None)


@contextlib.contextmanager
def abandonable(gone: Callable[[], bool]) -> Iterator[None]:
    """Run a call in this thread that is abandoned once ``gone()`` says so (see the module's docstring)."""
    call = Call(gone)
    _here.call = call
    try:
        yield
    except Abandoned:
        _here.call = None
        if call.put_back is not None and call.after is not None:
            call.put_back(call.after)
        raise
    finally:
        _here.call = None
