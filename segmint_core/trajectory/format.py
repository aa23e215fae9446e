"""Markdown for the trajectory tools, rendered from the same data they return.

Output is sized for a model's context: diffs are cut to a budget with a note of
how much was cut, file lists are capped with a count of the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from segmint_core.trajectory.clock import hms, parse_iso, stamp
from segmint_core.trajectory.commit_messages import FILES_IN_SUBJECT
from segmint_core.wording import shown

MAX_DIFF_LINES = 300
DIFF_BUDGET = 30_000  # characters of diff in one answer, shared by its snapshots
MIN_DIFF_CHARS = 2_000
FILES_PER_COMMIT = 10


@dataclass(frozen=True)
class Truncation:
    text: str
    lines_cut: int
    chars_cut: int

    def note(self) -> dict | None:
        return {"lines_cut": self.lines_cut, "chars_cut": self.chars_cut} if self.lines_cut else None


def truncate(text: str, *, max_lines: int = MAX_DIFF_LINES, max_chars: int = DIFF_BUDGET) -> Truncation:
    """``text`` cut at whole lines to fit both limits."""
    lines = text.split("\n")
    kept: list[str] = []
    size = 0
    for line in lines:
        if len(kept) >= max_lines or size + len(line) + 1 > max_chars:
            break
        kept.append(line)
        size += len(line) + 1
    if len(kept) == len(lines):
        return Truncation(text, 0, 0)
    short = "\n".join(kept)
    return Truncation(short, len(lines) - len(kept), len(text) - len(short))


def diff_budget(count: int) -> int:
    """Characters each of ``count`` diffs may use."""
    return max(MIN_DIFF_CHARS, DIFF_BUDGET // max(count, 1))


def when(iso: str, now: datetime) -> str:
    """``HH:MM:SS`` for today, the date too otherwise."""
    moment = parse_iso(iso)
    return hms(moment) if moment.date() == now.astimezone(moment.tzinfo).date() else stamp(moment)


def fenced(text: str, lang: str = "diff") -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{lang}\n{text}\n{fence}"


def file_line(f: dict) -> str:
    if f["binary"]:
        counts = "binary"
    else:
        counts = f"+{f['added']} -{f['removed']}"
    status = "" if f["status"] == "modified" else f" ({'new' if f['status'] == 'added' else 'deleted'})"
    return f"`{shown(f['path'])}`{status} {counts}"


def files_summary(files: list[dict], total: int) -> str:
    shown = ", ".join(file_line(f) for f in files)
    more = total - len(files)
    return shown + (f" … and {more} more" if more > 0 else "")


# -- the tools ------------------------------------------------------------------


def file_trajectory(data: dict, now: datetime) -> str:
    snaps = data["snapshots"]
    out = [
        f"# Trajectory of `{shown(data['filepath'])}`",
        f"{len(snaps)} of {data['total_snapshots']} snapshots of this file, oldest first.",
    ]
    for n, s in enumerate(snaps, start=1):
        out.append(f"\n## {n}. {when(s['time'], now)} · {s['kind']} · {s['intent'] or 'no intent'} · {s['status']}")
        out.append(s["message"])
        if s["revert_of"]:
            out.append(f"**[Revert Detected]** (Matches state from {when(s['revert_of']['time'], now)})")
        if s["diff"]:
            out.append(fenced(s["diff"]))
        cut = s["diff_truncated"]
        if cut:
            out.append(
                f"_Diff truncated: {cut['lines_cut']:,} more lines ({cut['chars_cut']:,} characters) not shown._"
            )
    return "\n".join(out) + "\n"


def global_trajectory(data: dict, now: datetime) -> str:
    commits = data["commits"]
    if data["since_consolidate"]:
        anchor = data["after_consolidate"]
        scope = (
            f"since the last consolidate ({anchor['commit'][:7]}, {when(anchor['time'], now)})"
            if anchor
            else "since recording started (no consolidate yet)"
        )
        head = f"{len(commits)} commits {scope}, oldest first."
    else:
        head = f"Last {len(commits)} of {data['total_commits']} commits, oldest first."
    out = ["# Global trajectory", head]
    if data["truncated"]:
        out.append(f"_Only the newest {len(commits)} are shown._")
    if not commits:
        out.append("\nNo commits in this range.")
    for c in commits:
        out.append(f"- **{when(c['time'], now)}** `{c['commit'][:7]}` {c['message']}")
        # Snapshot subjects already name up to FILES_IN_SUBJECT files with their counts.
        named = c["kind"] in ("snapshot", "resync") and c["files_total"] <= FILES_IN_SUBJECT
        if c["files"] and not named:
            out.append(f"  Files: {files_summary(c['files'], c['files_total'])}")
    return "\n".join(out) + "\n"


def session_summary(data: dict, now: datetime) -> str:
    out = ["# Session summary"]
    last = data["last_session"]
    if last is None:
        out.append("No snapshots recorded yet: this is the first session.")
    else:
        gap = data["gap_seconds"]
        ago = _duration(gap)
        if data["is_new_session"]:
            out.append(
                f"**New session**: the last snapshot was {ago} ago ({when(last['ended'], now)}), "
                "more than an hour, so this is a new session. The last session was:"
            )
        else:
            out.append(f"**Continuing session**: the last snapshot was {ago} ago ({when(last['ended'], now)}).")
        out.append(
            f"\n## Last session: {when(last['started'], now)} to {when(last['ended'], now)}, "
            f"{last['snapshots']} snapshots"
        )
        out.append(f"- Final intent: {last['final_intent'] or '(none set)'}")
        if len(last["intents"]) > 1:
            out.append(f"- Intents, in order: {' → '.join(last['intents'])}")
        out.append(f"- Last snapshot: `{last['last_commit'][:7]}` {last['last_message']}")
        if last["files"]:
            out.append(f"\nFinal state: {last['files_total']} files differ from before the session:")
            out.extend(f"- {file_line(f)}" for f in last["files"])
            more = last["files_total"] - len(last["files"])
            if more > 0:
                out.append(f"- … and {more} more")
        else:
            out.append("\nFinal state: no file differs from before the session.")
    out.append(f"\nCurrent intent: {data['current_intent'] or '(none set)'}")
    return "\n".join(out) + "\n"


def _duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min"
    return f"{hours // 24} days"
