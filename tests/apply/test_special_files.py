"""Committing what git treats specially: filtered new files, type changes, dirty submodules."""

from __future__ import annotations

from pathlib import Path

import pytest

from segmint_core.apply.commit import Selection, apply_selection
from segmint_core.apply.lines import MissingDependency
from segmint_core.changes import capture
from segmint_core.errors import RefusedError, StaleReferenceError
from segmint_core.git import Git
from segmint_core.session.session import Session
from tests.support.repo import Repo


def select_hunks(cs, hunk_ids: set[str] | None = None) -> Selection:
    """Every changed line of the named hunks (default: all); hunk-less changes whole."""
    selection = Selection()
    for change in cs.changes:
        if hunk_ids is None and (not change.hunks or "160000" in (change.old_mode, change.new_mode)):
            selection.whole.add(change.id)
            continue
        for hunk in change.hunks:
            if hunk_ids is None or hunk.id in hunk_ids:
                selection.refs.setdefault(change.id, set()).update(
                    (hunk.id, i) for i, line in enumerate(hunk.lines) if line[:1] in "+-"
                )
    return selection


def commit_all(repo: Repo) -> str:
    git = Git.discover(repo.path)
    cs = capture(git)
    before = repo.snapshot()["files"]
    sha = apply_selection(git, cs, select_hunks(cs), "all\n").sha
    assert repo.snapshot()["files"] == before, "the work tree changed"
    return sha


def blob(repo: Repo, rev: str, path: str) -> bytes:
    return repo.git_bytes("cat-file", "blob", f"{rev}:{path}")


def mode(repo: Repo, rev: str, path: str) -> str:
    return repo.git("ls-tree", rev, "--", path).split()[0]


# -- 1. new files go through git's clean filters and eol conversion -------------


@pytest.fixture
def filtered(repo: Repo) -> Repo:
    repo.write(".gitattributes", "*.txt text eol=crlf\n*.up filter=up\n")
    repo.git("config", "filter.up.clean", "tr a-z A-Z")
    repo.git("config", "filter.up.smudge", "cat")
    repo.write("a", "a\n")
    repo.commit("init")
    return repo


def test_new_files_are_stored_as_git_add_would(filtered: Repo) -> None:
    repo = filtered
    repo.write("new.txt", b"n1\r\nn2\r\n")
    repo.write("n2.up", "new thing\n")
    repo.write("link.up", b"")  # replaced below by a symlink: no filter for link targets
    repo.delete("link.up")
    (repo.path / "link.up").symlink_to("lower.up")
    sha = commit_all(repo)
    assert blob(repo, sha, "new.txt") == b"n1\nn2\n"
    assert blob(repo, sha, "n2.up") == b"NEW THING\n"
    assert blob(repo, sha, "link.up") == b"lower.up"
    assert repo.status() == ""


def test_part_of_a_new_file_is_filtered_like_the_whole(filtered: Repo) -> None:
    # The selected lines are work-tree bytes: they go through the same filters,
    # as if the file held only them (exact for line-wise filters and eol conversion).
    repo = filtered
    repo.write("new.txt", b"keep 1\r\nkeep 2\r\n" + b"".join(b"filler %d\r\n" % i for i in range(8)) + b"later\r\n")
    repo.write("n2.up", "first\n")
    git = Git.discover(repo.path)
    cs = capture(git)
    change = next(c for c in cs.changes if c.file_path == "new.txt")
    (hunk,) = change.hunks
    assert hunk.lines[:2] == ["+keep 1\r", "+keep 2\r"]
    selection = Selection(refs={change.id: {(hunk.id, 0), (hunk.id, 1)}})
    sha = apply_selection(git, cs, selection, "part\n").sha
    assert blob(repo, sha, "new.txt") == b"keep 1\nkeep 2\n"
    # The index holds the committed part; the rest shows as unstaged lines.
    assert repo.git("diff", "--cached", "--name-only") == ""
    assert repo.git("diff", "--numstat", "--", "new.txt").split()[:2] == ["9", "0"]
    sha = commit_all(repo)
    assert blob(repo, sha, "new.txt") == repo.read("new.txt").replace(b"\r\n", b"\n")
    assert blob(repo, sha, "n2.up") == b"FIRST\n"
    assert repo.status() == ""


