"""Change capture on real repositories: staged, unstaged, untracked, odd states."""

from __future__ import annotations

import json

import pytest

from segmint_core.changes import capture
from segmint_core.git import Git, changed_paths
from tests.support.repo import Repo


def listing(repo: Repo):
    return capture(Git.discover(repo.path))


def as_json(repo: Repo) -> str:
    return json.dumps(listing(repo).to_dict(), ensure_ascii=False)


def test_clean_repository_has_no_changes(repo: Repo) -> None:
    repo.write("a.txt", "a\n")
    repo.commit()
    assert listing(repo).changes == []


def test_staged_hunks_come_first_and_are_marked(repo: Repo) -> None:
    repo.write("f.py", "".join(f"line {i}\n" for i in range(1, 30)))
    repo.commit()
    text = repo.read("f.py").decode().replace("line 2\n", "line two\n")
    repo.write("f.py", text)
    repo.add("f.py")
    repo.write("f.py", text.replace("line 25\n", "line twenty-five\n"))

    (change,) = listing(repo).changes
    assert change.id == "change-1"
    assert change.status == "modified"
    assert [h.id for h in change.hunks] == ["change-1:1", "change-1:2"]
    assert [h.staged for h in change.hunks] == [True, False]
    assert "+line two" in change.hunks[0].lines
    assert "+line twenty-five" in change.hunks[1].lines
    assert change.hunks[0].header.startswith("@@ -1,5 +1,5 @@")


def test_changes_sorted_by_path_and_numbered(repo: Repo) -> None:
    for name in ("b.txt", "a/z.txt", "c.txt"):
        repo.write(name, "x\n")
    repo.commit()
    repo.write("c.txt", "y\n")
    repo.write("a/z.txt", "y\n")
    repo.write("b.txt", "y\n")
    repo.write("0-new.txt", "new\n")
    ids = [(c.id, c.file_path) for c in listing(repo).changes]
    assert ids == [("change-1", "0-new.txt"), ("change-2", "a/z.txt"), ("change-3", "b.txt"), ("change-4", "c.txt")]


def test_untracked_files_are_added_and_ignored_ones_are_not(repo: Repo) -> None:
    repo.write(".gitignore", "*.log\nbuild/\n")
    repo.commit()
    repo.write("new.py", "print('hi')\n")
    repo.write("debug.log", "noise\n")
    repo.write("build/out.txt", "artefact\n")
    (change,) = listing(repo).changes
    assert change.file_path == "new.py"
    assert change.status == "added"
    assert change.untracked
    assert change.hunks[0].header == "@@ -0,0 +1 @@"
    assert change.hunks[0].lines == ["+print('hi')"]


def test_untracked_file_matches_what_git_would_print(repo: Repo) -> None:
    repo.commit("root")
    repo.write("multi.txt", "one\ntwo\nthree")  # no trailing newline
    ours = listing(repo).changes[0].hunks[0]
    repo.git("add", "-N", "multi.txt")
    theirs = listing(repo).changes[0].hunks[0]
    assert (ours.header, ours.lines) == (theirs.header, theirs.lines)
    assert ours.lines[-1] == "\\ No newline at end of file"


def test_repository_without_commits(repo: Repo) -> None:
    repo.write("staged.txt", "s\n")
    repo.add("staged.txt")
    repo.write("loose.txt", "l\n")
    cs = listing(repo)
    assert cs.head is None
    assert [(c.file_path, c.status, [h.staged for h in c.hunks]) for c in cs.changes] == [
        ("loose.txt", "added", [False]),
        ("staged.txt", "added", [True]),
    ]


def test_detached_head(repo: Repo) -> None:
    repo.write("a.txt", "1\n")
    first = repo.commit("one")
    repo.write("a.txt", "2\n")
    repo.commit("two")
    repo.git("checkout", "-q", "--detach", first)
    repo.write("a.txt", "changed\n")
    cs = listing(repo)
    assert cs.head == first
    assert cs.changes[0].hunks[0].lines == ["-1", "+changed"]


def test_merge_conflict_is_reported_not_parsed(repo: Repo) -> None:
    repo.write("c.txt", "base\n")
    repo.write("other.txt", "o\n")
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "side")
    repo.write("c.txt", "side\n")
    repo.commit("side")
    repo.git("checkout", "-q", "main")
    repo.write("c.txt", "main\n")
    repo.commit("main")
    repo.git("merge", "side", check=False)
    repo.write("other.txt", "edited during merge\n")
    changes = {c.file_path: c for c in listing(repo).changes}
    assert changes["c.txt"].status == "conflicted"
    assert changes["c.txt"].hunks == []
    assert changes["other.txt"].status == "modified"


def test_rename_staged_then_modified(repo: Repo) -> None:
    body = "".join(f"row {i}\n" for i in range(20))
    repo.write("old name.txt", body)
    repo.commit()
    repo.git("mv", "old name.txt", "new name.txt")
    repo.write("new name.txt", body.replace("row 10\n", "row ten\n"))
    (change,) = listing(repo).changes
    assert (change.file_path, change.old_path, change.status) == ("new name.txt", "old name.txt", "renamed")
    assert [h.staged for h in change.hunks] == [False]


def test_deleted_and_mode_changed_files(repo: Repo) -> None:
    repo.write("gone.txt", "bye\n")
    repo.write("tool.sh", "#!/bin/sh\n")
    repo.commit()
    repo.delete("gone.txt")
    (repo.path / "tool.sh").chmod(0o755)
    changes = {c.file_path: c for c in listing(repo).changes}
    assert changes["gone.txt"].status == "deleted"
    assert changes["gone.txt"].hunks[0].lines == ["-bye"]
    assert (changes["tool.sh"].old_mode, changes["tool.sh"].new_mode) == ("100644", "100755")
    assert changes["tool.sh"].hunks == []


