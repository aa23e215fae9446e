"""The activity panel: what the person and the agent did, and what waits for approval."""

from __future__ import annotations

from datetime import datetime

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from segmint_core.session.models import AWAITING_APPROVAL, Activity, CommitPlan
from segmint_core.wording import counted

ACTOR_STYLE = {
    "agent": Style(color="#c678dd", bold=True),
    "person": Style(color="#61afef", bold=True),
    "segmint": Style(color="#8b8fa3", bold=True),
}
LINES = 3


def clock(stamp: str) -> str:
    """``HH:MM:SS`` in local time from an ISO 8601 stamp."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%H:%M:%S")
    except ValueError:
        return stamp[:8]


def activity_line(entry: Activity) -> Text:
    """``12:00:00 agent moved change-3:2 to group-2``: the actor leads, whether or not the
    session's sentence names it ("person moved ..." does, "Refreshed: ..." does not)."""
    text = entry.text.removeprefix(entry.actor + " ")
    if text[:1].isupper() and text[1:2].islower():
        text = text[0].lower() + text[1:]
    return Text.assemble(
        (clock(entry.time) + " ", Style(color="#8b8fa3")),
        (entry.actor, ACTOR_STYLE.get(entry.actor, Style(bold=True))),
        " " + text,
    )


class ActivityPanel(Static):
    """Status line (pairing, approvals, messages) over the latest activity."""

    DEFAULT_CSS = """
    ActivityPanel {
        height: auto; max-height: 5; padding: 0 1; background: $boost;
        text-wrap: nowrap; text-overflow: ellipsis;   /* one line per entry, clipped at the edge */
    }
    """

    def show(
        self,
        activity: list[Activity],
        plans: list[CommitPlan],
        *,
        pairing: str,
        paired: bool = False,
        messages: int | None = None,
        recording: str = "",
    ) -> None:
        waiting = [p.id for p in plans if p.status == AWAITING_APPROVAL]
        # What asks for the person comes first: the line is clipped at the right edge.
        status = Text()
        if waiting:
            status.append(
                f"◐ {len(waiting)} waiting for approval: {', '.join(waiting)} (a approves)   ",
                Style(color="#e5c07b", bold=True),
            )
        if messages:
            status.append(f"✉ {counted(messages, 'comment')} queued for the agent   ", Style(color="#c678dd"))
        status.append("● " if paired else "○ ", Style(color="#5fd77a" if paired else "#8b8fa3"))
        status.append(pairing)
        if recording:
            status.append(
                "   ● " if recording.startswith("recording") else "   ○ ",
                Style(color="#e06c75" if recording.startswith("recording") else "#8b8fa3"),
            )
            status.append(recording)
        lines = [status]
        lines.extend(activity_line(a) for a in activity[-LINES:])
        if len(lines) == 1:
            lines.append(Text("No activity yet.", Style(color="#8b8fa3")))
        self.update(Text("\n").join(lines))
