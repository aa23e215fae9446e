"""The promise, on random work: group, plan, apply every plan, undo them all; nothing lost,
commits exact, the index as it was.

Each example builds a real repository with random staged and unstaged edits
(new, modified and deleted files, and the cases of ``hardened_story``: intent-to-add,
staged then reverted, non-UTF-8 lines moved, symlinks, a mode flip, a rename, odd
names, a generated file, a pre-commit hook that refuses once; intent-to-add files
moved, deleted or made links, a lock file added with -N, files made folders and
folders made files (tracked, staged, generated), line endings git converts under
core.autocrlf and text=auto, in the work tree and after git rm --cached), lets the session
group and plan them, and applies every plan in order. After each run: the work tree
is byte-identical, HEAD's files equal the original work tree's, and after every
commit exactly the lines of the plans not yet applied remain. Undoing every commit
then puts HEAD, the index (intent-to-add flags included) and the status back.
`--hypothesis-profile=thorough` runs 2,000 examples.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from segmint_core.apply.commit import NothingToCommit
from segmint_core.changes import capture
from segmint_core.errors import RefusedError
from segmint_core.session.session import Session
from tests.support.edits import build, hardened_story, worktree_story
from tests.support.examples import examples
from tests.support.repo import Repo


def lines_of(changes, hunk_ids=None) -> Counter:
    """Changed lines (path, sign, text) of the given hunks (default: all)."""
    out: Counter = Counter()
    for change in changes:
        for hunk in change.hunks:
            if hunk_ids is None or hunk.id in hunk_ids:
                out.update((change.file_path, line[:1], line[1:]) for line in hunk.lines if line[:1] in "+-")
    return out


def head_files(repo: Repo) -> dict[str, bytes]:
    files = {}
    if not repo.git("rev-parse", "--verify", "--quiet", "HEAD", check=False).strip():
        return files
    for row in repo.git_bytes("ls-tree", "-r", "-z", "HEAD").split(b"\0"):
        if row:
            meta, path = row.split(b"\t", 1)
            files[path.decode("utf-8", "surrogateescape")] = repo.git_bytes(
                "cat-file", "blob", meta.split()[2].decode()
            )
    return files


def expected_head(before: dict[str, bytes]) -> dict[str, bytes]:
    return {k: v[3:] if v.startswith(b"-> ") else v for k, v in before.items()}


@settings(max_examples=examples(100))
@given(story=st.one_of(worktree_story(), hardened_story()))
# Found by CI. Two parts of one hunk with the same changed line: the committed part must not claim the other.
@example(story={"base": {"a.py": "\r\n"}, "staged": {"a.py": "\r\n"}, "work": {"a.py": "a\n\r\na"}})
# One file with staged and unstaged hunks, the unstaged one split by grouping.
@example(story={"base": {"a.py": "\n\n\n"}, "staged": {"a.py": "\na\n\n"}, "work": {"a.py": "a\n"}})
@example(
    story={"base": {"a.py": "\n\n\ncafé\n\r\n"}, "staged": {"a.py": "café\n\na\n\r\n"}, "work": {"a.py": "café\na\n"}}
)
@example(
    story={
        "base": {"a.py": "\n\n\ntab\there\n\r\n"},
        "staged": {"a.py": "tab\there\n\ntab\there\ncafé\n"},
        "work": {"a.py": "\ncafé\n"},
    }
)
# A file added and then deleted again (no plan) beside one deleted then re-created untracked.
@example(
    story={"base": {"b.txt": ""}, "staged": {"a.py": "\r\n", "b.txt": None}, "work": {"a.py": None, "b.txt": "\r\n"}}
)
# Found by hardened_story: git pairs an intent-to-add file with a file staged as new and
# deleted in the work tree as a rename, which committed the deleted file instead.
@example(
    story={
        "base": {},
        "staged": {"a.py": "\r\n", "b.txt": ""},
        "work": {"a.py": None, "b.txt": None, "ita.txt": ""},
        "intent": ["ita.txt"],
    }
)
@example(
    story={
        "base": {},
        "staged": {"a.py": "", "b.txt": "\n"},
        "work": {"a.py": None, "b.txt": None, "ita.txt": "\r\n"},
        "intent": ["ita.txt"],
    }
)
# A generated file, kept whole, beside staged files deleted again.
@example(
    story={
        "base": {"dir/c.md": "", ".gitattributes": "data.json linguist-generated\n", "data.json": '{"id": 0}\n'},
        "staged": {"a.py": "", "b.txt": None, "dir/c.md": None, "dir/sub/d.py": ""},
        "work": {"a.py": None, "b.txt": None, "dir/c.md": None, "dir/sub/d.py": None, "data.json": '{"id": 1}\n'},
    }
)
# The rare tree states of issue 34, each beside an ordinary edit.
@example(
    story={
        "base": {"a.py": "x = 1\n"},
        "staged": {},
        "work": {"a.py": "x = 2\n", "later.txt": "x\n"},
        "intent": ["later.txt"],
        "after_intent": [("move", "later.txt", "moved/later.txt")],
    }
)
@example(
    story={
        "base": {"a.py": "x = 1\n"},
        "staged": {},
        "work": {"a.py": "x = 2\n", "later.txt": "x\n"},
        "intent": ["later.txt"],
        "after_intent": [("delete", "later.txt")],
    }
)
@example(
    story={
        "base": {"a.py": "x = 1\n"},
        "staged": {},
        "work": {"a.py": "x = 2\n", "later.txt": "x\n"},
        "intent": ["later.txt"],
        "after_intent": [("symlink", "later.txt", "a.py")],
    }
)
@example(
    story={
        "base": {"a.py": "x = 1\n"},
        "staged": {},
        "intent": ["package-lock.json"],
        "work": {"a.py": "x = 2\n", "package-lock.json": '{\n  "lockfileVersion": 3\n}\n'},
    }
)
@example(
    story={
        "base": {"a.py": "x = 1\n", "yarn.lock": "a@1:\n", "held/x.txt": "x\n"},
        "staged": {"fresh/t.py": "def test_a(): pass\n"},
        "work": {"a.py": "x = 2\n", "fresh/t.py": "def test_a(): pass\n"},
        "swaps": [("yarn.lock", "file_to_folder"), ("held", "folder_to_file"), ("fresh", "folder_to_file")],
    }
)
@example(
    story={
        "base": {"a.py": "x = 1\n", "kept.txt": "k\n", "dist/app.min.js": "var a=1;\n"},
        "staged": {"fresh.txt": "f\n"},
        "work": {"a.py": "x = 2\n", "fresh.txt": "f\n"},
        "swaps": [("kept.txt", "file_to_folder"), ("dist", "folder_to_file"), ("fresh.txt", "file_to_folder")],
    }
)
@example(
    story={
        "base": {"a.py": "x = 1\n", "eol.txt": "one\ntwo\n"},
        "staged": {"eol.txt": None},
        "work": {"a.py": "x = 2\n", "eol.txt": "one\r\ntwo\r\n"},
        "eol": "autocrlf",
    }
)
@example(
    story={
        "base": {"a.py": "x = 1\n", "eol.txt": "one\ntwo\n"},
        "staged": {"eol.txt": None},
        "work": {"a.py": "x = 2\n", "eol.txt": "one\r\ntwo\r\n"},
        "eol": "text_auto",
    }
)
# Found by the thorough run: a file where a folder was, and a file deleted in the index and made again
# in the work tree, grouped so that each plan needs the other's lines: the notes say to merge them.
@example(
    story={
        "base": {
            "e f.txt": "\n\n}",
            "dir/c.md": "\n",
            "a.py": "\n",
            "old name.txt": "café\ntab\there\n# note\nb\r\n",
            ".gitattributes": "data.json linguist-generated\n",
            "data.json": '{"id": 88}\n{"id": 43}\n{"id": 80}\n',
            "held/x.txt": "def f():\ntab\there\nb\n# note\ntab\there\ndef f():\n}",
            "eol.txt": "a\n    return 1\nc\ncafé\n",
        },
        "staged": {
            "e f.txt": "\n",
            "dir/c.md": "    return 1\n",
            "a.py": None,
            "held/x.txt": "def f():\ntab\there\nb\n# note\ntab\there\ndef f():\n}",
            "fresh.txt": "\n}\ntab\there\ntab\there\nc\n\n}\nb\ntab\there\n    return 1\ndef f():\nx = 2\na\n}\n# note\r\n",
            "eol.txt": "a\n    return 1\nc\ncafé\n",
        },
        "work": {
            "e f.txt": "\n",
            "dir/c.md": "",
            "a.py": "    return 1\na",
            "ita.txt": "x = 2\nx = 2\n# note\ndef f():\n}\nc\nc\nc\ndef f():\nx = 1\nx = 1\ntab\there\na\n# note\ntab\there\ndef f():\ndef f():\nc\n}\n",
            "new name.txt": "café\ntab\there\n# note\nb\r\n",
            "new\nline.txt": "b\nx = 2\na\n}",
            "data.json": '{"id": 89}\n{"id": 44}\n{"id": 81}\n',
            "package-lock.json": '{\n  "lockfileVersion": 2\n}\n',
            "held/x.txt": "def f():\ntab\there\nb\n# note\ntab\there\ndef f():\n}",
            "fresh.txt": "\n}\ntab\there\ntab\there\nc\n\n}\nb\ntab\there\n    return 1\ndef f():\nx = 2\na\n}\n# note\r\n",
            "eol.txt": "a\r\n    return 1\r\nc\r\ncafé\r\n",
        },
        "intent": ["ita.txt", "package-lock.json"],
        "renamed": ["old name.txt", "new name.txt"],
        "swaps": [("held", "folder_to_file"), ("fresh.txt", "file_to_folder")],
        "eol": "text_auto",
    }
)
def test_group_plan_apply_everything(story: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repo(Path(tmp) / "r")
        build(repo, story)
        if story.get("refuse"):
            refusing_hook(repo, story["refuse"])
        before, base, status = repo.snapshot(), repo.head(), repo.status()
        session = Session.open(str(repo.path))
        session.regroup()
        plans = proposed(session)
        # A generated file is one unit without hunks of its own: its lines are read from git's diff.
        raw = {c.file_path: c for c in capture(session.git).changes}
        whole = lambda plan: [raw[session.units.change_by_id[c].file_path] for c in plan.change_ids]  # noqa: E731
        remaining = {p.id: lines_of(session.changes, set(p.hunk_ids)) + lines_of(whole(p)) for p in plans}
        # A file with no net change (staged, then put back as HEAD has it) is in no plan: its lines stay.
        planned = {h for p in plans for h in p.hunk_ids} | {c for p in plans for c in p.change_ids}
        kept = [c for c in session.changes if not c.hunks and c.id not in planned]
        remaining["left"] = lines_of(
            session.changes, {h.id for c in session.changes for h in c.hunks if h.id not in planned}
        ) + lines_of(raw[c.file_path] for c in kept)
        for plan in plans:
            head = head_files(repo)
            if not apply_once_refused(session, repo, plan.id):
                # Changes that cancel out (staged, then deleted) make no commit.
                assert head_files(repo) == head
                continue
            assert repo.snapshot()["files"] == before["files"], "the work tree changed"
            del remaining[plan.id]
            left = sum(remaining.values(), Counter())
            assert lines_of(capture(session.git).changes) == left, f"after {plan.id} the wrong lines remain"
        if story.get("eol"):  # HEAD holds the files as git stores them: line endings converted
            assert repo.git("rev-parse", "HEAD^{tree}").strip() == tree_of_work(repo)
        else:
            assert head_files(repo) == expected_head(before["files"])
        while session.applied:
            session.undo()
        assert repo.head() == base
        assert repo.snapshot() == before, "undoing every commit puts the work tree and the index back"
        assert repo.status() == status, "intent-to-add and staged entries as they were"


def proposed(session: Session) -> list:
    """The plans, once groups that need each other (a file where a folder was, beside an unstaged line
    that edits a staged one in the other group) are merged, as their notes tell a person to."""
    plans = session.propose_commits()
    stuck = [p.change_group_ids[0] for p in plans if p.merge_with]
    if len(stuck) > 1:
        session.merge_groups(stuck)
        plans = session.propose_commits()
    assert not any(p.merge_with for p in plans), "merging the groups the notes name unties them"
    return plans


def tree_of_work(repo: Repo) -> str:
    """The tree ``git add -A`` would make of the work tree, in an index of its own."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        repo.git("add", "-A", env=env)
        return repo.git("write-tree", env=env).strip()


def refusing_hook(repo: Repo, run: int) -> None:
    """A pre-commit hook that refuses its ``run``-th run (and lets the others through)."""
    count = repo.path / ".git" / "hook-runs"
    hook = repo.path / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(
        f'#!/bin/sh\nn=$(( $(cat "{count}" 2>/dev/null || echo 0) + 1 ))\necho $n > "{count}"\n'
        f'[ "$n" -ne {run} ] || {{ echo "the test refuses this commit" >&2; exit 1; }}\n'
    )
    hook.chmod(0o755)


def apply_once_refused(session: Session, repo: Repo, plan_id: str) -> bool:
    """Apply the plan; when the hook refuses it, nothing may change, and the next try commits.
    False when the plan makes no commit."""
    state = repo.snapshot()
    try:
        session.apply_commit(plan_id)
    except NothingToCommit:
        return False
    except RefusedError as refused:
        if "refused the commit" not in str(refused):
            raise
        assert repo.snapshot() == state, "a commit the hook refused changed the repository"
        session.apply_commit(plan_id)
    return True