def test_a_new_file_after_a_staged_removal_is_filtered(filtered: Repo) -> None:
    repo = filtered
    repo.write("f.up", "old\n")
    repo.commit("f")
    repo.git("rm", "-q", "--cached", "f.up")
    repo.write("f.up", "recreated\n")
    sha = commit_all(repo)
    assert blob(repo, sha, "f.up") == b"RECREATED\n"
    assert repo.status() == ""


# -- 2. type changes: a file replaced by a symlink and back ---------------------


def test_file_replaced_by_a_symlink_is_listed_and_committed(repo: Repo) -> None:
    repo.write("f", "a\n")
    repo.write("g", "b\n")
    repo.commit("init")
    repo.delete("f")
    (repo.path / "f").symlink_to("g")
    (change,) = capture(Git.discover(repo.path)).changes
    assert (change.old_mode, change.new_mode) == ("100644", "120000")
    assert [h.lines for h in change.hunks] == [["-a"], ["+g", "\\ No newline at end of file"]]
    sha = commit_all(repo)
    assert (mode(repo, sha, "f"), blob(repo, sha, "f")) == ("120000", b"g")
    assert repo.status() == ""


def test_symlink_replaced_by_a_file_is_committed(repo: Repo) -> None:
    repo.write("g", "b\n")
    (repo.path / "f").symlink_to("g")
    repo.commit("init")
    repo.delete("f")
    repo.write("f", "now a file\n")
    sha = commit_all(repo)
    assert (mode(repo, sha, "f"), blob(repo, sha, "f")) == ("100644", b"now a file\n")
    assert repo.status() == ""


def test_staged_type_change_with_later_edits(repo: Repo) -> None:
    repo.write("f", "a\n")
    repo.commit("init")
    repo.delete("f")
    (repo.path / "f").symlink_to("one")
    repo.add("f")
    repo.delete("f")
    (repo.path / "f").symlink_to("two")
    (change,) = capture(Git.discover(repo.path)).changes
    assert [h.staged for h in change.hunks] == [True, True, False]
    sha = commit_all(repo)
    assert (mode(repo, sha, "f"), blob(repo, sha, "f")) == ("120000", b"two")
    assert repo.status() == ""


def test_a_type_change_goes_in_whole_or_not_at_all(repo: Repo) -> None:
    repo.write("f", "a\n")
    repo.write("other", "o\n")
    repo.commit("init")
    repo.delete("f")
    (repo.path / "f").symlink_to("other")
    git = Git.discover(repo.path)
    cs = capture(git)
    removal, addition = cs.changes[0].hunks
    with pytest.raises(MissingDependency) as refused:
        apply_selection(git, cs, select_hunks(cs, {addition.id}), "half\n")
    assert (refused.value.needs, refused.value.needed_by) == (removal.id, addition.id)
    # The removal alone deletes the file; the symlink then shows as new.
    sha = apply_selection(git, cs, select_hunks(cs, {removal.id}), "remove f\n").sha
    assert repo.git("ls-tree", "--name-only", sha).split() == ["other"]
    (left,) = capture(git).changes
    assert (left.status, left.new_mode) == ("added", "120000")


def test_binary_file_replaced_by_a_symlink_stores_the_link(repo: Repo) -> None:
    repo.write("f", b"bin\0ary")
    repo.write("g", "b\n")
    repo.commit("init")
    repo.delete("f")
    (repo.path / "f").symlink_to("g")
    (change,) = capture(Git.discover(repo.path)).changes
    assert change.binary and (change.old_mode, change.new_mode) == ("100644", "120000")
    sha = commit_all(repo)
    assert (mode(repo, sha, "f"), blob(repo, sha, "f")) == ("120000", b"g")
    assert repo.status() == ""


# -- 3. submodules with local edits ---------------------------------------------


