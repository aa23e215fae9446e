"""The text of review messages as agents read them: numbered blocks, a rule between them."""

from __future__ import annotations

from collections.abc import Sequence

from segmint_core.review.models import ReviewMessage

NO_MESSAGES = "No new messages from lazygit"
SEPARATOR = "\n\n" + "-" * 50 + "\n\n"
CLOSING = "Please improve this code."


def format_messages(messages: Sequence[ReviewMessage]) -> str:
    if not messages:
        return NO_MESSAGES
    return SEPARATOR.join(_block(n, m) for n, m in enumerate(messages, 1))


def _block(number: int, message: ReviewMessage) -> str:
    lines = [f"Message {number}:", f"File: {message.file}"]
    if message.line is not None:
        lines.append(f"Line: {message.line}")
    if message.hunk_id is not None:
        lines.append(f"Hunk: {message.hunk_id}")
    lines += [f"Comment: {message.comment}", f"Time: {message.time}", "", CLOSING]
    return "\n".join(lines)
