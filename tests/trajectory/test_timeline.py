"""``hunk_histories``: which snapshots, bursts and intents wrote each hunk's lines."""

from __future__ import annotations

import os
from pathlib import Path

from segmint_core.changes import ChangeSet, capture
from segmint_core.git import Git
from segmint_core.session.session import Session
from segmint_core.trajectory.recorder import Recorder
from segmint_core.trajectory.timeline import HunkHistory, commit_histories, hunk_histories
from tests.support.repo import Repo
from tests.trajectory.scripted import BURSTS, CURRENCY, EDITS, ROUNDING, build_scripted_timeline
from tests.trajectory.support import FakeClock


def lines(n: int, tag: str = "line") -> str:
    return "".join(f"{tag} {k}\n" for k in range(1, n + 1))


def replace_line(repo: Repo, path: str, number: int, text: str) -> None:
    rows = repo.read(path).decode().split("\n")
    rows[number - 1] = text
    repo.write(path, "\n".join(rows))


def changes_of(repo: Repo) -> ChangeSet:
    return capture(Git(str(repo.path)))


def by_first_added(changes: ChangeSet, histories: dict[str, HunkHistory]) -> dict[str, HunkHistory]:
    out = {}
    for change in changes.changes:
        for hunk in change.hunks:
            added = [line[1:] for line in hunk.lines if line.startswith(("+", "-"))]
            out[added[-1]] = histories[hunk.id]
    return out


def save(rec: Recorder, clock: FakeClock, seconds: float, intent: str | None, *paths: str) -> str:
    clock.advance(seconds)
    rec.intent = intent
    snap = rec.record(list(paths))
    assert snap is not None
    return snap.commit


def test_no_shadow_repository_means_no_timeline(repo: Repo) -> None:
    repo.write("a.txt", "a\n")
    repo.commit()
    repo.write("a.txt", "b\n")
    assert hunk_histories(str(repo.path), changes_of(repo)) is None


def test_a_damaged_shadow_repository_means_no_timeline_and_grouping_goes_on(repo: Repo) -> None:
    repo.write("m.py", lines(10))
    repo.commit()
    clock = FakeClock()
    rec = Recorder(str(repo.path), clock=clock)
    rec.open()
    replace_line(repo, "m.py", 5, "five, edited")
    save(rec, clock, 10, "Intent A", "m.py")
    blob = Git(str(repo.path)).run("--git-dir=.trajectory", "rev-parse", "HEAD:m.py").text.strip()
    stored = repo.path / ".trajectory" / "objects" / blob[:2] / blob[2:]
    stored.chmod(0o644)
    stored.write_bytes(b"not a git object")  # git log fails on it: "inflate: data stream error"

    edited = repo.read("m.py")

    assert hunk_histories(str(repo.path), changes_of(repo)) is None
    assert Session.open(str(repo.path)).regroup(), "grouped without the timeline"
    assert repo.read("m.py") == edited


def test_hunks_are_traced_to_the_snapshots_bursts_and_intents_that_wrote_them(repo: Repo) -> None:
    repo.write("m.py", lines(40))
    repo.commit()
    clock = FakeClock()
    rec = Recorder(str(repo.path), clock=clock)
    rec.open()
    replace_line(repo, "m.py", 5, "five, edited")
    first = save(rec, clock, 10, "Intent A", "m.py")
    replace_line(repo, "m.py", 30, "thirty, edited")
    second = save(rec, clock, 30, "Intent A", "m.py")  # 30 s later: same burst
    replace_line(repo, "m.py", 18, "eighteen, edited")
    third = save(rec, clock, 600, "Intent B", "m.py")  # ten minutes later: a new burst

    changes = changes_of(repo)
    found = by_first_added(changes, hunk_histories(str(repo.path), changes))
    assert found["five, edited"] == HunkHistory(found["five, edited"].hunk_id, (first,), (0,), ("Intent A",))
    assert found["thirty, edited"].snapshots == (second,) and found["thirty, edited"].bursts == (0,)
    assert found["eighteen, edited"].snapshots == (third,)
    assert found["eighteen, edited"].bursts == (1,) and found["eighteen, edited"].intents == ("Intent B",)
    # Every hunk of the change set is present (the .gitignore line has no timed history).
    histories = hunk_histories(str(repo.path), changes)
    assert set(histories) == set(changes.hunk_ids())