def submodule_repo(repo: Repo, tmp_path: Path) -> Repo:
    repo.write("a", "a\n")
    return repo.add_submodule(tmp_path / "sub-origin", "sub")


def test_dirty_submodule_commits_its_checked_out_commit(repo: Repo, tmp_path: Path) -> None:
    inner = submodule_repo(repo, tmp_path)
    inner.write("s.txt", "2\n")
    new = inner.commit("s2")
    inner.write("s.txt", "local edit\n")
    repo.write("a", "b\n")
    sha = commit_all(repo)
    assert repo.git("rev-parse", f"{sha}:sub").strip() == new
    assert blob(repo, sha, "a") == b"b\n"
    assert repo.git("status", "--porcelain", "--ignore-submodules=dirty") == ""


def test_submodule_with_only_local_edits_leaves_the_pointer(repo: Repo, tmp_path: Path) -> None:
    inner = submodule_repo(repo, tmp_path)
    old = inner.head()
    inner.write("s.txt", "local edit\n")
    repo.write("a", "b\n")
    sha = commit_all(repo)
    assert repo.git("rev-parse", f"{sha}:sub").strip() == old
    assert blob(repo, sha, "a") == b"b\n"


def test_a_deletion_leaves_the_lines_a_staged_change_it_lacks_removes(repo: Repo) -> None:
    # The unstaged deletion used to take the whole file away, "b" included, though the
    # staged change that removes "b" was not part of the commit.
    repo.write("f.txt", "a\nb\nc\n")
    repo.commit()
    repo.write("f.txt", "a\nc\n")
    repo.add("f.txt")
    repo.delete("f.txt")
    git = Git.discover(repo.path)
    cs = capture(git)
    (change,) = cs.changes
    deletion = change.unstaged_patch.hunks[0]
    sha = apply_selection(git, cs, select_hunks(cs, {deletion.id}), "delete\n").sha
    assert blob(repo, sha, "f.txt") == b"b\n"
    assert repo.git("status", "--porcelain") == "D  f.txt\n"  # the staged removal is all that is left


# -- intent-to-add files beside a deleted file of the index ---------------------


@pytest.mark.parametrize("deleted,added", [("", ""), ("\n", "\r\n")])
def test_an_intent_to_add_file_is_committed_as_itself_not_as_a_rename(repo: Repo, deleted: str, added: str) -> None:
    """git pairs a file staged as new and deleted in the work tree with a like intent-to-add
    file as a rename; the commit holds the intent-to-add file and not the deleted one."""
    repo.commit("init")
    repo.write("b.txt", deleted)
    repo.add("b.txt")
    repo.delete("b.txt")
    repo.write("ita.txt", added)
    repo.git("add", "--intent-to-add", "--", "ita.txt")
    assert "b.txt -> ita.txt" in repo.git("status", "--porcelain"), "git shows the pair as a rename"
    assert not any(c.old_path for c in capture(Git.discover(repo.path)).changes), "Segmint does not"
    sha = commit_all(repo)
    assert repo.git("ls-tree", "-r", "--name-only", sha).split() == ["ita.txt"]
    assert blob(repo, sha, "ita.txt") == added.encode()
    assert repo.git("status", "--porcelain") == "", "the index follows the commit"


# -- names git would read as pathspec magic or globs ----------------------------


@pytest.mark.parametrize("name", [":(glob)*.txt", ":!x.txt", ":/top.txt"])
def test_a_name_like_pathspec_magic_is_committed_as_itself(repo: Repo, name: str) -> None:
    repo.write("x.txt", "x\n")
    repo.write(name, "old\n")
    repo.commit("init")
    repo.write(name, "new\n")
    repo.write("x.txt", "x2\n")
    sha = commit_all(repo)
    assert blob(repo, sha, name) == b"new\n" and blob(repo, sha, "x.txt") == b"x2\n"
    assert repo.git("status", "--porcelain") == ""


