"""Moving single lines, on random work: every accepted move commits exactly the lines chosen,
every refused one leaves the session as it was.

Each example builds a real repository (random staged and unstaged edits, or one
file edited at its start and end, with CRLF lines and a missing final newline),
groups it, then moves random sets of changed lines of random hunks to a new
group or another one. Then every group is proposed and committed: each commit
holds exactly the lines its group showed, and HEAD ends up with the work tree's
files. `--hypothesis-profile=thorough` runs 2,000 examples.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from segmint_core.apply.commit import NothingToCommit
from segmint_core.apply.lines import MissingDependency
from segmint_core.errors import RefusedError
from segmint_core.session.session import Session
from segmint_core.session.state import STATE_FILE
from tests.session.test_session_properties import expected_head, head_files, lines_of
from tests.support.edits import build, worktree_story
from tests.support.examples import examples
from tests.support.repo import Repo

EDGE_LINES = st.sampled_from(["a", "b", "x = 1", "x = 2", "", "a\r", "b\r", "caf\u00e9\r"])


@st.composite
def edge_story(draw) -> dict:
    """One committed file edited at its start, its end or both; lines may end in CRLF and
    either version may lack its final newline."""
    base = draw(st.lists(EDGE_LINES, min_size=0, max_size=8))
    work = list(base)
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.sampled_from(["start", "end", "middle"]))
        at = {"start": 0, "end": len(work), "middle": len(work) // 2}[where]
        if draw(st.booleans()) and work:
            del work[min(at, len(work) - 1)]
        for line in draw(st.lists(EDGE_LINES, max_size=3)):
            work.insert(at, line)
    text = lambda lines, final: "\n".join(lines) + ("\n" if lines and final else "")  # noqa: E731
    before, after = text(base, draw(st.booleans())), text(work, draw(st.booleans()))
    return {"base": {"f.txt": before}, "staged": {"f.txt": before}, "work": {"f.txt": after}}


def saved(repo: Repo) -> bytes:
    return (repo.path / ".git" / "segmint" / STATE_FILE).read_bytes()


def group_lines(session: Session) -> dict[str, dict]:
    """Group id -> what its lines do to the files: (path, text, has a newline) -> lines added minus removed."""
    return {g.id: signed_lines(session.changes, set(g.hunk_ids)) for g in session.groups}


def signed_lines(changes, hunk_ids: set[str]) -> dict:
    out: Counter = Counter()
    for change in changes:
        for hunk in change.hunks:
            if hunk.id not in hunk_ids:
                continue
            lines = hunk.lines
            for i, line in enumerate(lines):
                if line[:1] in "+-":
                    eol = not (i + 1 < len(lines) and lines[i + 1][:1] == "\\")
                    out[(change.file_path, line[1:], eol)] += 1 if line[:1] == "+" else -1
    return {k: v for k, v in out.items() if v}


@settings(max_examples=examples(60))
@given(story=st.one_of(worktree_story(), edge_story()), data=st.data())
def test_moved_lines_commit_exactly(story: dict, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repo(Path(tmp) / "r")
        build(repo, story)
        before = repo.snapshot()["files"]
        session = Session.open(str(repo.path))
        # A rename moves a whole file with no line of its own: the checker counts lines by path.
        assume(session.changes and not any(c.old_path for c in session.changes))
        session.regroup()
        for _ in range(data.draw(st.integers(1, 3))):
            _try_a_move(session, repo, data.draw)
        for _ in range(4):  # a plan that made no commit or went out of date: propose the rest again
            if not commit_every_plan(session, repo, before):
                break
        assert head_files(repo) == expected_head(before)


def commit_every_plan(session: Session, repo: Repo, before: dict) -> bool:
    """Propose and apply every group, checking each commit holds exactly its group's lines.
    True when some plan made no commit, so lines may be left to commit."""
    cancelled: set[str] = set()  # git hunks of plans whose lines cancel out (staged, then undone)
    again = False
    plans = session.propose_commits()
    shown = group_lines(session)  # as proposed: Segmint's groups titled alike are merged by then
    stuck = [p.change_group_ids[0] for p in plans if p.merge_with]
    if len(stuck) > 1:
        # Groups that need each other (an unstaged line edits a staged one, and back):
        # the note says to merge them, as a person would.
        session.merge_groups(stuck)
        return True
    for plan in plans:
        committed_before = head_files(repo)
        parent = repo.head()
        now = signed_lines(session.changes, set(plan.hunk_ids))
        try:
            session.apply_commit(plan.id)
        except NothingToCommit:
            assert head_files(repo) == committed_before
            cancelled |= {session.units.by_id[h].parent.id for h in plan.hunk_ids}
            continue
        except MissingDependency as refused:
            # A plan that made no commit left lines uncommitted that this one needs.
            if refused.needs not in cancelled:
                raise
            continue
        except RefusedError as refused:
            # Safe, and said: the re-read after an earlier commit lost track of some of this
            # plan's lines (they went to it, or show as new); it is proposed again.
            if "out of date" not in str(refused):
                raise
            again = True
            continue
        assert repo.snapshot()["files"] == before, "the work tree changed"
        got = commit_lines(repo, parent)
        assert got == now, f"{plan.id} does not hold its lines"
        (group_id,) = plan.change_group_ids
        if got != shown[group_id]:
            # Re-read after an earlier commit, git may line up what is left of two parts so
            # that lines added after a last line without newline need its removal: the parts
            # are again, the later plan is out of date. Nothing else may differ.
            difference = set(got.items()) ^ set(shown[group_id].items())
            assert any(not eol for (_, _, eol), _ in difference), f"{plan.id} does not hold {group_id}'s lines"
            again = True
    return bool(cancelled or again)


def _try_a_move(session: Session, repo: Repo, draw) -> None:
    units = [u for u in session.units.by_id.values() if u.refs and not u.change.binary]
    if not units:
        return
    unit = units[draw(st.integers(0, len(units) - 1))]
    count = len(unit.refs)
    lines = draw(st.lists(st.integers(1, count), min_size=1, max_size=count, unique=True)) if count > 1 else [1]
    holder = next((g.id for g in session.groups if unit.id in g.hunk_ids), None)
    others = [g.id for g in session.groups if g.id != holder]
    target = draw(st.sampled_from([None, *others]))
    chosen = Counter(_changed(unit, lines))
    state, revision = saved(repo), session.revision
    try:
        moved = session.move_lines(unit.id, lines, to_group_id=target, new_group=target is None)
    except RefusedError:
        assert saved(repo) == state and session.revision == revision, "a refused move changed the session"
        assert Session.open(str(repo.path)).groups == session.groups
        return
    assert (
        lines_of(session.changes, {moved.moved_id}) == chosen
        if target is None
        else chosen <= lines_of(session.changes, {moved.moved_id})
    )
    assert moved.moved_id in session.group(moved.group.id).hunk_ids


def _changed(unit, positions: list[int]) -> list[tuple[str, str, str]]:
    lines = unit.changed_lines
    return [(unit.change.file_path, lines[p - 1][:1], lines[p - 1][1:]) for p in positions]


def commit_lines(repo: Repo, parent: str) -> dict:
    """What HEAD's commit did to the files: (path, text, has a newline) -> lines added minus removed.
    Counted from the two trees, so it does not depend on how a diff lines them up."""
    out: Counter = Counter()
    for rev, sign in ((parent, -1), ("HEAD", 1)):
        for path, data in tree_files(repo, rev).items():
            for line in file_lines(data):
                out[(path, *line)] += sign
    return {k: v for k, v in out.items() if v}


def tree_files(repo: Repo, rev: str) -> dict[str, bytes]:
    files = {}
    for row in repo.git_bytes("ls-tree", "-r", "-z", rev).split(b"\0"):
        if row:
            meta, path = row.split(b"\t", 1)
            blob = meta.split()[2].decode()
            files[path.decode("utf-8", "surrogateescape")] = repo.git_bytes("cat-file", "blob", blob)
    return files


def file_lines(data: bytes) -> list[tuple[str, bool]]:
    parts = data.decode("utf-8", "surrogateescape").split("\n")
    last = parts.pop()
    return [(p, True) for p in parts] + ([(last, False)] if last else [])