def test_a_line_rewritten_later_belongs_to_every_snapshot_that_shaped_the_hunk(repo: Repo) -> None:
    repo.write("m.py", lines(20))
    repo.commit()
    clock = FakeClock()
    rec = Recorder(str(repo.path), clock=clock)
    rec.open()
    replace_line(repo, "m.py", 10, "ten v1")
    replace_line(repo, "m.py", 11, "eleven v1")
    first = save(rec, clock, 10, "Draft", "m.py")
    replace_line(repo, "m.py", 11, "eleven v2")
    second = save(rec, clock, 200, "Polish", "m.py")
    changes = changes_of(repo)
    (history,) = [h for h in hunk_histories(str(repo.path), changes).values() if h.snapshots]
    assert history.snapshots == (first, second)
    assert history.bursts == (0, 1)
    assert history.intents == ("Draft", "Polish")


def test_removed_lines_are_credited_to_the_snapshot_that_removed_them(repo: Repo) -> None:
    repo.write("m.py", lines(20, "original content"))
    repo.commit()
    clock = FakeClock()
    rec = Recorder(str(repo.path), clock=clock)
    rec.open()
    text = repo.read("m.py").decode().replace("original content 7\n", "")
    repo.write("m.py", text)
    removal = save(rec, clock, 10, "Drop seven", "m.py")
    changes = changes_of(repo)
    (history,) = [h for h in hunk_histories(str(repo.path), changes).values() if h.snapshots]
    assert history.snapshots == (removal,) and history.intents == ("Drop seven",)


def test_staged_hunks_are_mapped_through_later_unstaged_edits(repo: Repo) -> None:
    repo.write("m.py", lines(60))
    repo.commit()
    clock = FakeClock()
    rec = Recorder(str(repo.path), clock=clock)
    rec.open()
    replace_line(repo, "m.py", 40, "forty, staged")
    staged = save(rec, clock, 10, "Staged work", "m.py")
    repo.add("m.py")
    # Five new lines above it shift its work-tree position away from its index position.
    text = repo.read("m.py").decode().replace("line 3\n", "line 3\n" + lines(5, "inserted"))
    repo.write("m.py", text)
    unstaged = save(rec, clock, 600, "Unstaged work", "m.py")

    changes = changes_of(repo)
    histories = hunk_histories(str(repo.path), changes)
    (change,) = [c for c in changes.changes if c.file_path == "m.py"]
    (staged_hunk,) = [h for h in change.hunks if h.staged]
    (unstaged_hunk,) = [h for h in change.hunks if not h.staged]
    assert histories[staged_hunk.id].snapshots == (staged,)
    assert histories[unstaged_hunk.id].snapshots == (unstaged,)


def test_unrecorded_edits_have_no_history_and_do_not_disturb_the_others(repo: Repo) -> None:
    repo.write("m.py", lines(40))
    repo.commit()
    clock = FakeClock()
    rec = Recorder(str(repo.path), clock=clock)
    rec.open()
    replace_line(repo, "m.py", 30, "thirty, recorded")
    recorded = save(rec, clock, 10, "Recorded", "m.py")
    # Not saved to the timeline yet: two lines inserted above the recorded edit.
    repo.write("m.py", repo.read("m.py").decode().replace("line 2\n", "line 2\nfresh a\nfresh b\n"))
    changes = changes_of(repo)
    found = by_first_added(changes, hunk_histories(str(repo.path), changes))
    assert found["fresh b"].snapshots == ()
    assert found["thirty, recorded"].snapshots == (recorded,)


def test_edits_from_before_recording_started_are_not_attributed(repo: Repo) -> None:
    repo.write("m.py", lines(10))
    repo.commit()
    repo.write("m.py", lines(10).replace("line 4\n", "line four\n"))
    repo.write("new.py", "brand new\n")
    rec = Recorder(str(repo.path), clock=FakeClock())
    rec.open()  # the baseline holds both: their time is unknown
    changes = changes_of(repo)
    assert all(h.snapshots == () for h in hunk_histories(str(repo.path), changes).values())


def test_untracked_files_and_consolidated_history(repo: Repo) -> None:
    repo.write("m.py", lines(5))
    repo.commit()
    clock = FakeClock()
    rec = Recorder(str(repo.path), clock=clock)
    rec.open()
    repo.write("new.py", "brand new\nfile\n")
    save(rec, clock, 10, "Add new", "new.py")
    clock.advance(10)
    squashed = rec.consolidate("Everything so far").commit
    changes = changes_of(repo)
    found = by_first_added(changes, hunk_histories(str(repo.path), changes))
    assert found["file"].snapshots == (squashed,)
    assert found["file"].intents == ("Everything so far",)