def test_a_nested_repository_with_no_commit_is_refused_in_one_sentence(repo: Repo) -> None:
    # `git add` refuses it too ("does not have a commit checked out"): there is nothing to point at.
    repo.write("a.txt", "a\n")
    repo.commit("init")
    Repo(repo.path / "nested").write("n.txt", "n\n")
    git = Git.discover(repo.path)
    cs = capture(git)
    assert [(c.file_path, c.new_mode) for c in cs.changes] == [("nested", "160000")]
    before = repo.snapshot()
    with pytest.raises(RefusedError, match="^nested is a repository with no commit checked out"):
        apply_selection(git, cs, select_hunks(cs), "add nested\n")
    assert repo.snapshot() == before


@pytest.mark.parametrize("file_mode, stored", [("true", "100755"), ("false", "100644")])
def test_a_new_executable_file_gets_the_mode_git_add_would_give_it(repo: Repo, file_mode: str, stored: str) -> None:
    # core.fileMode=false (a Windows or WSL checkout, where every file looks executable):
    # git ignores the executable bit, and `git add` stores a new file as 100644.
    repo.git("config", "core.fileMode", file_mode)
    repo.write("a.txt", "a\n")
    repo.commit("init")
    repo.write("run.sh", "echo hi\n", mode=0o755)
    sha = commit_all(repo)
    assert mode(repo, sha, "run.sh") == stored
    assert repo.git("status", "--porcelain") == ""


# -- a file where HEAD has a folder, and the reverse ------------------------------


@pytest.mark.parametrize("made", ["file", "symlink"])
def test_a_file_where_head_has_a_folder_needs_the_folder_s_files_removed(repo: Repo, made: str) -> None:
    repo.write("d/x.txt", "x\n")
    repo.write("other/o.txt", "o\n")
    repo.commit("init")
    repo.delete("d/x.txt")
    (repo.path / "d").rmdir()
    if made == "symlink":
        (repo.path / "d").symlink_to("other")
    else:
        repo.write("d", "now a file\n")
    git = Git.discover(repo.path)
    cs = capture(git)
    by_path = {c.file_path: c for c in cs.changes}
    alone = Selection(refs={}, whole=set())
    alone.refs[by_path["d"].id] = {(h.id, i) for h in by_path["d"].hunks for i, _ in enumerate(h.lines)}
    before = repo.snapshot()
    with pytest.raises(
        MissingDependency, match=f"{by_path['d'].id} cannot be committed without {by_path['d/x.txt'].id}"
    ):
        apply_selection(git, cs, alone, "d alone\n")
    assert repo.snapshot() == before, "nothing committed: the folder's file would have gone with it"
    sha = commit_all(repo)
    assert repo.git("ls-tree", "-r", "--name-only", sha).split() == ["d", "other/o.txt"]


def test_plans_remove_the_folder_s_files_before_the_file_that_replaces_it(repo: Repo) -> None:
    from segmint_core.session.session import Session
    from tests.support.groups import one_group_per_hunk

    repo.write("d/x.txt", "x\n")
    repo.write("f", "f\n")
    base = repo.commit("init")
    repo.delete("d/x.txt")
    (repo.path / "d").rmdir()
    (repo.path / "d").symlink_to("f")
    repo.delete("f")
    repo.write("f/in.txt", "in\n")
    session = Session.open(str(repo.path))
    one_group_per_hunk(session)
    session.propose_commits()
    before = repo.snapshot()["files"]
    session.apply_all()
    assert repo.snapshot()["files"] == before
    assert repo.git("status", "--porcelain", "--untracked-files=all") == ""
    for sha in repo.git("rev-list", f"{base}..HEAD").split():  # each commit changes only what its plan holds
        listed = repo.git("show", "--format=", "--name-only", sha).split()
        assert len(listed) == 1, (sha, listed)


