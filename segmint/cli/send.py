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
import stat
import sys
from pathlib import Path

from segmint_core.errors import SegmintError, disk_trouble, os_trouble
from segmint_core.git import Git
from segmint_core.review import MessageQueue, new_message
from segmint_core.review.models import project_path
from segmint_core.wording import shown


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "send",
        parents=[common],
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
    rel = project_path(file, git.root)  # as on disk: the message shows bytes that are not UTF-8 escaped
    _require_known(git, rel)
    if message.line is not None:
        _require_line(git, rel, message.line)
    queue = MessageQueue(Path(git.git_dir) / "segmint", git.root)
    try:
        queued = queue.append(message)
    except OSError as exc:  # a .git this user cannot write, a file where the queue's folder goes
        if disk_trouble(exc):
            raise
        raise SegmintError(f"Cannot queue the comment in {queue.folder}: {os_trouble(exc)}") from exc
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
    index, head = git.run_many(
        ("ls-files", "-z", "--", f":(literal){rel}"), ("cat-file", "-e", f"HEAD:{rel}"), may_fail=(1,)
    )
    if not index.stdout and head.returncode != 0:
        raise SegmintError(f"{shown(rel)} is not in the work tree, the index or HEAD: check the path.")


def _require_line(git: Git, rel: str, line: int) -> None:
    """Refuse a line past the end of every version of the file: the work tree's, the index's and HEAD's
    (a comment on a removed line names it as HEAD has it)."""
    path = os.path.join(git.root, rel)
    if os.path.isdir(path):
        raise SegmintError(f"{shown(rel)} is a folder: a comment on it cannot name a line.")
    longest = _line_count_on_disk(path)
    if line <= longest:
        return
    longest = max(longest, *_line_counts_in_git(git, rel))
    if line > longest:
        lines = "no lines" if longest == 0 else f"{longest} line{'s' if longest > 1 else ''}"
        raise SegmintError(f"{shown(rel)} has {lines}: there is no line {line}.")


def _line_count_on_disk(path: str) -> int:
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe would never end, a link to /dev/zero neither
            return 0
        with open(path, "rb") as f:
            return _line_count(f.read())
    except OSError:  # deleted from the work tree (git may still have it), or unreadable
        return 0


def _line_counts_in_git(git: Git, rel: str) -> list[int]:
    results = git.run_many(("cat-file", "blob", f":0:{rel}"), ("cat-file", "blob", f"HEAD:{rel}"), may_fail=(0, 1))
    return [_line_count(result.stdout) if result.returncode == 0 else 0 for result in results]


def _line_count(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _line_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a line number must be a positive whole number, not {text!r}")
    return value