def test_a_symlink_to_a_device_is_traced_without_reading_the_device(repo: Repo) -> None:
    os.symlink("notes.txt", repo.path / "current")
    repo.commit()
    rec = Recorder(str(repo.path), clock=FakeClock())
    rec.open()
    os.remove(repo.path / "current")
    os.symlink("/dev/zero", repo.path / "current")  # read, it would never end
    save(rec, rec.clock, 10, None, "current")
    assert hunk_histories(str(repo.path), changes_of(repo)) is not None


def test_burst_gap_is_configurable(repo: Repo) -> None:
    repo.write("m.py", lines(40))
    repo.commit()
    clock = FakeClock()
    rec = Recorder(str(repo.path), clock=clock)
    rec.open()
    replace_line(repo, "m.py", 5, "five")
    save(rec, clock, 10, None, "m.py")
    replace_line(repo, "m.py", 30, "thirty")
    save(rec, clock, 120, None, "m.py")
    changes = changes_of(repo)
    default = by_first_added(changes, hunk_histories(str(repo.path), changes))
    wide = by_first_added(changes, hunk_histories(str(repo.path), changes, burst_gap=300))
    assert (default["five"].bursts, default["thirty"].bursts) == ((0,), (1,))
    assert (wide["five"].bursts, wide["thirty"].bursts) == ((0,), (0,))
    assert default["five"].intents == ()  # no intent was set


def test_scripted_timeline_attributes_every_edit_to_its_intent_and_burst(tmp_path: Path) -> None:
    scripted = build_scripted_timeline(tmp_path / "ledger")
    histories = hunk_histories(str(scripted.repo.path), scripted.changes)
    burst_of = {edit: n for n, (_, edits) in enumerate(BURSTS) for edit in edits}
    for hunk_id, intent in scripted.truth.items():
        history = histories[hunk_id]
        assert history.intents == (intent,)
        assert len(history.snapshots) == 1
        (edit,) = [
            e
            for e, (_, _, new, _) in EDITS.items()
            if any(line[1:].strip() == new for line in scripted.changes.hunk(hunk_id).lines if line.startswith("+"))
        ]
        assert history.bursts == (burst_of[edit],)
    assert set(scripted.truth.values()) == {CURRENCY, ROUNDING}


def test_a_range_of_commits_is_a_timeline_of_one_burst_per_commit(repo: Repo) -> None:
    repo.write("app.py", lines(40))
    repo.write("gone.py", lines(3))
    repo.commit("base")
    base = repo.head()
    replace_line(repo, "app.py", 5, "first commit")
    replace_line(repo, "app.py", 20, "both, first")
    repo.write("new.py", "first commit's file\n")
    repo.commit("one")
    replace_line(repo, "app.py", 20, "both, second")
    replace_line(repo, "app.py", 35, "second commit")
    repo.delete("gone.py")
    repo.commit("two")
    tip = repo.head()
    repo.git("reset", "-q", base)  # the range's change laid out as a split's scratch tree has it
    changes = changes_of(repo)
    histories = commit_histories(str(repo.path), changes, base, tip)
    one, two = repo.git("rev-list", "--reverse", f"{base}..{tip}").split()
    found = {}
    for change in changes.changes:
        for hunk in change.hunks:
            last = [line for line in hunk.lines if line[:1] in ("+", "-")][-1]
            found[change.file_path, last] = (histories[hunk.id].snapshots, histories[hunk.id].bursts)
    assert found["app.py", "+first commit"] == ((one,), (0,))
    assert found["app.py", "+both, second"] == ((one, two), ()), "two commits' hunk pulls neither way as a whole"
    assert found["app.py", "+second commit"] == ((two,), (1,))
    assert found["new.py", "+first commit's file"] == ((one,), (0,))
    assert found["gone.py", "-line 3"][0] == (two,), "a removal is its remover's"


def test_a_hunk_two_commits_wrote_is_known_line_by_line(repo: Repo) -> None:
    repo.write("app.py", lines(10))
    repo.commit("base")
    base = repo.head()
    replace_line(repo, "app.py", 4, "first")
    repo.commit("one")
    replace_line(repo, "app.py", 5, "second")
    repo.commit("two")
    tip = repo.head()
    repo.git("reset", "-q", base)
    changes = changes_of(repo)
    [hunk] = changes.changes[0].hunks
    history = commit_histories(str(repo.path), changes, base, tip)[hunk.id]
    changed = [i for i, line in enumerate(hunk.lines) if line[:1] in ("+", "-")]
    assert [history.line_bursts[i] for i in changed] == [0, 1, 0, 1]  # -4 -5 +first +second
    assert history.bursts == () and history.cuts() == [changed[1], changed[2], changed[3]]
    assert history.bursts_of(changed[0], changed[0] + 1) == (0,)
