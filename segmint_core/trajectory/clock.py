"""Wall-clock time for the recorder and the tools, injectable for tests.

A clock returns an aware ``datetime``; its offset is written into shadow commits
so the ``HH:MM:SS`` in a message and the commit's own date always agree.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """Now, in the local time zone."""
    return datetime.now().astimezone()


def aware(moment: datetime) -> datetime:
    """``moment`` with a time zone (naive values are taken as local time)."""
    return moment if moment.tzinfo is not None else moment.astimezone()


def hms(moment: datetime) -> str:
    return moment.strftime("%H:%M:%S")


def stamp(moment: datetime) -> str:
    """``YYYY-MM-DD HH:MM:SS``: a point in time a reader can place on any day."""
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def git_date(moment: datetime) -> str:
    """``moment`` in git's raw date format (``<epoch> <+hhmm>``)."""
    moment = aware(moment)
    return f"{int(moment.timestamp())} {moment.strftime('%z')}"


def parse_iso(text: str) -> datetime:
    """A date git printed with ``%aI`` (strict ISO 8601, with offset)."""
    return datetime.fromisoformat(text.strip())
