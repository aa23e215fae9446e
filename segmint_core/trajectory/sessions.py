"""Work sessions: runs of shadow commits with no gap longer than an hour."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from segmint_core.trajectory.history import ShadowCommit

SESSION_GAP = 3600.0  # seconds; a longer silence starts a new session


@dataclass(frozen=True)
class Session:
    commits: tuple[ShadowCommit, ...]  # oldest first, never empty

    @property
    def started(self) -> datetime:
        return self.commits[0].when

    @property
    def ended(self) -> datetime:
        return self.commits[-1].when

    @property
    def intents(self) -> list[str]:
        """Distinct intents, in the order they were first recorded."""
        seen: list[str] = []
        for c in self.commits:
            if c.intent and c.intent not in seen:
                seen.append(c.intent)
        return seen

    @property
    def final_intent(self) -> str | None:
        return next((c.intent for c in reversed(self.commits) if c.intent), None)


def split_sessions(commits: list[ShadowCommit], gap: float = SESSION_GAP) -> list[Session]:
    """``commits`` (oldest first) cut wherever two neighbours are more than ``gap`` seconds apart."""
    sessions: list[Session] = []
    run: list[ShadowCommit] = []
    for commit in commits:
        if run and (commit.when - run[-1].when).total_seconds() > gap:
            sessions.append(Session(tuple(run)))
            run = []
        run.append(commit)
    if run:
        sessions.append(Session(tuple(run)))
    return sessions
