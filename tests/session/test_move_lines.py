"""Session.move_lines: parts with stable ids, kept by a save and a restart; undo_move."""

from __future__ import annotations

import json

import pytest

from segmint_core.config import Settings
from segmint_core.errors import RefusedError, SegmintError
from segmint_core.session.session import Session
from tests.support.groups import stuck_pair
from tests.support.repo import Repo


@pytest.fixture
def four(repo: Repo) -> Session:
    """One hunk of four added lines, grouped."""
    repo.write("m.py", "a\nz\n")
    repo.commit()
    repo.write("m.py", "a\none\ntwo\nthree\nfour\nz\n")
    session = Session.open(str(repo.path))
    session.regroup()
    return session


def lines(session: Session, unit_id: str) -> list[str]:
    return session.units.by_id[unit_id].changed_lines


def test_moved_lines_get_a_new_part_and_the_others_keep_their_ids(four: Session) -> None:
    first = four.move_lines("change-1:1", [2, 4], new_group=True)
    assert (first.moved_id, first.rest_id, first.group.id) == ("change-1:1.2", "change-1:1.1", "group-2")
    assert lines(four, "change-1:1.1") == ["+one", "+three"] and lines(four, "change-1:1.2") == ["+two", "+four"]
    second = four.move_lines("change-1:1.1", [2], new_group=True)
    assert (second.moved_id, second.rest_id) == ("change-1:1.3", "change-1:1.1")
    assert lines(four, "change-1:1.2") == ["+two", "+four"], "an untouched part keeps its id and lines"
    assert [(g.id, g.hunk_ids) for g in four.groups] == [
        ("group-1", ["change-1:1.1"]),
        ("group-2", ["change-1:1.2"]),
        ("group-3", ["change-1:1.3"]),
    ]
    # The whole of a part into the group holding another part: they are one part, its number retired.
    joined = four.move_lines("change-1:1.3", [1], to_group_id="group-2")
    assert (joined.moved_id, joined.rest_id) == ("change-1:1.2", None)
    assert lines(four, "change-1:1.2") == ["+two", "+three", "+four"] and "change-1:1.3" not in four.units.by_id


def test_parts_survive_a_restart_and_a_refresh(four: Session, repo: Repo) -> None:
    four.move_lines("change-1:1", [3], new_group=True)
    again = Session.open(str(repo.path))
    assert [(g.id, g.hunk_ids) for g in again.groups] == [("group-1", ["change-1:1.1"]), ("group-2", ["change-1:1.2"])]
    assert lines(again, "change-1:1.2") == ["+three"]
    repo.write("other.txt", "new\n")
    again.refresh()
    assert lines(again, "change-1:1.2") == ["+three"] and lines(again, "change-1:1.1") == ["+one", "+two", "+four"]


def test_open_plans_go_out_of_date_and_undo_brings_them_back(four: Session) -> None:
    (proposed,) = four.propose_commits()
    four.move_lines("change-1:1", [1], new_group=True)
    (plan,) = four.plans
    assert plan.out_of_date and "group-1 changed" in plan.out_of_date, "a plan never commits lines moved away"
    four.undo_move()
    (plan,) = four.plans
    assert plan.out_of_date is None and plan.hunk_ids == ["change-1:1"]
    assert len(four.propose_commits()) == 1


def test_undo_puts_back_the_last_moves_one_by_one(four: Session) -> None:
    four.move_lines("change-1:1", [1], new_group=True)
    four.move_hunks(["change-1:1.2"], to_group_id="group-1")
    assert four.undo_move().startswith("person undid the move: person moved change-1:1.2 to group-1")
    assert [(g.id, g.hunk_ids) for g in four.groups] == [("group-1", ["change-1:1.1"]), ("group-2", ["change-1:1.2"])]
    four.undo_move()
    assert [(g.id, g.hunk_ids) for g in four.groups] == [("group-1", ["change-1:1"])]
    assert four.units.ids() == ["change-1:1"]
    with pytest.raises(SegmintError, match="Nothing to undo: no hunks or lines were moved"):
        four.undo_move()


def test_undo_is_refused_after_another_edit(four: Session) -> None:
    four.move_lines("change-1:1", [1], new_group=True)
    four.update_group("group-1", "The rest")
    with pytest.raises(RefusedError, match="The session changed since the last move"):
        four.undo_move()


