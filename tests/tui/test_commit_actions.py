"""From groups to commits: propose, edit a message, reorder, approve, commit one or all, undo, failures."""

from __future__ import annotations

from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from tests.mcp.support import data, legacy
from segmint_tui.diff_render import HunkBlock
from tests.support.readme_captions import readme_edited
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle, type_text


def log(repo: Repo) -> list[str]:
    return repo.git("log", "--format=%s").splitlines()


async def propose(pilot) -> None:
    await pilot.press("p")
    await settle(pilot)
    assert pilot.app.focused is pilot.app.main.commits


async def test_propose_shows_the_commits_in_order_with_their_status(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        await propose(pilot)
        plans = pilot.app.session.plans
        assert len(plans) == 3
        text = screen_text(pilot.app)
        for n, plan in enumerate(plans, 1):
            assert f"{n}. {plan.title[:30]}" in text
            assert f"○ proposed  {plan.id} · {plan.change_group_ids[0]}" in text
        assert "⏎ Edit" in text and "a Approve" in text and "u Undo" in text, "the commits pane's keys"


async def test_edit_a_commit_message_in_the_editor(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        await pilot.press("enter")
        assert app.focused is app.main.editor.title_input
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "feat(config): read settings as JSON")
        await pilot.press("enter")  # on to the body, a TextArea
        assert app.focused is app.main.editor.body
        await pilot.press("f7")  # select all, replaced by what is typed
        await type_text(pilot, "INI files are gone.")
        await pilot.press("ctrl+s")
        await settle(pilot)
        plan = app.session.plans[0]
        assert (plan.title, plan.description) == ("feat(config): read settings as JSON", "INI files are gone.")
        saved = Session.open(str(demo.path)).plans[0]
        assert saved.title == "feat(config): read settings as JSON"
        await pilot.press("end")
        await type_text(pilot, " Only JSON.")
        await pilot.press("escape")  # saves and goes back to the list
        await settle(pilot)
        assert app.focused is app.main.commits
        assert app.session.plans[0].description == "INI files are gone. Only JSON."
        assert "1. feat(config): read settings as JSON" in screen_text(app)


async def test_reorder_commits(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        first, second, third = (p.id for p in app.session.plans)
        await pilot.press("J")
        await settle(pilot)
        assert [p.id for p in app.session.plans] == [second, first, third]
        assert app.main.commits.highlighted_plan.id == first, "the moved commit stays highlighted"
        await pilot.press("shift+down")
        await settle(pilot)
        assert [p.id for p in Session.open(str(demo.path)).plans] == [second, third, first]
        await pilot.press("K")
        await settle(pilot)
        assert [p.id for p in app.session.plans] == [second, first, third]


async def test_approve_then_commit_one(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        plan = app.session.plans[0]
        await pilot.press("a")
        await settle(pilot)
        assert app.session.plans[0].status == "approved"
        assert f"✓ approved  {plan.id}" in screen_text(app)
        await pilot.press("x")
        await settle(pilot)
        applied = app.session.plan(plan.id)
        assert applied.status == "applied" and log(demo)[0] == plan.title
        assert applied.sha == demo.head()
        assert f"● applied {applied.sha[:7]}" in screen_text(app)


async def test_approve_all_and_commit_them_leaves_a_clean_tree(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        titles = [p.title for p in app.session.plans]
        await pilot.press("A")
        await settle(pilot)
        assert {p.status for p in app.session.plans} == {"approved"}
        await pilot.press("X")
        await settle(pilot)
        assert log(demo)[:3] == titles[::-1]
        assert demo.status() == ""
        assert {p.status for p in app.session.plans} == {"applied"}
        await pilot.press("1")
        await settle(pilot)
        assert "The working tree is clean: nothing to commit." in screen_text(app)


async def test_undo_the_last_commit(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        base = demo.head()
        await pilot.press("a", "x")
        await settle(pilot)
        assert demo.head() != base
        await pilot.press("u")
        await settle(pilot)
        assert demo.head() == base
        assert app.session.plans[0].status == "proposed", "the approval was spent on the commit undone"
        assert "person undid op-1 (commit-1)" in screen_text(app)


async def test_after_undo_an_agent_s_commit_waits_for_approval_again(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        base = demo.head()
        await pilot.press("A")
        await settle(pilot)
        await pilot.press("X")
        await settle(pilot)
        last = app.session.applied[-1].plan_id
        await pilot.press("u")  # takes back the whole X: every commit it made
        await settle(pilot)
        assert demo.head() == base
        assert {p.status for p in app.session.plans} == {"proposed"} and "✓ approved" not in screen_text(app)
        async with legacy(build_server(app.session)) as agent:  # the real MCP client, as an agent would
            asked = await data(agent, "apply_commit", commit_id=last)
        assert (asked["status"], asked["sha"]) == ("awaiting_approval", None)
        assert demo.head() == base and app.session.plan(last).status == "awaiting_approval"


async def test_a_failed_commit_shows_its_reason(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        (demo.path / ".git" / "MERGE_HEAD").write_text(demo.head() + "\n")
        await pilot.press("x")
        await settle(pilot)
        plan = app.session.plans[0]
        assert plan.status == "failed" and "merge is in progress" in plan.error
        text = screen_text(app)
        assert "✗ failed  commit-1" in text and "    Cannot commit while a merge is in progress" in text
        assert "failed: Cannot commit while a merge is in progress" in text, "the diff pane's title says why"
        assert any(n.startswith("Could not commit commit-1: Cannot commit while a merge") for n in notifications(app))


async def test_opening_the_editor_puts_the_cursor_after_the_title_without_selecting_it(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        title = app.session.plans[0].title
        await pilot.press("4")
        field = app.main.editor.title_input
        assert app.focused is field and field.selected_text == "" and field.cursor_position == len(title)
        await pilot.press("a")  # "approve", out of habit: one letter more, no more
        assert field.value == title + "a"


async def test_a_refused_save_on_escape_keeps_the_editor_open(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        plan = app.session.plans[0]
        await pilot.press("enter", "ctrl+u", "tab")  # clear the title, on to the body
        await type_text(pilot, "A body without a title.")
        await pilot.press("escape")
        await settle(pilot)
        assert "Could not save the message: A commit title must be one non-empty line" in notifications(app)
        assert app.focused is app.main.editor.body, "still in the editor, to fix the title"
        assert app.main.query_one("TabbedContent").active == "message-tab"
        assert app.session.plans[0].title == plan.title
        await pilot.press("shift+tab")
        await type_text(pilot, "docs: explain the body")
        await pilot.press("escape")
        await settle(pilot)
        assert app.focused is app.main.commits
        saved = app.session.plans[0]
        assert saved.title == "docs: explain the body" and saved.description.startswith("A body without a title.")


async def test_a_message_the_session_trims_on_save_is_shown_as_saved_and_the_agent_s_edit_shows(demo: Repo) -> None:
    """The session trims what it saves (spaces around the title, blank lines ending the body): the
    editor then shows the saved text, not an unsaved edit that hid the agent's next edit and saved over it."""
    async with running(demo.path) as pilot:
        app = pilot.app
        editor = app.main.editor
        await propose(pilot)
        commit = app.session.plans[0].id
        await pilot.press("enter", "ctrl+u")
        await type_text(pilot, "docs: say why  ")
        await pilot.press("tab", "f7")  # the body, all of it selected
        await type_text(pilot, "Because.\n\n")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert (app.session.plans[0].title, app.session.plans[0].description) == ("docs: say why", "Because.")
        assert (editor.title_input.value, editor.body.text) == ("docs: say why", "Because.")
        assert not editor.dirty
        app.session.update_commit(commit, title="docs: the agent's title", description="Its body.", actor="agent")
        await settle(pilot)
        assert (editor.title_input.value, editor.body.text) == ("docs: the agent's title", "Its body.")
        await pilot.press("escape")  # nothing unsaved: back to the list
        await settle(pilot)
        assert app.focused is app.main.commits
        assert app.session.plans[0].title == "docs: the agent's title"


async def test_a_message_left_unsaved_for_another_commit_is_saved_not_dropped(demo: Repo) -> None:
    """Leaving the editor by the mouse (or tab) keeps its text; highlighting another commit
    then saved nothing and loaded the other one's message over it."""
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        first, _, third = app.session.plans
        title = first.title
        await pilot.press("enter")
        await type_text(pilot, " for good")
        await pilot.click("#commits", offset=(5, 4))  # the third commit's row
        await settle(pilot)
        assert app.main.commits.highlighted_plan.id == third.id
        assert app.main.editor.title_input.value == third.title and not app.main.editor.dirty
        assert app.session.plans[0].title == title + " for good"
        assert f"Saved the message of {first.id}" in notifications(app)


async def test_a_whole_message_pasted_into_the_title_keeps_its_body(demo: Repo) -> None:
    """A pasted title and body: the first line is the title, the rest goes on into the body
    (Textual's Input kept the first line and dropped the rest without a word)."""
    async with running(demo.path) as pilot:
        app = pilot.app
        editor = app.main.editor
        await propose(pilot)
        await pilot.press("enter", "tab", "f7", "backspace", "shift+tab", "ctrl+u")  # both fields emptied
        await type_text(pilot, "feat: pasted whole\n\nThe body, first line.\nIts second line.\n")
        assert editor.title_input.value == "feat: pasted whole"
        assert editor.body.text == "The body, first line.\nIts second line."
        assert app.focused is editor.body, "on in the body, after what was pasted"
        await pilot.press("escape")
        await settle(pilot)
        plan = app.session.plans[0]
        assert (plan.title, plan.description) == ("feat: pasted whole", "The body, first line.\nIts second line.")


async def test_the_editor_s_approve_and_commit_buttons_take_the_message_as_shown(demo: Repo) -> None:
    """Approve and Commit under an edited message: the commit carries the message on screen
    (it carried the one saved before, and the edit was then refused as already applied)."""
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        title = app.session.plans[0].title
        await pilot.press("enter")
        await type_text(pilot, " for good")
        await pilot.click("#commit-approve")
        await settle(pilot)
        assert app.session.plans[0].status == "approved" and app.session.plans[0].title == title + " for good"
        await pilot.click("#commit-title")
        await pilot.press("end")
        await type_text(pilot, ", really")
        await pilot.click("#commit-apply")
        await settle(pilot)
        assert log(demo)[0] == title + " for good, really"
        assert not app.main.editor.dirty


def added_lines(view) -> set[str]:
    """The added lines of the hunks the diff pane shows."""
    hunks = [block.hunk for block in view.document.blocks if isinstance(block, HunkBlock)]
    return {line[1:] for hunk in hunks for line in hunk.lines if line.startswith("+")}


async def commit_the_first(pilot):
    """Propose, then approve and commit the first commit; that commit's plan."""
    await propose(pilot)
    await pilot.press("a", "x")
    await settle(pilot)
    plan = pilot.app.session.plans[0]
    assert plan.status == "applied"
    return plan


async def test_an_applied_commit_shows_its_own_diff_from_git(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        plan = await commit_the_first(pilot)
        await pilot.press("r", "j", "k")  # after a refresh, its hunk ids name other hunks
        await settle(pilot)
        shown = demo.git("show", "--format=", plan.sha).splitlines()
        added = {line[1:] for line in shown if line.startswith("+") and not line.startswith("+++")}
        assert added_lines(app.main.diff) == added
        assert f"applied as {plan.sha[:7]}: the diff of that commit" in screen_text(app)
        await pilot.press("3", "]")  # on a hunk of the commit: nothing to comment on
        footer = screen_text(app).splitlines()[-1]
        assert "] Next hunk" in footer and "c Comment" not in footer and "m Move" not in footer
        await pilot.press("c")
        assert app.screen is app.main, "no comment prompt"


async def test_a_commit_whose_lines_changed_on_disk_says_it_is_out_of_date(demo: Repo) -> None:
    async with running(demo.path, toasts=True) as pilot:
        app = pilot.app
        await propose(pilot)
        first = app.session.plans[0]
        change, hunks = app.session.parts(first.hunk_ids)[0]
        added = next(line[1:] for line in hunks[0].lines if line.startswith("+") and line[1:].strip())
        text = demo.read(change.file_path).decode()
        demo.write(change.file_path, text.replace(added, added.rstrip() + "  # edited again", 1))
        await pilot.press("r")
        await settle(pilot)
        assert app.session.plan(first.id).changed == [change.file_path]
        assert f"out of date ({change.file_path} changed): p proposes again" in screen_text(app)
        head = demo.git("rev-parse", "HEAD")
        await pilot.press("home", "x")
        await settle(pilot)
        assert demo.git("rev-parse", "HEAD") == head, "nothing committed"
        await pilot.press("p")
        await settle(pilot)
        assert not any(p.changed for p in app.session.plans)


async def test_a_commit_out_of_date_with_the_same_hunks_says_so_in_the_list(demo: Repo) -> None:
    """HEAD moved under the proposed commits (a commit made elsewhere): their hunks and ids stay, and
    each row of the list says it is out of date, as the diff pane and the editor do."""
    async with running(demo.path) as pilot:
        app = pilot.app
        await propose(pilot)
        demo.git("commit", "--allow-empty", "-m", "made in another terminal")
        await pilot.press("r")
        await settle(pilot)
        assert all(plan.out_of_date for plan in app.session.plans)
        rows = [app.main.commits.get_option_at_index(n).prompt.plain for n in range(len(app.session.plans))]
        assert all(f"{plan.id} is out of date: HEAD moved" in row for plan, row in zip(app.session.plans, rows))
        assert "commit-1 is out of date: HEAD moved" in screen_text(app)


async def test_an_applied_commit_s_message_cannot_be_edited(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await commit_the_first(pilot)
        await pilot.press("home", "enter")
        await settle(pilot)
        assert app.main.editor.title_input.disabled and app.main.editor.body.read_only
        assert app.focused is not app.main.editor.title_input


async def test_the_editor_clears_or_selects_a_whole_field_with_one_key(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        editor = app.main.editor
        await propose(pilot)
        await pilot.press("enter")
        assert editor.body.text, "a generated body to clear"
        text = screen_text(app)
        assert "f7 Select all" in text and "f8 Clear field" in text, "the keys are in the footer"
        await pilot.press("f7")  # the whole title, replaced by what is typed
        await type_text(pilot, "docs: say it shorter")
        assert editor.title_input.value == "docs: say it shorter"
        await pilot.press("tab", "f8")  # the body emptied with one key
        assert editor.body.text == ""
        await pilot.press("ctrl+z")
        assert editor.body.text, "and ctrl+z brings it back"
        await pilot.press("f8")
        await type_text(pilot, "Shorter.")
        await pilot.press("shift+tab", "f8")
        assert editor.title_input.value == ""
        await type_text(pilot, "docs: shorter")
        await pilot.press("ctrl+s")
        await settle(pilot)
        plan = app.session.plans[0]
        assert (plan.title, plan.description) == ("docs: shorter", "Shorter.")


async def test_propose_merges_groups_titled_alike_and_the_groups_pane_follows(repo: Repo) -> None:
    readme_edited(repo)
    async with running(repo.path) as pilot:
        assert len(pilot.app.session.groups) == 2
        await propose(pilot)
        (plan,) = pilot.app.session.plans
        (group,) = pilot.app.session.groups
        text = screen_text(pilot.app)
        assert f"1. {plan.title[:30]}" in text
        assert f"○ proposed  {plan.id} · {group.id}" in text
        assert "#1 +5 −3" in text and "#2 " not in text, "the groups pane shows the one group left"
        assert f"segmint merged group-1, group-2 into {group.id}: their commits said" in text
