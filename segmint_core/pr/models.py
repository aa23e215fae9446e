"""What a pull-request draft is made from, and the text it makes, as plain data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DraftCommit:
    """A commit as the draft names it: its title, its whole message, and its sha once committed."""

    title: str
    message: str
    sha: str | None = None
    hunks: int = 0  # how much of the change it holds: of commits of one kind, the largest leads


@dataclass(frozen=True)
class DraftText:
    """The draft's title and Markdown body; ``note`` says why the summary is the offline one."""

    title: str
    description: str
    note: str | None = None
