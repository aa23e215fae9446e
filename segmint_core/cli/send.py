"""``segmint send``: a review comment for the agent, from lazygit or a shell.

Appends to the review-message queue of the repository containing the current
directory (or ``--repo``), whether or not a Segmint process is running; the
agent reads it through MCP (``check_lazygit_messages``, ``lazygit://messages``),
now or whenever it next connects. A running ``segmint mcp`` or TUI notices
the new message within a second.

The file must be on disk or known to git (in the index or HEAD): a comment on
a file the work tree deletes is fine, a mistyped path is refused, since the
agent could do nothing with it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from segmint_core.errors import SegmintError
from segmint_core.git import Git
from segmint_core.messages import MessageQueue, new_message


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "send", parents=[common],
        help="send a review comment about a file to the agent (lazygit custom command)",
        description="Queue a review comment about a file (and line) for the AI agent, which reads it through "
                    "MCP. Works whether or not a Segmint process is running.",
    )
    p.add_argument("--file", required=True, metavar="PATH", help="the file the comment is about")
    p.add_argument("--line", type=_line_number, metavar="N", help="the line the comment is about")
    p.add_argument("--comment", required=True, metavar="TEXT", help="the comment")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    git = Git.discover(args.repo)
    file = args.file if Path(args.file).is_absolute() or args.repo else str(Path.cwd() / args.file)
    message = new_message(file, args.comment, git.root, line=args.line)
    _require_known(git, message.file)
    queue = MessageQueue(Path(git.git_dir) / "segmint", git.root)
    queued = queue.append(message)
    where = f"{message.file}:{message.line}" if message.line else message.file
    if queued:
        print(f"Sent to the agent: {where} ({len(queue.peek())} waiting)")
    else:
        print(f"Already waiting for the agent: {where}")
    sys.stdout.flush()
    return 0


def _require_known(git: Git, rel: str) -> None:
    """Refuse a path that is neither in the work tree nor in the index or HEAD."""
    if os.path.lexists(os.path.join(git.root, rel)):
        return
    index, head = git.run_many(("ls-files", "-z", "--", f":(literal){rel}"), ("cat-file", "-e", f"HEAD:{rel}"),
                               may_fail=(1,))
    if not index.stdout and head.returncode != 0:
        raise SegmintError(f"{rel} is not in the work tree, the index or HEAD: check the path.")


def _line_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a line number must be a positive whole number, not {text!r}")
    return value
