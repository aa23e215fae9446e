"""Review comments from a person to the agent, carried as lazygit-mcp-bridge carries them.

A person comments on a file, a line or a hunk, from the TUI or from lazygit
(``segmint send``); the agent reads the comments through MCP
(``check_lazygit_messages``, ``lazygit://messages``). The queue is a file in
the session folder (``.git/segmint/messages.json``), so comments survive a
restart and reach an agent that connects later; it is safe under several
writers at once (an ``fcntl`` lock and atomic replaces).
"""

from segmint_core.review.feed import ReviewFeed
from segmint_core.review.format import NO_MESSAGES, format_messages
from segmint_core.review.models import ReviewMessage, new_message
from segmint_core.review.queue import DEFAULT_KEPT, MessageQueue

__all__ = [
    "DEFAULT_KEPT",
    "NO_MESSAGES",
    "MessageQueue",
    "ReviewFeed",
    "ReviewMessage",
    "format_messages",
    "new_message",
]
