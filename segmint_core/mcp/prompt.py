"""The ``split_my_changes`` prompt: the walk from a dirty tree to commits, for an agent new to Segmint."""

from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from segmint_core.mcp.args import MAX_TEXT

STEPS = """\
Split my uncommitted changes into commits, one intent per commit, with the Segmint tools. Segmint
reads the working tree, groups its hunks by intent, and commits each group exactly, without writing
the files on disk. A person may be reviewing the same session in the Segmint terminal UI.

1. Read: call check_lazygit_messages (comments the person left you), then list_changes: every
   staged, unstaged and untracked change, with hunk ids such as change-3:2. If that is too large to
   read at once, use list_chunks and get_chunk with "working-tree" instead.
2. Group: call group_changes. Settle confidence.uncertain first: the decisions Segmint is least
   sure of, each naming the move that would fix it (hunk_ids to to_group_id, or to a new group;
   a merge of group_id and to_group_id). Read those hunks and do it or leave it. Then for each
   group, read its summary and reasons and the hunks: does every hunk serve the same intent?
3. Fix the groups: move_hunks for a hunk in the wrong group (to_group_id, or new_group=true),
   move_lines for the lines of one intent inside a hunk that mixes two, merge_groups for groups
   that are one intent, update_group to name an intent in one line.
   get_session shows the whole state, including what the person changed.
4. Plan: call propose_commits. Improve each message with update_commit (a conventional subject
   such as "fix(parser): ...", a body that says why) and the order with reorder_commits (what
   other commits build on goes first).
5. Commit: call apply_commit for each commit in order (dry_run=true first if unsure). If the status
   is awaiting_approval, the person approves in the Segmint TUI: tell them what is ready and wait;
   get_session shows when it is applied. Ids change after each commit: call list_changes or
   get_session again before using ids.
6. Finish: call generate_pr and show me the draft.

Never edit, stash or revert files to make the commits fit: Segmint commits exactly the hunks of
each plan, and everything else stays in the working tree.
"""

DESCRIPTION = (
    "From a dirty working tree to one commit per intent, step by step: read, group, fix the groups, "
    'plan, commit, draft the PR. `focus` narrows it ("only the parser changes").'
)


def register(server: MCPServer) -> None:
    @server.prompt(title="Split my changes into commits", description=DESCRIPTION)
    def split_my_changes(focus: Annotated[str, Field(max_length=MAX_TEXT)] = "") -> str:
        if focus.strip():
            return f"{STEPS}\nFocus: {focus.strip()}\n"
        return STEPS
