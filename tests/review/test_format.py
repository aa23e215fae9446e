"""The review messages' text as agents read it."""

from __future__ import annotations

from datetime import UTC, datetime

from segmint_core.review import NO_MESSAGES, format_messages, new_message

SEED_TWO_MESSAGES = (
    "Message 1:\nFile: src/main.go\nLine: 42\nComment: This function needs error handling\n"
    "Time: 2025-07-01T10:30:00Z\n\nPlease improve this code.\n\n--------------------------------------------------\n\n"
    "Message 2:\nFile: src/utils.go\nLine: 15\nComment: Add input validation\nTime: 2025-07-01T10:32:00Z\n\n"
    "Please improve this code."
)


def test_two_messages_as_in_the_seed() -> None:
    messages = [
        new_message(
            "src/main.go",
            "This function needs error handling",
            "/p",
            line=42,
            now=datetime(2025, 7, 1, 10, 30, tzinfo=UTC),
        ),
        new_message(
            "src/utils.go", "Add input validation", "/p", line=15, now=datetime(2025, 7, 1, 10, 32, tzinfo=UTC)
        ),
    ]
    assert format_messages(messages) == SEED_TWO_MESSAGES


def test_no_messages() -> None:
    assert format_messages([]) == NO_MESSAGES == "No new messages from lazygit"


def test_a_comment_without_a_line_and_on_a_hunk() -> None:
    text = format_messages(
        [new_message("a.py", "Split this", "/p", hunk_id="change-2:1", now=datetime(2025, 7, 1, tzinfo=UTC))]
    )
    assert text == (
        "Message 1:\nFile: a.py\nHunk: change-2:1\nComment: Split this\nTime: 2025-07-01T00:00:00Z\n\n"
        "Please improve this code."
    )
