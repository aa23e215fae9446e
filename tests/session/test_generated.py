"""A generated file is one unit of the session: never split into hunks, planned and committed
whole, and not read again after a commit of other files."""

from __future__ import annotations

import json

from segmint_core.session.session import Session
from tests.support.cli import run_segmint
from tests.support.repo import Repo

CATALOG = "data/catalog.json"


def catalog(seed: int) -> str:
    return json.dumps({f"item-{i}": {"price": (i * 7 + seed) % 100} for i in range(300)}, indent=2) + "\n"


def regenerated(repo: Repo) -> Repo:
    """A ``linguist-generated`` catalog rewritten whole (part of it staged first), a lock file
    by its name, and a one-line fix."""
    repo.write(".gitattributes", f"{CATALOG} linguist-generated\n")
    repo.write(CATALOG, catalog(0))
    repo.write("poetry.lock", "[[package]]\nname = 'a'\nversion = '1.0'\n")
    repo.write("app.py", "RATE = 1.2\n")
    repo.commit("base")
    repo.write(CATALOG, catalog(1))
    repo.add(CATALOG)
    repo.write(CATALOG, catalog(2))
    repo.write("poetry.lock", "[[package]]\nname = 'a'\nversion = '1.1'\n")
    repo.write("app.py", "RATE = 1.25\n")
    return repo


def test_a_generated_file_is_planned_and_committed_whole(repo: Repo) -> None:
    regenerated(repo)
    session = Session.open(str(repo.path))
    session.regroup()
    by_path = {c.file_path: c for c in session.changes}
    for path in (CATALOG, "poetry.lock"):
        assert by_path[path].hunks == [], f"{path} is one unit, not {len(by_path[path].hunks)} hunks"
        holding = [g for g in session.groups if by_path[path].id in g.change_ids]
        assert len(holding) == 1
    assert not any(u.change.file_path in (CATALOG, "poetry.lock") for u in session.units.by_id.values())

    plans = session.propose_commits()
    whole = next(p for p in plans if by_path[CATALOG].id in p.change_ids)
    assert whole.hunk_ids == [] or all(session.units.change_of(h).file_path != CATALOG for h in whole.hunk_ids)
    session.apply_all()
    assert repo.git("status", "--porcelain") == ""
    assert repo.read(CATALOG) == catalog(2).encode(), "the work tree is untouched"
    assert repo.git("show", f"HEAD:{CATALOG}") == catalog(2), "committed as it is in the work tree"
    while session.applied:
        session.undo()
    assert repo.git("show", f":{CATALOG}") == catalog(1), "undo puts the staged version back in the index"


def test_group_json_lists_a_generated_file_as_one_change_in_one_group(repo: Repo) -> None:
    regenerated(repo)
    data = json.loads(run_segmint("group", "--json", "--repo", str(repo.path)).stdout)
    change = next(c for c in data["changes"] if c["file_path"] == CATALOG)
    assert change["hunks"] == []
    assert [g["change_ids"] for g in data["groups"] if change["id"] in g["change_ids"]] == [[change["id"]]]


def test_after_a_commit_only_its_files_are_read_again_and_the_next_look_confirms_it(repo: Repo) -> None:
    regenerated(repo)
    session = Session.open(str(repo.path))
    session.regroup()
    plans = session.propose_commits()
    fix = next(p for p in plans if any(session.units.change_of(h).file_path == "app.py" for h in p.hunk_ids))
    session.apply_commit(fix.id)
    assert session.units.changeset.fingerprint is None, "re-read in part: the fingerprint waits for a full look"
    assert {c.file_path for c in session.changes} == {CATALOG, "poetry.lock"}
    revision = session.changes_revision
    assert session.refresh().changed is False, "a full look finds the same changes"
    assert session.changes_revision == revision and session.units.changeset.fingerprint is not None
    again = Session.open(str(repo.path))
    assert again.changes_revision == revision and [p.id for p in again.plans] == [p.id for p in session.plans]
    again.apply_all()
    assert repo.git("status", "--porcelain") == ""