@pytest.mark.parametrize(
    "places, message",
    [
        ([5], "change-1:1 has 4 changed lines: give places from 1 to 4 (not 5)"),
        ([0, 9], "change-1:1 has 4 changed lines: give places from 1 to 4 (not 0, 9)"),
        ([], "Give the lines of change-1:1 to move: places from 1 to 4 among its added and removed lines"),
    ],
)
def test_bad_places_change_nothing(four: Session, repo: Repo, places: list[int], message: str) -> None:
    saved = (repo.path / ".git" / "segmint" / "session.json").read_bytes()
    with pytest.raises(SegmintError) as refused:
        four.move_lines("change-1:1", places, new_group=True)
    assert str(refused.value) == message
    assert (repo.path / ".git" / "segmint" / "session.json").read_bytes() == saved


def test_a_plan_whose_part_git_joins_to_another_group_s_part_goes_out_of_date(repo: Repo) -> None:
    """After a commit, git may show what is left of two parts as one (lines at a last line
    without newline): the plan holding one of them must not commit the other's lines."""
    repo.write("f.txt", "b\na\na")
    repo.commit()
    repo.write("f.txt", "a\na\nb\na\nb\na\nb")
    session = Session.open(str(repo.path))
    session.regroup()
    assert [g.hunk_ids for g in session.groups] == [["change-1:1.1"], ["change-1:1.2"]]
    session.move_lines("change-1:1.1", [1, 3], new_group=True)
    first, second, third = session.propose_commits()
    session.apply_commit(first.id)
    still = [p for p in session.plans if p.id != first.id and not p.out_of_date]
    named = [h for p in still for h in p.hunk_ids]
    assert len(named) == len(set(named)), [(p.id, p.hunk_ids, p.out_of_date) for p in session.plans]
    for plan in still:
        shown = [h for g in session.groups if g.id in plan.change_group_ids for h in g.hunk_ids]
        assert sorted(shown) == sorted(plan.hunk_ids), "a plan still good commits what its group shows"


@pytest.fixture
def blank_new_file(repo: Repo) -> Repo:
    """A new file of five blank lines staged, then edited in the work tree; another file's edit staged."""
    repo.write("n.txt", "one\n")
    repo.commit()
    repo.write("a.py", "\n" * 5)
    repo.write("n.txt", "two\n")
    repo.add("a.py", "n.txt")
    repo.write("a.py", "a\n\n\n\ncaf\u00e9\n")
    return repo


def commit_all(session: Session) -> None:
    for plan in session.propose_commits():
        session.apply_commit(plan.id)


def test_a_line_added_to_a_staged_new_file_waits_for_the_file_s_creation(blank_new_file: Repo) -> None:
    session = Session.open(str(blank_new_file.path))
    session.regroup()
    assert [g.hunk_ids for g in session.groups] == [["change-1:1", "change-1:2"], ["change-2:1"]]
    session.move_lines("change-1:2", [1], to_group_id="group-2")  # "+a", beside n.txt's staged edit
    session.move_hunks(["change-1:1"], new_group=True)  # the creation, after them
    plans = session.propose_commits()
    order = [p.change_group_ids for p in plans]
    assert order.index(["group-3"]) < order.index(["group-2"]), order
    assert not any(p.note for p in plans)
    commit_all(session)
    assert blank_new_file.git("show", "HEAD:a.py") == "a\n\n\n\ncaf\u00e9\n"
    assert blank_new_file.git("status", "--porcelain") == ""


def test_a_plan_that_now_needs_a_later_one_is_out_of_date(blank_new_file: Repo) -> None:
    """Its unstaged removal of one of identical staged blank lines: after the first commit git
    pairs it with a blank line a later plan holds. The plan is refused as out of date, changing
    nothing, and the plans proposed again commit everything."""
    blank_new_file.write("a.py", "\n\n\n\ncaf\u00e9\n")
    session = Session.open(str(blank_new_file.path))
    session.regroup()
    first = session.move_lines("change-1:1", [5], new_group=True)  # the last staged blank line
    session.move_lines("change-1:2", [2], to_group_id=first.group.id)  # "+café", beside it
    second = session.move_lines("change-1:2.1", [1], new_group=True)  # the removal of that blank line
    session.move_hunks(["change-2:1"], to_group_id=second.group.id)
    session.move_lines(first.rest_id, [1, 2, 3, 4], new_group=True)  # the other blank lines, last
    one, two, three = session.propose_commits()
    assert [p.change_group_ids for p in (one, two, three)] == [["group-3"], ["group-4"], ["group-5"]]
    session.apply_commit(one.id)
    before = blank_new_file.snapshot()
    with pytest.raises(RefusedError, match=rf"{two.id} is out of date: it now needs {three.id}, ordered after it"):
        session.apply_commit(two.id)
    assert blank_new_file.snapshot() == before
    commit_all(session)
    assert blank_new_file.git("show", "HEAD:a.py") == "\n\n\n\ncaf\u00e9\n"
    assert blank_new_file.git("show", "HEAD:n.txt") == "two\n"
    assert blank_new_file.git("status", "--porcelain") == ""


