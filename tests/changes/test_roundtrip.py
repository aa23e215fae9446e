"""Patches rebuilt from the model apply to the base they came from."""

from __future__ import annotations

from segmint_core.changes import build_patch, capture
from segmint_core.git import Git
from tests.support.patches import applies, assert_all_subsets_apply
from tests.support.repo import Repo


def numbered(n: int, fmt: str = "line {}\n") -> str:
    return "".join(fmt.format(i) for i in range(1, n + 1))


def test_every_subset_of_hunks_applies(repo: Repo) -> None:
    repo.write("big.txt", numbered(80))
    repo.write("other.txt", numbered(10))
    repo.commit()
    text = numbered(80)
    for i in (3, 20, 40, 60):
        text = text.replace(f"line {i}\n", f"line {i} changed\nextra {i}\n")
    repo.write("big.txt", text)
    repo.add("big.txt")
    repo.write("big.txt", text.replace("line 30\n", "").replace("line 75\n", "LINE 75\n"))
    repo.write("other.txt", numbered(10).replace("line 10\n", "line 10"))
    changes = capture(Git.discover(repo.path)).changes
    assert sum(assert_all_subsets_apply(repo, c) for c in changes) >= 19


def test_rebuilt_whole_patch_is_byte_identical_to_git(repo: Repo) -> None:
    repo.write("w.txt", b"caf\xe9\r\nx\n")
    repo.write("tab\tname.txt", "t\n")
    repo.commit()
    repo.write("w.txt", b"caf\xe9!\r\nx")
    repo.write("tab\tname.txt", "u\n")
    raw = repo.git_bytes("diff", "--no-color", "--full-index", "--src-prefix=a/", "--dst-prefix=b/")
    changes = capture(Git.discover(repo.path)).changes
    rebuilt = "".join(build_patch(c.unstaged_patch) for c in changes)
    assert rebuilt.encode("utf-8", "surrogateescape") == raw


def test_untracked_and_special_files_apply_to_the_index(repo: Repo) -> None:
    repo.write("keep.txt", "k\n")
    repo.commit()
    repo.write("fresh.txt", "one\ntwo")
    repo.write("exec.sh", "#!/bin/sh\necho hi\n", mode=0o755)
    (repo.path / "link").symlink_to("keep.txt")
    for change in capture(Git.discover(repo.path)).changes:
        ok, err = applies(repo, build_patch(change.unstaged_patch), base="index")
        assert ok, (change.file_path, err)


def test_type_changes_are_one_change_and_rebuild_as_git_wrote_them(repo: Repo) -> None:
    repo.write("file-to-link", "a\nb\n")
    repo.write("staged-to-link", "s\n")
    repo.write("target", "t\n")
    (repo.path / "link-to-file").symlink_to("target")
    repo.commit()
    for name in ("file-to-link", "staged-to-link", "link-to-file"):
        repo.delete(name)
    (repo.path / "file-to-link").symlink_to("target")
    (repo.path / "staged-to-link").symlink_to("target")
    repo.add("staged-to-link")
    repo.write("link-to-file", "now a file\n")
    changes = {c.file_path: c for c in capture(Git.discover(repo.path)).changes}
    assert sorted(changes) == ["file-to-link", "link-to-file", "staged-to-link"]
    assert [h.lines for h in changes["file-to-link"].hunks] == [
        ["-a", "-b"],
        ["+target", "\\ No newline at end of file"],
    ]
    assert (changes["link-to-file"].old_mode, changes["link-to-file"].new_mode) == ("120000", "100644")
    assert [h.staged for h in changes["staged-to-link"].hunks] == [True, True]
    options = ("--no-color", "--full-index", "--src-prefix=a/", "--dst-prefix=b/")
    for layer, args in (("unstaged_patch", ()), ("staged_patch", ("--cached",))):
        raw = repo.git_bytes("diff", *args, *options)
        rebuilt = "".join(build_patch(getattr(c, layer)) for c in changes.values() if getattr(c, layer))
        assert rebuilt.encode("utf-8", "surrogateescape") == raw
