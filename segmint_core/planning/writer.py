"""A commit message for one plan: the offline writer, or a chat model if configured.

The model sees the diff of that plan alone. If it fails, the offline message is
used and the plan carries a note saying why, so nobody mistakes one for the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from segmint_core.changes.models import Change, Hunk
from segmint_core.changes.patch import render_hunks
from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.planning import messages
from segmint_core.planning.facts import gather

DIFF_LINE_CAP = 400

SYSTEM_PROMPT = (
    "You write git commit messages in the Conventional Commits format. Reply with the message only: "
    "a title line `type(scope): subject` (imperative mood, lower case after the colon, at most 72 "
    "characters; type one of feat, fix, docs, test, refactor, style, build, ci, chore), a blank line, "
    "then a short body (1 to 5 lines) saying what changed and why, as far as the diff shows it."
)


@dataclass(frozen=True)
class Message:
    title: str
    description: str
    note: str | None = None


Parts = list[tuple[Change, list[Hunk]]]


def write_message(parts: Parts, reasons: list[str], settings: Settings | None = None,
                  counts: dict[str, tuple[int, int]] | None = None) -> Message:
    """``counts``: lines added and removed per file where the hunks' own counts would
    mislead (a line staged, then edited again, is one change in the commit)."""
    offline = offline_message(parts, reasons, counts)
    if settings is None or not settings.chat_enabled:
        return offline
    from segmint_core.llm import chat

    try:
        reply = chat(settings, SYSTEM_PROMPT, "Diff of the commit:\n\n" + plan_diff(parts))
    except SegmintError as exc:
        return Message(offline.title, offline.description, f"Offline message: {exc}")
    return parse_reply(reply, offline)


def offline_message(parts: Parts, reasons: list[str], counts: dict[str, tuple[int, int]] | None = None) -> Message:
    facts = gather(parts)
    kind = messages.commit_type(facts)
    per_file = []
    for change, hunks in parts:
        own = gather([(change, hunks)])
        names = own.added_defs + [d for d in own.changed_defs if d not in own.added_defs]
        added, removed = (counts or {}).get(change.file_path, (own.added, own.removed))
        per_file.append((change.file_path, added, removed, names))
    title = messages.title(kind, messages.scope(facts), messages.subject(kind, facts))
    return Message(title, messages.body(facts, reasons, per_file))


def plan_diff(parts: Parts, cap: int = DIFF_LINE_CAP) -> str:
    out: list[str] = []
    for change, hunks in parts:
        out.append(f"--- {change.old_path or change.file_path}\n+++ {change.file_path} ({change.status})")
        out.extend(render_hunks(hunks))
        if len(out) > cap:
            out = out[:cap] + [f"... ({len(out) - cap} more lines cut)"]
            break
    return "\n".join(out)


def parse_reply(reply: str, fallback: Message) -> Message:
    lines = reply.strip().strip("`").strip().splitlines()
    if not lines or not lines[0].strip():
        return Message(fallback.title, fallback.description, "Offline message: the model's reply was empty")
    title = lines[0].strip()[:messages.TITLE_LIMIT]
    body = "\n".join(lines[1:]).strip()
    return Message(title, body)
