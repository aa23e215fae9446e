"""The ``split_my_changes`` prompt: the walk from a dirty tree to commits."""

from __future__ import annotations

from mcp.server import MCPServer

STEPS = """\
Split my uncommitted changes into commits, one intent per commit, using the Segmint tools.

1. List: call list_changes to see every change (staged, unstaged, untracked) with its hunks.
   For a very large diff, use list_chunks / get_chunk with "working-tree" to read it in parts.
2. Group: call group_changes (no arguments groups everything). Read each group's summary and
   reasons, and check them against the code: does every hunk in a group serve the same intent?
3. Refine: fix what is wrong with move_hunks (to another group, or new_group=true), merge_groups,
   and update_group (a one-line summary naming the intent). Call check_lazygit_messages first:
   the person may have left comments on files or hunks. get_session shows the whole state.
4. Plan: call propose_commits, then improve titles and bodies with update_commit (conventional
   subjects such as "fix(parser): ..."; bodies that say why) and the order with reorder_commits
   (a change others depend on goes first).
5. Apply: call apply_commit for each commit in order, with dry_run=true first if unsure. If the
   answer is awaiting_approval, a person is reviewing in the Segmint TUI: tell them what is ready
   and wait; get_session shows when it is applied. After each commit, ids change: call
   list_changes or get_session again before using ids.
6. Finish: call generate_pr for the pull-request draft and show it to me.

Never edit or revert files to make commits fit; Segmint commits exactly the hunks of each plan.
"""

DESCRIPTION = ("Walk through list, group, refine, plan and apply: the dirty working tree becomes one commit per "
               "intent. `focus` optionally narrows it (\"only the parser changes\").")


def register(server: MCPServer) -> None:
    @server.prompt(title="Split my changes into commits", description=DESCRIPTION)
    def split_my_changes(focus: str = "") -> str:
        if focus.strip():
            return f"{STEPS}\nFocus: {focus.strip()}\n"
        return STEPS