def tree(repo: Repo, rev: str = "HEAD") -> dict[str, bytes]:
    """path -> blob bytes of a commit's tree."""
    out = {}
    for row in repo.git_bytes("ls-tree", "-r", "-z", rev).split(b"\0"):
        if row:
            meta, path = row.split(b"\t", 1)
            out[path.decode()] = repo.git_bytes("cat-file", "blob", meta.split()[2].decode())
    return out


def index_matches_head(repo: Repo) -> bool:
    return repo.git("diff", "--cached", "--name-only") == ""


def test_a_line_added_after_a_last_line_without_newline_waits_for_its_removal(repo: Repo) -> None:
    """The staged version drops HEAD's last line, which has no newline; the unstaged edit adds a
    line where it stood, beside another file's staged deletion. The plan holding the added line
    needs the one removing the old last line, and is ordered after it (it was tried first, and
    refused as missing a dependency)."""
    repo.write("b.txt", "x\n")
    repo.stage_then_edit("e.txt", "\n\n\na", "\n\n", "\na\n")
    repo.git("rm", "-q", "--", "b.txt")
    session = Session.open(str(repo.path), settings=Settings(prefer_one_commit=False))  # two groups to move between
    session.regroup()
    assert [g.hunk_ids for g in session.groups] == [["change-1:1"], ["change-2:1", "change-2:2"]]
    session.move_lines("change-2:2", [1, 2], to_group_id="group-1")  # "-" and "+a", beside b.txt's deletion
    work = repo.snapshot()["files"]
    plans = session.propose_commits()
    assert [p.change_group_ids for p in plans] == [["group-2"], ["group-1"]] and not any(p.note for p in plans)
    base = repo.head()
    commit_all(session)
    first, second = repo.git("rev-list", "--reverse", f"{base}..HEAD").split()
    assert tree(repo, first) == {"b.txt": b"x\n", "e.txt": b"\n\n"}
    assert tree(repo, second) == {"e.txt": b"\na\n"}
    assert repo.snapshot()["files"] == work and index_matches_head(repo)
    assert repo.git("status", "--porcelain") == ""


def test_lines_that_change_nothing_alone_but_another_plan_needs_are_merged_first(repo: Repo) -> None:
    """The old line made again, moved beside the deletion, changes nothing with it, yet the blank
    line needs the deletion: both plans say to merge their groups, applying either changes nothing,
    and the merged group commits it."""
    session = stuck_pair(repo)
    before, base = repo.snapshot(), repo.head()
    plans = session.propose_commits()
    assert [p.hunk_ids for p in plans] == [["change-1:1", "change-1:2.2"], ["change-1:2.1"]]
    idle, needer = plans
    assert (idle.merge_with, needer.merge_with) == ([needer.id], [idle.id])
    assert (
        idle.note == f"Depends on {needer.id}, which needs its lines, though on its own it changes nothing: "
        "merge their groups to commit"
    )
    assert needer.note == f"Depends on {idle.id}, which changes nothing on its own: merge their groups to commit"
    for plan in plans:
        with pytest.raises(
            RefusedError,
            match=f"^{plan.id} cannot be committed on its own. Depends on .*: merge their groups to commit$",
        ):
            session.apply_commit(plan.id)
        assert repo.snapshot() == before, "a refused plan changes nothing"
    with pytest.raises(RefusedError, match="merge their groups to commit"):
        session.apply_all()
    assert repo.snapshot() == before, "the batch is refused before any commit"
    session.merge_groups([g for p in plans for g in p.change_group_ids])
    commit_all(session)
    assert repo.git("rev-list", f"{base}..HEAD").split() == [repo.head()], "one commit"
    assert tree(repo) == {"a.py": b"\n\r\n"}
    assert repo.snapshot()["files"] == before["files"] and index_matches_head(repo)
    assert repo.git("status", "--porcelain") == ""


