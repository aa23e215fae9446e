"""Taking an exclusive ``flock`` on an open file within a time limit."""

from __future__ import annotations

import fcntl
import time


def flock_within(fd: int, seconds: float, poll: float) -> bool:
    """Lock ``fd`` exclusively, trying every ``poll`` seconds for at most ``seconds``; False if it stayed held.

    ``flock`` itself has no timeout, and a blocking one cannot be given up on, so callers that must answer
    (a hook, a command finishing a killed apply) try without blocking until the deadline.
    """
    deadline = time.monotonic() + seconds
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(poll)
