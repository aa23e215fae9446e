"""The session as both faces use it: edits persist, refresh carries them, events announce them."""

from __future__ import annotations

import pytest

from segmint_core.config import Settings
from segmint_core.errors import RefusedError, SegmintError, StaleReferenceError
from segmint_core.session.session import Session
from tests.session.conftest import one_group_per_hunk, open_session
from tests.support.openai_standin import StandIn
from tests.support.repo import Repo


def test_edits_survive_a_restart(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    session.update_group(session.groups[0].id, "Describe usage")
    plans = session.propose_commits()
    session.update_commit(plans[0].id, title="docs: say how to use it", description="Short and sweet.")
    session.reorder_commits([p.id for p in reversed(plans)])
    again = open_session(two_intents)
    assert [g.to_dict() for g in again.groups] == [g.to_dict() for g in session.groups]
    assert [p.to_dict() for p in again.plans] == [p.to_dict() for p in session.plans]
    assert again.revision == session.revision


@pytest.mark.parametrize("damage", [b"{not json", b"[1, 2]", b'{"format": 1, "groups": "nonsense"}'])
def test_an_unreadable_saved_session_is_set_aside_not_overwritten(two_intents: Repo, damage: bytes) -> None:
    """It may hold the only record of what undo would restore: the fresh session keeps it beside."""
    session = open_session(two_intents)
    session.propose_commits()
    saved = two_intents.path / ".git" / "segmint" / "session.json"
    saved.write_bytes(damage)
    again = open_session(two_intents)
    again.propose_commits()
    aside = saved.parent / "session.json.unreadable"
    assert aside.read_bytes() == damage
    told = f"Segmint could not read its saved session: it is kept as {aside}, and a new session starts."
    assert again.recovered == [told]
    assert told in [a["text"] for a in again.snapshot()["activity"]]
    assert open_session(two_intents).plans, "the fresh session is saved and read back"


def test_proposing_again_keeps_edited_messages_and_approvals(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    first, second, third = session.propose_commits()
    session.update_commit(first.id, title="docs: say how to use it")
    session.approve([second.id])
    again = {p.change_group_ids[0]: p for p in session.propose_commits()}
    edited, approved, fresh = (again[p.change_group_ids[0]] for p in (first, second, third))
    assert (edited.id, edited.title, edited.edited, edited.status) == (
        first.id,
        "docs: say how to use it",
        True,
        "proposed",
    )
    assert (approved.id, approved.title, approved.status) == (second.id, second.title, "approved")
    assert fresh.id not in (first.id, second.id) and fresh.status == "proposed" and not fresh.edited
    assert len({p.id for p in session.plans}) == 3

    session.move_hunks(approved.hunk_ids, to_group_id=edited.change_group_ids[0])
    moved = {p.change_group_ids[0]: p for p in session.propose_commits()}
    grown = moved[edited.change_group_ids[0]]
    assert grown.title == "docs: say how to use it" and grown.status == "proposed"
    assert sorted(grown.hunk_ids) == sorted(edited.hunk_ids + approved.hunk_ids)


def test_proposing_some_groups_again_keeps_their_plans_in_place(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    first, second, third = session.propose_commits()
    session.reorder_commits([third.id, first.id, second.id])  # the person's order, not the planner's
    again = session.propose_commits(first.change_group_ids)
    assert [p.id for p in session.plans] == [third.id, again[0].id, second.id]
    assert again[0].change_group_ids == first.change_group_ids

    session.update_commit(second.id, title="docs: the last one")
    session.propose_commits([second.change_group_ids[0], third.change_group_ids[0]])
    assert [p.change_group_ids for p in session.plans] == [
        third.change_group_ids,
        first.change_group_ids,
        second.change_group_ids,
    ]
    assert session.plans[2].title == "docs: the last one"


def test_a_hunk_edited_after_approval_comes_back_to_its_group_unapproved(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    plans = session.propose_commits()
    three = next(p for p in plans if "+line three" in session.units.by_id[p.hunk_ids[0]].changed_lines)
    session.approve([three.id])
    group = three.change_group_ids[0]
    two_intents.write("app.py", two_intents.read("app.py").decode().replace("line three", "line THREE"))
    session.refresh()
    assert session.plan(three.id).changed == ["app.py"]
    edited = session.group(group)
    assert [session.units.by_id[h].changed_lines for h in edited.hunk_ids] == [["-line 3", "+line THREE"]]
    assert len(session.groups) == 3, "no catch-all group for the edited hunk"
    again = {p.change_group_ids[0]: p for p in session.propose_commits()}
    assert again[group].status == "proposed", "an approval covers only what was approved"
    assert again[group].id not in {p.id for p in plans}, "an old id never names other changes"
    unchanged = [p for p in plans if p.change_group_ids[0] != group]
    assert {again[p.change_group_ids[0]].id for p in unchanged} == {p.id for p in unchanged}


def test_undo_puts_the_plan_back_as_it_was_and_keeps_the_applied_ones_whole(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    first, second, _ = session.propose_commits()
    session.apply_commit(first.id)
    session.apply_commit(second.id)
    session.undo()
    plans = {p.id: p for p in session.plans}
    assert (plans[first.id].status, len(plans[first.id].hunk_ids)) == ("applied", len(first.hunk_ids))
    assert (plans[second.id].status, plans[second.id].sha) == ("proposed", None)
    assert len(plans[second.id].hunk_ids) == len(second.hunk_ids)


def test_refresh_keeps_groups_for_hunks_still_there(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    session.update_group(session.groups[-1].id, "Thirty-five")
    before = {g.summary: g.hunk_ids for g in session.groups}
    two_intents.write("new.txt", "fresh\n")
    text = two_intents.read("app.py").decode().replace("line three\n", "line 3\n")
    two_intents.write("app.py", text)  # the first app.py edit is undone on disk
    report = session.refresh()
    assert report.changed and len(report.vanished) == 1
    assert report.sentence() == "Refreshed: 1 hunk gone, 1 new hunk."
    new_txt = next(c for c in session.changes if c.file_path == "new.txt")
    assert report.appeared == [new_txt.hunks[0].id]
    by_summary = {g.summary: g for g in session.groups}
    assert "Thirty-five" in by_summary
    kept = by_summary["Thirty-five"].hunk_ids
    assert len(kept) == 1 and session.units.by_id[kept[0]].changed_lines == ["-line 35", "+line thirty-five"]
    newcomers = next(g for g in session.groups if "New changes" in g.summary)
    assert newcomers.hunk_ids == [new_txt.hunks[0].id]
    assert len(session.groups) == len(before)  # one group lost its hunk, one appeared


def test_restart_after_files_changed_remaps(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    session.update_group(session.groups[0].id, "Kept through a restart")
    two_intents.write("zzz.txt", "late\n")
    again = open_session(two_intents)
    assert "Kept through a restart" in [g.summary for g in again.groups]
    assert again.last_refresh.changed


def test_every_edit_is_announced(two_intents: Repo) -> None:
    session = open_session(two_intents)
    seen = []
    unsubscribe = session.subscribe(lambda event: seen.append((event.kind, event.actor)))
    session.regroup(actor="agent")
    session.move_hunks([session.groups[0].hunk_ids[0]], new_group=True, actor="agent")
    session.propose_commits(actor="person")
    unsubscribe()
    session.refresh()
    assert seen == [("groups", "agent"), ("groups", "agent"), ("plans", "person")]
    assert session.activity[-1].text.startswith("person proposed")
    assert any(a.text.startswith("agent moved change-") for a in session.activity)


def test_moving_hunks_to_their_own_group_keeps_them_there_and_says_so(two_intents: Repo) -> None:
    session = open_session(two_intents)
    session.regroup()
    group = session.groups[0]
    hunk = group.hunk_ids[0]
    groups = [(g.id, list(g.hunk_ids)) for g in session.groups]
    session.move_hunks([hunk], to_group_id=group.id, actor="agent")
    assert [(g.id, g.hunk_ids) for g in session.groups] == groups
    assert session.activity[-1].text == f"agent kept {hunk} in {group.id}"
    assert hunk in session.state.settled  # settled: no longer offered as an uncertain decision


def test_agent_commits_wait_for_the_person(two_intents: Repo) -> None:
    session = open_session(two_intents)
    session.set_presence(person_present=True)
    plan = session.propose_commits()[0]
    head = two_intents.head()
    outcome = session.apply_commit(plan.id, actor="agent")
    assert outcome.status == "awaiting_approval" and two_intents.head() == head
    assert session.snapshot()["approvals_pending"] == [plan.id]
    session.approve([plan.id])
    assert session.apply_commit(plan.id, actor="agent").status == "applied"
    session.set_presence(person_present=True, agent_can_commit=True)
    assert session.apply_commit(session.plans[1].id, actor="agent").status == "applied"


def test_stale_revision_is_refused(two_intents: Repo) -> None:
    session = open_session(two_intents)
    old = session.changes_revision
    two_intents.write("x.txt", "x\n")
    session.refresh()
    with pytest.raises(StaleReferenceError, match=f"IDs from revision {old} are stale"):
        session.check_revision(old)
    session.check_revision(session.changes_revision)
    # The session's own revision, which results also carry, is named as the likely mix-up.
    with pytest.raises(StaleReferenceError, match="pass changes_revision from get_session or list_changes"):
        session.check_revision(session.changes_revision + 1)


def test_edit_validation(two_intents: Repo) -> None:
    session = open_session(two_intents)
    plans = session.propose_commits()
    with pytest.raises(SegmintError, match="one non-empty line"):
        session.update_commit(plans[0].id, title="two\nlines")
    with pytest.raises(SegmintError, match="exactly once"):
        session.reorder_commits([plans[0].id])
    with pytest.raises(SegmintError, match="either to_group_id or new_group"):
        session.move_hunks([session.groups[0].hunk_ids[0]])


def test_model_writes_messages_and_failures_fall_back(two_intents: Repo) -> None:
    with StandIn() as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        session = Session.open(str(two_intents.path), settings=settings)
        plans = session.propose_commits()
        assert plans[0].title == "feat(app): do the thing" and plans[0].note is None
        assert {r["auth"] for r in standin.requests} == {"Bearer k"}
        sent = [r["body"]["messages"][1]["content"] for r in standin.requests]
        assert any(text.startswith("Diff of the commit:") for text in sent)  # beside group summaries
        standin.fail_with = 500
        plans = session.propose_commits()
        assert plans[0].note.startswith("Offline message: The model endpoint")
        assert not plans[0].title.startswith("feat(app): do the thing")
        draft = session.generate_pr()
        assert draft.note.startswith("Offline summary:")


def test_unreachable_model_names_the_setting(two_intents: Repo) -> None:
    settings = Settings(base_url="http://127.0.0.1:9/v1", api_key="k", chat_model="m", timeout=2)
    session = Session.open(str(two_intents.path), settings=settings)
    plan = session.propose_commits()[0]
    assert "SEGMINT_BASE_URL" in plan.note


def test_pr_draft_lists_commits_and_tests(repo: Repo) -> None:
    repo.write("src/calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("tests/test_calc.py", "from calc import add\n")
    repo.commit()
    repo.write("src/calc.py", "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n")
    repo.write("tests/test_calc.py", "from calc import add, sub\n\n\ndef test_sub():\n    assert sub(3, 1) == 2\n")
    session = open_session(repo)
    session.propose_commits()
    first = session.plans[0]
    session.apply_commit(first.id)
    draft = session.generate_pr()
    assert "## Summary" in draft.description and "## Test plan" in draft.description
    assert f"`{session.plan(first.id).sha[:7]}` {first.title}" in draft.description
    assert "- [ ] New test: sub (`tests/test_calc.py`)" in draft.description, "read from the applied commit"
    assert "src/calc.py" not in draft.description, "no list of files: the review shows them, with their counts"
    assert not draft.edited and session.update_pr(title="Add sub").edited
    assert session.pr.commits[0] is not session.plans[0], "the draft keeps the commits as it saw them"
    with pytest.raises(RefusedError, match="was edited since it was drafted"):
        session.generate_pr()
    assert not session.generate_pr(replace=True).edited


def test_pr_draft_names_deleted_test_files_as_removed_not_to_run(repo: Repo) -> None:
    repo.write("src/calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("tests/test_add.py", "def test_add():\n    assert True\n")
    repo.write("tests/test_old.py", "def test_old():\n    assert True\n")
    repo.write("tests/test_gone.py", "def test_gone():\n    pass\n")
    repo.commit()
    repo.delete("tests/test_old.py")
    repo.git("rm", "-q", "tests/test_gone.py")
    repo.write("tests/test_add.py", "def test_add():\n    assert 1 + 1 == 2\n")
    repo.write("tests/test_sub.py", "def test_sub():\n    assert 3 - 1 == 2\n")
    session = open_session(repo)
    session.propose_commits()
    planned = session.generate_pr().description.split("## Test plan\n\n", 1)[1]
    assert sorted(planned.splitlines()) == [
        "- No test command found in the project's manifests; describe how this was checked.",
        "- Removed test: gone (`tests/test_gone.py`)",
        "- Removed test: old (`tests/test_old.py`)",
        "- [ ] Changed test: add (`tests/test_add.py`)",
        "- [ ] New test: sub (`tests/test_sub.py`)",
    ]
    session.apply_all(actor="person")
    applied = session.generate_pr(replace=True).description.split("## Test plan\n\n", 1)[1]
    assert sorted(applied.splitlines()) == sorted(planned.splitlines()), "the same, read from the commits"


def test_pr_draft_of_only_deleted_test_files_has_none_to_run(repo: Repo) -> None:
    repo.write("tests/test_old.py", "def test_old():\n    assert True\n")
    repo.commit()
    repo.delete("tests/test_old.py")
    session = open_session(repo)
    session.propose_commits()
    assert session.generate_pr().description.endswith(
        "## Test plan\n\n- Removed test: old (`tests/test_old.py`)\n"
        "- No test command found in the project's manifests; describe how this was checked.\n"
    )


def test_a_message_counts_a_line_staged_then_edited_again_once(repo: Repo) -> None:
    repo.stage_then_edit("f.txt", "1\n2\n3\n4\n5\n", "1\n2\n3\n4\nfive\n", "1\n2\n3\n4\nFIVE\n6\n")
    session = open_session(repo)
    session.regroup()
    session.move_hunks([h.id for c in session.changes for h in c.hunks], to_group_id=session.groups[0].id)
    (plan,) = session.propose_commits()
    session.apply_commit(plan.id)
    assert repo.git("diff", "--numstat", "HEAD~1", "HEAD").split()[:2] == ["2", "1"]


def test_secrets_never_reach_the_model(repo: Repo) -> None:
    repo.write("settings.py", "DEBUG = False\n")
    repo.commit()
    repo.write("settings.py", 'DEBUG = False\nAPI_KEY = "sk-live-0123456789abcdefghijklmnop"\n')
    with StandIn() as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        session = Session.open(str(repo.path), settings=settings)
        session.propose_commits()
        session.generate_pr()
        sent = "\n".join(m["content"] for r in standin.requests for m in r["body"]["messages"])
    assert standin.requests and "sk-live-0123456789" not in sent
    assert "looks like a secret" in sent


def test_two_processes_never_overwrite_each_other(two_intents: Repo) -> None:
    """Two sessions on one repository (the TUI and `segmint apply` in another terminal, say)."""
    tui = open_session(two_intents)
    one_group_per_hunk(tui)
    other = open_session(two_intents)  # a second process, reading what the first saved
    seen = []
    tui.subscribe(lambda event: seen.append(event.detail))
    other.update_group(other.groups[0].id, "Renamed elsewhere")
    moved = tui.groups[-1].hunk_ids[0]
    tui.move_hunks([moved], to_group_id=tui.groups[0].id)  # starts from the other's rename
    assert tui.groups[0].summary == "Renamed elsewhere" and moved in tui.groups[0].hunk_ids
    assert {"reloaded": True} in seen
    again = open_session(two_intents)
    assert again.groups[0].summary == "Renamed elsewhere" and moved in again.groups[0].hunk_ids
    snapshot = other.snapshot()  # reads adopt too
    assert moved in snapshot["groups"][0]["hunk_ids"]


def test_a_commit_made_by_another_process_is_taken_up(two_intents: Repo) -> None:
    tui = open_session(two_intents)
    plans = tui.propose_commits()
    cli = open_session(two_intents)
    cli.apply_commit(plans[0].id)
    assert tui.snapshot()["plans"][0]["status"] == "applied"
    assert tui.plan(plans[0].id).sha == two_intents.head()
    assert len(tui.changes) == len(cli.changes)


def test_a_description_with_a_nul_byte_is_refused_when_edited_not_when_committed(two_intents: Repo) -> None:
    # git cannot store a NUL in a commit message: said at the edit, not as a failed commit later.
    session = open_session(two_intents)
    plans = session.propose_commits()
    with pytest.raises(SegmintError, match="^A commit description cannot hold a NUL byte"):
        session.update_commit(plans[0].id, description="body\x00more")
    assert session.plan(plans[0].id).description == plans[0].description
    session.update_commit(plans[0].id, title="fix: a\x00b")  # a title is shown escaped, like a file name
    session.apply_commit(plans[0].id)
    assert two_intents.git("log", "-1", "--format=%s") == "fix: a\\x00b\n"


def test_undo_of_a_commit_that_failed_before_does_not_bring_back_the_old_failure(two_intents: Repo) -> None:
    session = open_session(two_intents)
    first = session.propose_commits()[0]
    hook = two_intents.path / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho refused >&2\nexit 1\n")
    hook.chmod(0o755)
    with pytest.raises(SegmintError, match="refused"):
        session.apply_commit(first.id)
    hook.unlink()
    session.apply_commit(first.id)
    session.undo()
    plan = next(p for p in open_session(two_intents).plans if p.id == first.id)
    assert (plan.status, plan.error, plan.sha) == ("proposed", None, None)
