"""Every action of the app, as the command palette lists it.

Each entry names an action of the main screen (``MainScreen.action_<name>``).
The keys are not repeated here: they live in the widgets' BINDINGS (the footer
and the help screen read them from there), and a test checks that every bound
action has an entry here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    title: str
    help: str
    action: str  # an action of the main screen, with arguments if any


COMMANDS: list[Command] = [
    Command("Focus groups", "Move the focus to the groups pane", "focus_pane('groups')"),
    Command("Focus commits", "Move the focus to the commits pane", "focus_pane('commits')"),
    Command("Focus diff", "Show the diff pane and focus it", "focus_pane('diff')"),
    Command("Edit commit message", "Edit the title and body of the highlighted commit", "edit_message"),
    Command("Show pull request", "Show the pull-request draft", "focus_pane('pr')"),
    Command("Mark or unmark", "Mark the highlighted hunk, file or group for a move or merge", "toggle_mark"),
    Command(
        "Move hunks to a group",
        "Move the marked (or highlighted) hunks, or the lines selected in the diff (v), to another group",
        "move_hunks",
    ),
    Command(
        "Move hunks to a new group",
        "Move the marked (or highlighted) hunks, or the lines selected in the diff (v), to a new group",
        "move_to_new_group",
    ),
    Command("Undo last move", "Put back the hunks or lines the last move took (z)", "undo_move"),
    Command(
        "Search the diff",
        "Find text in the diff pane: enter or down for the next match, up for the previous",
        "search_diff",
    ),
    Command(
        "Open in editor",
        "Open $VISUAL or $EDITOR at the highlighted file and line; refresh when it closes",
        "open_editor",
    ),
    Command(
        "Next uncertain decision",
        "Go to the next hunk or group the engine is least sure of (marked ?)",
        "next_uncertain",
    ),
    Command(
        "Accept the alternative",
        "Do what the uncertain decision under the cursor offers: move the hunks, split them off or merge the groups",
        "accept_alternative",
    ),
    Command("Merge groups", "Merge the marked groups, or the highlighted group into another", "merge_groups"),
    Command("Rename group", "Change the summary of the highlighted group", "rename_group"),
    Command("Regroup from scratch", "Group all changes by intent again (drops manual moves)", "regroup"),
    Command(
        "Refine groups with the chat model",
        "The chat model (SEGMINT_CHAT_MODEL) moves, merges or splits groups; an invalid answer keeps them (z undoes)",
        "refine",
    ),
    Command("Propose commits", "One commit per group, in dependency order", "propose"),
    Command("Approve commit", "Approve the highlighted commit", "approve"),
    Command("Approve all commits", "Approve every open commit", "approve_all"),
    Command("Commit the highlighted commit", "Apply the highlighted commit to HEAD", "apply_commit"),
    Command("Commit all approved", "Apply every approved commit, in order", "apply_approved"),
    Command("Move commit up", "Move the highlighted commit one place earlier", "reorder(-1)"),
    Command("Move commit down", "Move the highlighted commit one place later", "reorder(1)"),
    Command(
        "Check commits", "Check each open commit on its own: does it build? (✓ / ✗ / not checked)", "check_commits"
    ),
    Command(
        "Fix failing commits",
        "Merge, move lines or reorder so each commit builds, each fix checked first (z undoes)",
        "fix_commits",
    ),
    Command(
        "Absorb fixes", "Plan fixes as folds into the unpushed commits they fix; the rest as new commits", "absorb"
    ),
    Command(
        "Apply the split",
        "Rewrite the branch with the commits of the split under way (its final tree checked first)",
        "apply_split",
    ),
    Command("Drop the split", "Drop the split under way; nothing was rewritten", "drop_split"),
    Command("Undo last operation", "Take back the last operation Segmint made (all commits of one apply)", "undo"),
    Command("Refresh", "Re-read the working tree (also happens on its own when files change)", "refresh"),
    Command("Comment for the agent", "Comment on the highlighted hunk or diff line; the agent reads it", "comment"),
    Command(
        "Now working on ...",
        "Say the task you start: your saves from now on are recorded under it, and "
        "grouping and commit titles follow it",
        "say_intent",
    ),
    Command("Task finished", "The task you said is done: saves from now on belong to no task", "finish_intent"),
    Command("Generate pull request", "Draft the pull request from the commits", "generate_pr"),
    Command("Copy pull request", "Copy the pull-request draft to the clipboard", "copy_pr"),
    Command("Save commit message", "Save the message in the commit editor", "save_message"),
    Command("Save pull request", "Save the pull-request draft being edited", "save_pr"),
    Command("Help", "Show the keys of every pane", "help"),
]


def action_name(action: str) -> str:
    """``reorder(-1)`` -> ``reorder``."""
    return action.split("(", 1)[0]