def test_a_plan_that_must_be_merged_is_refused_after_its_message_is_edited(repo: Repo) -> None:
    """Editing the message drops the plan's note; the plan is still one of two to merge."""
    session = stuck_pair(repo)
    plans = session.propose_commits()
    before = repo.snapshot()
    for plan in plans:
        session.update_commit(plan.id, title="fix: a title of my own")
        assert plan.note is None
    for plan in plans:
        other = next(p.id for p in plans if p is not plan)
        with pytest.raises(
            RefusedError,
            match=f"^{plan.id} cannot be committed on its own. Depends on {other}, "
            "which cannot be committed without it: merge their groups to commit$",
        ):
            session.apply_commit(plan.id)
    with pytest.raises(RefusedError, match="merge their groups to commit"):
        session.apply_all()
    assert repo.snapshot() == before, "nothing was committed, nothing staged"


def test_plans_to_merge_are_known_after_a_restart_and_in_a_session_saved_before_the_field(repo: Repo) -> None:
    session = stuck_pair(repo)
    ids = [(p.id, p.merge_with) for p in session.propose_commits()]
    assert all(others for _, others in ids)
    assert [(p.id, p.merge_with) for p in Session.open(str(repo.path)).plans] == ids, "saved and read back"

    saved = repo.path / ".git" / "segmint" / "session.json"
    data = json.loads(saved.read_text())
    for plan in data["plans"]:  # as a session saved before plans had merge_with: the note alone said it
        del plan["merge_with"]
    saved.write_text(json.dumps(data))
    reopened = Session.open(str(repo.path))
    assert [(p.id, p.merge_with) for p in reopened.plans] == ids
    before = repo.snapshot()
    with pytest.raises(RefusedError, match="cannot be committed on its own"):
        reopened.apply_commit(ids[0][0])
    assert repo.snapshot() == before


def test_lines_of_a_deletion_split_between_plans_that_each_change_nothing_are_merged(repo: Repo) -> None:
    """An empty file, staged with two lines, then deleted in the work tree. Each line's addition
    and removal moved to a group of its own: alone, each plan leaves the empty file as it is;
    together they delete it. Both say to merge, and the merged group deletes it."""
    repo.write("c.md", "")
    repo.commit()
    repo.write("c.md", "\na")
    repo.add("c.md")
    repo.delete("c.md")
    session = Session.open(str(repo.path))
    session.regroup()
    assert [lines(session, u) for u in ("change-1:1", "change-1:2")] == [["+", "+a"], ["-", "-a"]]
    first = session.move_lines("change-1:1", [1], new_group=True)
    session.move_lines("change-1:2", [1], to_group_id=first.group.id)
    before, base = repo.snapshot(), repo.head()
    plans = session.propose_commits()
    assert [sorted(lines(session, h)[0] for h in p.hunk_ids) for p in plans] == [["+a", "-a"], ["+", "-"]]
    one, two = plans
    assert (one.merge_with, two.merge_with) == ([two.id], [one.id])
    assert (
        one.note == f"Changes nothing on its own, nor does {two.id}, but together they do: merge their groups to commit"
    )
    with pytest.raises(RefusedError, match="cannot be committed on its own"):
        session.apply_all()
    assert repo.snapshot() == before
    session.merge_groups([g for p in plans for g in p.change_group_ids])
    commit_all(session)
    assert repo.git("rev-list", f"{base}..HEAD").split() == [repo.head()], "one commit"
    assert tree(repo) == {}
    assert repo.snapshot()["files"] == before["files"] and index_matches_head(repo)


def test_a_cut_hunk_moves_whole_by_the_git_hunk_id_diff_chunks_name_it_by(four: Session) -> None:
    four.move_lines("change-1:1", [2, 4], new_group=True)
    group = four.move_hunks(["change-1:1"], new_group=True)
    assert group.hunk_ids == ["change-1:1.1", "change-1:1.2"]
    assert [g.id for g in four.groups] == [group.id]
    with pytest.raises(SegmintError, match="change-1:9"):
        four.move_hunks(["change-1:9"], new_group=True)
