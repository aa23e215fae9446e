"""Parts cut line by line are carried across a re-capture, with their numbers."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.session.remap import remap
from segmint_core.session.state import SavedState, read_units, unit_signatures, write_units
from segmint_core.session.units import Units
from tests.support.repo import Repo


def interleaved(repo: Repo) -> Units:
    """m.py: one hunk of four added lines, cut into parts 1 {1st, 3rd}, 3 {2nd}, 4 {4th} (2 retired)."""
    repo.write("m.py", "a\nz\n")
    repo.write("other.py", "x\n")
    repo.commit()
    repo.write("m.py", "a\none\ntwo\nthree\nfour\nz\n")
    changes = capture(Git.discover(repo.path))
    hunk = changes.changes[0].hunks[0]
    one, two, three, four = (hunk.lines.index(f"+{w}") for w in ("one", "two", "three", "four"))
    return Units(changes, {hunk.id: [[one, three], [], [two], [four]]})


def test_interleaved_parts_keep_their_ids_when_another_file_changes(repo: Repo) -> None:
    units = interleaved(repo)
    assert [u for u in units.by_id] == ["change-1:1.1", "change-1:1.3", "change-1:1.4"]
    assert units.by_id["change-1:1.1"].changed_lines == ["+one", "+three"]
    repo.write("other.py", "y\n")
    fresh = capture(Git.discover(repo.path))
    mapping = remap(unit_signatures(units), fresh)
    assert mapping.ids == {
        "change-1:1.1": "change-1:1.1",
        "change-1:1.3": "change-1:1.3",
        "change-1:1.4": "change-1:1.4",
    }
    assert mapping.appeared == ["change-2:1"]
    assert mapping.splits == {"change-1:1": units.splits["change-1:1"]}
    assert Units(fresh, mapping.splits).by_id["change-1:1.3"].changed_lines == ["+two"]


def test_the_parts_left_after_one_is_committed_keep_theirs(repo: Repo) -> None:
    units = interleaved(repo)
    repo.write("committed.txt", "")
    repo.write("m.py", "a\ntwo\nz\n")  # what committing part 3 makes HEAD hold
    repo.commit()
    repo.write("m.py", "a\none\ntwo\nthree\nfour\nz\n")
    old = [u for u in unit_signatures(units) if u.id != "change-1:1.3"]
    fresh = capture(Git.discover(repo.path))
    mapping = remap(old, fresh)
    hunks = Units(fresh, mapping.splits)
    assert {old: new for old, new in mapping.ids.items() if old.startswith("change-1")} == {
        "change-1:1.1": "change-1:1.1",
        "change-1:1.4": "change-1:1.4",
    }
    assert hunks.by_id["change-1:1.1"].changed_lines == ["+one", "+three"]
    assert hunks.by_id["change-1:1.4"].changed_lines == ["+four"]
    assert mapping.appeared == []


def test_parts_survive_a_restart_through_units_json(repo: Repo, tmp_path) -> None:
    units = interleaved(repo)
    write_units(tmp_path, units, SavedState())
    old, _ = read_units(tmp_path)
    assert old == unit_signatures(units)
    repo.write("other.py", "y\n")
    mapping = remap(old, capture(Git.discover(repo.path)))
    assert mapping.ids["change-1:1.3"] == "change-1:1.3" and mapping.appeared == ["change-2:1"]


def test_units_json_of_an_older_version_still_maps_whole_units(repo: Repo, tmp_path) -> None:
    repo.write("m.py", "a\n")
    repo.commit()
    repo.write("m.py", "b\n")
    (tmp_path / "units.json").write_text('{"changed_lines": [["change-1:1", "m.py", false, ["-a", "+b"]]]}')
    old, _ = read_units(tmp_path)
    assert remap(old, capture(Git.discover(repo.path))).ids == {"change-1:1": "change-1:1"}