@pytest.mark.parametrize("name", ["dist/app.min.js", "yarn.lock"])
def test_a_symlink_at_a_generated_path_is_committed(repo: Repo, name: str) -> None:
    # A generated file is compared by its blob at apply; a link's blob is its target's text.
    repo.write("src/a.js", "a\n")
    repo.write("src/b.js", "b\n")
    (repo.path / name).parent.mkdir(parents=True, exist_ok=True)
    (repo.path / name).symlink_to("src/a.js")
    repo.commit("init")
    (repo.path / name).unlink()
    (repo.path / name).symlink_to("src/b.js")
    session = Session.open(str(repo.path))
    assert [c.file_path for c in session.changes if c.file_path in session.units.changeset.generated] == [name]
    session.propose_commits()
    session.apply_all()
    assert repo.git("status", "--porcelain") == ""
    assert blob(repo, "HEAD", name) == b"src/b.js"


def test_a_generated_file_made_a_symlink_after_the_plan_is_refused(repo: Repo) -> None:
    repo.write("yarn.lock", "one\n")
    repo.commit("init")
    repo.write("yarn.lock", "two\n")
    session = Session.open(str(repo.path))
    (plan,) = session.propose_commits()
    (repo.path / "yarn.lock").unlink()
    (repo.path / "yarn.lock").symlink_to("two\n")  # the same bytes, now a link's target
    before = repo.snapshot()
    with pytest.raises(StaleReferenceError, match="Files changed since the plan was made: yarn.lock"):
        session.apply_commit(plan.id)
    assert repo.snapshot() == before


def test_a_sha256_repository_commits_removals_and_undoes_them(tmp_path: Path) -> None:
    # `update-index --index-info` takes a removal's object id only at the repository's hash length.
    path = tmp_path / "sha256"
    path.mkdir()
    made = Repo(path, init=False).git_bytes("init", "-q", "-b", "main", "--object-format=sha256", check=False)
    if not (path / ".git").exists():
        pytest.skip(f"this git cannot make a SHA-256 repository: {made!r}")
    repo = Repo(path, init=False)
    repo.write("a.txt", "a\n")
    repo.write("gone.txt", "gone\n")
    repo.write("staged-gone.txt", "staged gone\n")
    repo.write("yarn.lock", "lock\n")
    repo.commit("init")
    repo.write("a.txt", "a\nb\n")
    repo.delete("gone.txt")
    repo.git("rm", "-q", "staged-gone.txt", "yarn.lock")
    session = Session.open(str(repo.path))
    session.propose_commits()
    session.apply_all()
    assert repo.git("status", "--porcelain") == ""
    assert repo.git("ls-tree", "--name-only", "HEAD").split() == ["a.txt"]
    while session.applied:
        session.undo()
    assert sorted(repo.git("status", "--porcelain").splitlines()) == [
        " D gone.txt",
        " M a.txt",
        "D  staged-gone.txt",
        "D  yarn.lock",
    ]


def test_a_repository_whose_folder_name_holds_a_newline_commits(tmp_path: Path) -> None:
    # The blobs to store are named to git one a line.
    repo = Repo(tmp_path / "two\nlines")
    repo.write("a.txt", "a\n")
    repo.commit("init")
    repo.write("a.txt", "a\nb\n")
    sha = commit_all(repo)
    assert blob(repo, sha, "a.txt") == b"a\nb\n"
    assert repo.git("status", "--porcelain") == ""


def test_a_repository_opened_through_a_symlinked_folder_commits(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "real" / "repo")
    repo.write("a.txt", "a\n")
    repo.commit("init")
    repo.write("a.txt", "a\nb\n")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    git = Git(str(tmp_path / "link" / "repo"))  # as a caller may make it, without resolving the link
    cs = capture(git)
    sha = apply_selection(git, cs, select_hunks(cs), "all\n").sha
    assert blob(repo, sha, "a.txt") == b"a\nb\n"


def test_a_file_changed_since_the_plan_is_named_escaped(repo: Repo) -> None:
    name = "a\nb.txt"
    repo.write(name, "1\n")
    repo.commit("init")
    repo.write(name, "1\n2\n")
    session = Session.open(str(repo.path))
    (plan,) = session.propose_commits()
    repo.write(name, "1\n2\n3\n")
    with pytest.raises(StaleReferenceError) as refused:
        session.apply_commit(plan.id)
    assert str(refused.value) == "Files changed since the plan was made: a\\nb.txt; refresh first"