def test_binary_symlink_and_empty_files(repo: Repo) -> None:
    repo.write("img.bin", b"\x89PNG\0\x01")
    repo.commit()
    repo.write("img.bin", b"\x89PNG\0\x02")
    repo.write("empty.txt", b"")
    (repo.path / "link").symlink_to("img.bin")
    changes = {c.file_path: c for c in listing(repo).changes}
    assert changes["img.bin"].binary and changes["img.bin"].status == "binary"
    assert changes["empty.txt"].status == "added" and changes["empty.txt"].hunks == []
    assert changes["link"].new_mode == "120000"
    assert changes["link"].hunks[0].lines == ["+img.bin", "\\ No newline at end of file"]


def test_submodule_pointer_change(repo: Repo, tmp_path) -> None:
    inner = repo.add_submodule(tmp_path / "sub", "deps/sub")
    inner.write("s.txt", "2\n")
    new = inner.commit("s2")
    change = next(c for c in listing(repo).changes if c.file_path == "deps/sub")
    assert change.hunks[0].lines[-1] == f"+Subproject commit {new}"
    inner.write("s.txt", "local edit\n")  # git would mark the commit "-dirty"
    change = next(c for c in listing(repo).changes if c.file_path == "deps/sub")
    assert change.hunks[0].lines[-1] == f"+Subproject commit {new}"
    assert change.old_mode == change.new_mode == "160000"


def test_submodule_with_only_local_edits_is_not_a_change(repo: Repo, tmp_path) -> None:
    # The superproject cannot commit a submodule's own edits: git commit -a records nothing.
    repo.add_submodule(tmp_path / "sub", "deps/sub").write("s.txt", "local edit\n")
    assert listing(repo).changes == []


@pytest.mark.parametrize(
    "name",
    [
        "with space.txt",
        "caf\u00e9.txt",
        "caf\u00e9 menu.txt",
        'quo"te.txt',
        "tab\there.txt",
        "new\nline.txt",
        "back\\slash.txt",
    ],
)
def test_quoted_paths_round_trip(repo: Repo, name: str) -> None:
    repo.write(name, "a\n")
    repo.commit()
    repo.write(name, "b\n")
    repo.write("u-" + name, "untracked\n")
    paths = sorted(c.file_path for c in listing(repo).changes)
    assert paths == sorted([name, "u-" + name])


def test_non_utf8_content_and_crlf_are_kept_exactly(repo: Repo) -> None:
    repo.write("latin1.txt", b"caf\xe9\r\nline two\r\n")
    repo.commit()
    repo.write("latin1.txt", b"caf\xe9!\r\nline two\r\n")
    hunk = listing(repo).changes[0].hunks[0]
    assert hunk.lines[0].encode("utf-8", "surrogateescape") == b"-caf\xe9\r"
    wire = hunk.to_dict()["lines"]
    assert wire[0] == "-caf\\xe9\r"  # visible on the wire, valid UTF-8
    json.dumps(wire).encode("utf-8")


def test_same_state_gives_byte_identical_json(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.commit()
    repo.write("a.py", "x = 2\n")
    repo.write("b.py", "y = 1\n")
    first, second = as_json(repo), as_json(repo)
    assert first == second
    fp1 = listing(repo).fingerprint
    repo.write("b.py", "y = 2\n")
    assert listing(repo).fingerprint != fp1


def test_listing_never_writes_the_index(repo: Repo) -> None:
    repo.write("a.txt", "1\n")
    repo.commit()
    repo.write("a.txt", "2\n")
    index = repo.path / ".git" / "index"
    before = index.read_bytes()
    (repo.path / "a.txt").touch()
    listing(repo)
    assert index.read_bytes() == before
    assert not (repo.path / ".git" / "index.lock").exists()


def test_changed_paths_are_the_files_the_changes_are_read_from(repo: Repo, tmp_path) -> None:
    """One answer to "which files changed" (``git.changed_paths``), for the leftovers of a batch and the
    provenance recorder alike: the files ``capture`` reads changes from, whatever state each is in."""
    for name in ("staged.py", "unstaged.py", "both.py", "gone.py", "moved.py", "reverted.py", "same.py"):
        repo.write(name, f"{name}\n")
    repo.write(".gitignore", "*.log\n")
    origin = Repo(tmp_path / "origin")
    origin.write("lib.txt", "lib\n")
    origin.commit()
    sub = repo.add_submodule(origin.path, "sub")
    repo.commit()
    repo.write("staged.py", "staged\n")
    repo.add("staged.py")
    repo.write("unstaged.py", "unstaged\n")
    repo.write("both.py", "staged\n")
    repo.add("both.py")
    repo.write("both.py", "work\n")
    repo.delete("gone.py")
    repo.git("mv", "moved.py", "renamed.py")
    repo.write("reverted.py", "staged\n")
    repo.add("reverted.py")
    repo.write("reverted.py", "reverted.py\n")  # staged, then put back as HEAD has it in the work tree
    repo.write("new dir/new file.txt", "new\n")
    repo.write("debug.log", "ignored\n")
    sub.write("lib.txt", "edited inside the submodule\n")  # not the superproject's to commit
    Repo(repo.path / "nested")  # a repository inside the tree: a folder, not a file

    from_capture = {p for c in listing(repo).changes for p in (c.file_path, c.old_path) if p}
    assert (
        changed_paths(Git.discover(repo.path))
        == sorted(from_capture)
        == [
            "both.py",
            "gone.py",
            "moved.py",
            "nested",
            "new dir/new file.txt",
            "renamed.py",
            "reverted.py",
            "staged.py",
            "unstaged.py",
        ]
    )
