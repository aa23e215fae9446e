"""Every refusal leaves the repository exactly as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from segmint_core.apply import commit as commit_module
from segmint_core.apply.gitops import IndexLocked
from segmint_core.apply.lines import MissingDependency
from segmint_core.errors import RefusedError, SegmintError, StaleReferenceError
from tests.session.conftest import BASE, one_group_per_hunk, open_session
from tests.support.repo import Repo


def planned(repo: Repo):
    session = open_session(repo)
    one_group_per_hunk(session)
    session.propose_commits()
    return session


def test_files_changed_since_the_plan(two_intents: Repo) -> None:
    session = planned(two_intents)
    two_intents.write("app.py", two_intents.read("app.py").decode() + "one more\n")
    before = two_intents.snapshot()
    plan = next(p for p in session.plans if "app.py" in str(session.parts(p.hunk_ids)[0][0].file_path))
    with pytest.raises(StaleReferenceError, match="Files changed since the plan was made: app.py"):
        session.apply_commit(plan.id)
    assert two_intents.snapshot() == before
    assert session.plan(plan.id).status == "failed"


def test_a_planned_hunk_edited_before_another_process_applies(two_intents: Repo) -> None:
    # `segmint plan`, then an edit of a planned line, then `segmint apply --all`.
    planned(two_intents)
    two_intents.write("app.py", two_intents.read("app.py").decode().replace("line three", "line THREE"))
    before = two_intents.snapshot()
    session = open_session(two_intents)
    session.refresh()
    stale = [p for p in session.plans if p.changed]
    assert [p.changed for p in stale] == [["app.py"]]
    with pytest.raises(RefusedError, match=f"{stale[0].id} is out of date: app.py changed since it was proposed"):
        session.apply_all(actor="person")
    with pytest.raises(RefusedError, match="out of date"):
        session.apply_commit(stale[0].id)
    assert two_intents.snapshot() == before, "nothing committed, nothing written"
    fresh = session.propose_commits()
    assert not any(p.changed for p in fresh)
    session.apply_all(actor="person")
    assert two_intents.git("status", "--porcelain") == ""
    assert "line THREE" in two_intents.git("show", "HEAD~0:app.py", "HEAD~1:app.py", "HEAD~2:app.py")


def test_head_moved(two_intents: Repo) -> None:
    session = planned(two_intents)
    two_intents.write("other.txt", "x\n")
    two_intents.git("add", "other.txt")
    two_intents.git("commit", "-q", "-m", "someone else")
    before = two_intents.snapshot()
    with pytest.raises(StaleReferenceError, match="HEAD moved"):
        session.apply_commit(session.plans[0].id)
    assert two_intents.snapshot() == before


def move_head(repo: Repo, how: str) -> None:
    """HEAD to another commit, the uncommitted changes left as they were."""
    if how == "empty commit":
        repo.git("commit", "-q", "--allow-empty", "-m", "someone else")
    elif how == "branch switch":  # a branch one commit behind; checkout carries the edits over
        repo.git("branch", "behind", "HEAD~1")
        repo.git("checkout", "-q", "behind")
    else:  # reset --soft to an earlier commit and back: same diff, HEAD went away and came back elsewhere
        repo.git("reset", "-q", "--soft", "HEAD~1")


@pytest.mark.parametrize("how", ["empty commit", "branch switch", "reset --soft"])
def test_head_moved_outside_segmint_makes_the_plans_out_of_date(two_intents: Repo, how: str) -> None:
    two_intents.write("notes.txt", "first\n")
    two_intents.git("add", "notes.txt")
    two_intents.git("commit", "-q", "-m", "notes")
    planned(two_intents)
    move_head(two_intents, how)
    before = two_intents.snapshot()
    session = open_session(two_intents)  # the next command, as `segmint apply --all` opens it
    assert all(p.out_of_date for p in session.plans)
    with pytest.raises(RefusedError, match=r"is out of date: HEAD moved from \w{7} to \w{7} since it was proposed"):
        session.apply_all()
    assert two_intents.snapshot() == before, "nothing committed onto the new HEAD"
    fresh = session.propose_commits()
    assert not any(p.out_of_date for p in fresh)


@pytest.mark.parametrize(
    "marker,what",
    [
        ("MERGE_HEAD", "a merge"),
        ("CHERRY_PICK_HEAD", "a cherry-pick"),
        ("rebase-merge", "a rebase"),
    ],
)
def test_operation_in_progress(two_intents: Repo, marker: str, what: str) -> None:
    session = planned(two_intents)
    path = two_intents.path / ".git" / marker
    if marker == "rebase-merge":
        path.mkdir()
    else:
        path.write_text(two_intents.head() + "\n")
    before = two_intents.snapshot()
    with pytest.raises(RefusedError, match=f"while {what} is in progress"):
        session.apply_commit(session.plans[0].id)
    assert two_intents.snapshot() == before


def test_hunk_needing_another_hunk_names_it(repo: Repo) -> None:
    repo.write("f.py", BASE)
    repo.commit()
    staged = BASE.replace("line 10\n", "line ten\n")
    repo.write("f.py", staged)
    repo.add("f.py")
    repo.write("f.py", staged.replace("line ten\n", "line TEN\n"))
    session = open_session(repo)
    one_group_per_hunk(session)
    plans = session.propose_commits()
    assert [session.units.by_id[p.hunk_ids[0]].parent.staged for p in plans] == [True, False]
    before = repo.snapshot()
    with pytest.raises(MissingDependency, match=r"change-1:2 cannot be committed without change-1:1"):
        session.apply_commit(plans[1].id)
    assert repo.snapshot() == before
    session.apply_commit(plans[0].id)
    session.apply_commit(plans[1].id)
    assert repo.git("show", "HEAD:f.py") == staged.replace("line ten\n", "line TEN\n")


def test_index_lock_held_by_another_process(two_intents: Repo) -> None:
    session = planned(two_intents)
    lock = two_intents.path / ".git" / "index.lock"
    lock.write_bytes(b"someone else")
    before = two_intents.snapshot()
    with pytest.raises(IndexLocked, match="Another git process holds"):
        session.apply_commit(session.plans[0].id)
    assert two_intents.snapshot() == before
    assert lock.read_bytes() == b"someone else"


def test_failure_after_commit_moves_head_back(two_intents: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    session = planned(two_intents)
    before = two_intents.snapshot()

    real_replace = os.replace

    def broken(source, dest):  # the index swap, after `git commit`, fails
        if str(dest).endswith(os.sep + "index"):
            raise OSError("disk full")
        real_replace(source, dest)

    monkeypatch.setattr(commit_module.os, "replace", broken)
    with pytest.raises(OSError):
        session.apply_commit(session.plans[0].id)
    assert two_intents.snapshot() == before
    assert not (two_intents.path / ".git" / "index.lock").exists()
    assert not (two_intents.path / ".git" / "segmint" / "journal.json").exists(), "HEAD went back: nothing to finish"


def test_hooks_run_and_can_refuse(two_intents: Repo, tmp_path: Path) -> None:
    hooks = two_intents.path / ".git" / "hooks"
    log = tmp_path / "hooks.log"
    (hooks / "pre-commit").write_text(f"#!/bin/sh\necho pre-commit >> {log}\ngit diff --cached --name-only >> {log}\n")
    (hooks / "commit-msg").write_text(
        f"#!/bin/sh\necho commit-msg >> {log}\nif grep -q WIP \"$1\"; then echo 'no WIP commits' >&2; exit 1; fi\n"
    )
    for hook in hooks.iterdir():
        hook.chmod(0o755)
    session = planned(two_intents)
    plan = session.plans[0]
    session.update_commit(plan.id, title="WIP: not yet")
    before = two_intents.snapshot()
    with pytest.raises(RefusedError, match="no WIP commits"):
        session.apply_commit(plan.id)
    assert two_intents.snapshot() == before
    session.update_commit(plan.id, title="docs: describe usage")
    session.apply_commit(plan.id)
    text = log.read_text()
    assert text.count("pre-commit") == 2 and text.count("commit-msg") == 2
    assert "README.md" in text or "app.py" in text  # the hook saw the plan's files staged


def test_a_hook_that_stages_files_itself_commits_nothing(two_intents: Repo) -> None:
    # lint-staged and "format, then git add -u" hooks stage whole work-tree files: the commit
    # would hold the other intents' lines under this message, and the index would undo them.
    hook = two_intents.path / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\ngit add -u\n")
    hook.chmod(0o755)
    session = planned(two_intents)
    plan = next(p for p in session.plans if session.parts(p.hunk_ids)[0][0].file_path == "README.md")
    before = two_intents.snapshot()
    with pytest.raises(RefusedError, match=r"A hook changed what the commit holds \(it staged app.py itself\)"):
        session.apply_commit(plan.id)
    assert two_intents.snapshot() == before
    assert not (two_intents.path / ".git" / "segmint" / "journal.json").exists()
    hook.unlink()
    assert session.apply_commit(plan.id).sha
    assert two_intents.git("show", "--name-only", "--format=", "HEAD").split() == ["README.md"]


def test_no_git_identity_says_how_to_set_one(two_intents: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)  # nor a name from the machine's own git config
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    two_intents.git("config", "--unset", "user.email")
    two_intents.git("config", "user.useConfigOnly", "true")  # no guess from the host name
    session = planned(two_intents)
    before = two_intents.snapshot()
    with pytest.raises(RefusedError, match=r"git commit needs to know who you are: set your name and email"):
        session.apply_commit(session.plans[0].id)
    assert two_intents.snapshot() == before


def test_commit_signing_is_honoured(two_intents: Repo, tmp_path: Path) -> None:
    gnupg = tmp_path / "gnupg"
    gnupg.mkdir(mode=0o700)
    env = {**os.environ, "GNUPGHOME": str(gnupg)}
    import subprocess

    made = subprocess.run(
        [
            "gpg",
            "--batch",
            "--passphrase",
            "",
            "--quick-gen-key",
            "Test Author <author@example.invalid>",
            "ed25519",
            "sign",
            "never",
        ],
        env=env,
        capture_output=True,
    )
    if made.returncode != 0:
        pytest.skip(f"gpg cannot make a key here: {made.stderr.decode(errors='replace')[:200]}")
    os.environ["GNUPGHOME"] = str(gnupg)
    try:
        two_intents.git("config", "commit.gpgsign", "true")
        two_intents.git("config", "user.signingkey", "author@example.invalid")
        session = planned(two_intents)
        outcome = session.apply_commit(session.plans[0].id)
        raw = two_intents.git("cat-file", "commit", outcome.sha)
        assert "gpgsig -----BEGIN PGP SIGNATURE-----" in raw
        two_intents.git("verify-commit", outcome.sha)
    finally:
        subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=env, capture_output=True)
        os.environ.pop("GNUPGHOME", None)


def test_staged_work_outside_the_plan_stays_staged(two_intents: Repo) -> None:
    two_intents.add("README.md")
    session = planned(two_intents)
    plan = next(p for p in session.plans if all(not session.units.by_id[h].parent.staged for h in p.hunk_ids))
    work = two_intents.snapshot()["files"]
    session.apply_commit(plan.id)
    assert two_intents.git("diff", "--cached", "--name-only").split() == ["README.md"]
    assert two_intents.snapshot()["files"] == work


def test_undo_restores_head_index_and_plans(two_intents: Repo) -> None:
    two_intents.add("README.md")
    session = planned(two_intents)
    before = two_intents.snapshot()
    groups_before = [g.to_dict() for g in session.groups]
    first = session.plans[0]
    session.apply_commit(first.id)
    assert two_intents.head() != before["head"]
    outcome = session.undo()
    assert outcome.commit_id == first.id
    assert two_intents.snapshot() == before
    assert [(g["id"], g["hunk_ids"]) for g in groups_before] == [(g.id, g.hunk_ids) for g in session.groups]
    assert session.plan(first.id).status == "proposed", "as it was before the apply"
    with pytest.raises(RefusedError, match="Nothing to undo"):
        session.undo()


def test_undo_refuses_when_head_is_not_segmints(two_intents: Repo) -> None:
    session = planned(two_intents)
    session.apply_commit(session.plans[0].id)
    two_intents.git("commit", "-q", "--allow-empty", "-m", "mine")
    before = two_intents.snapshot()
    with pytest.raises(RefusedError, match="not Segmint's last commit"):
        session.undo()
    assert two_intents.snapshot() == before


def test_bad_ids_are_refused_with_their_names(two_intents: Repo) -> None:
    session = planned(two_intents)
    with pytest.raises(SegmintError, match="Unknown commit ID: commit-99"):
        session.apply_commit("commit-99")
    with pytest.raises(SegmintError, match="Unknown hunk ID: nope"):
        session.move_hunks(["nope"], new_group=True)
    with pytest.raises(SegmintError, match="Unknown group ID: group-42"):
        session.merge_groups(["group-1", "group-42"])


def test_same_second_same_size_edit_stays_visible_after_apply(repo: Repo) -> None:
    """Git trusts stat data unless an entry is racy against the index's mtime;
    rewriting the index must keep that information (regression)."""
    repo.write("a.txt", "one\n")
    repo.write("b.txt", "bbb\n")
    repo.commit()
    index = repo.path / ".git" / "index"
    repo.write("b.txt", "ccc\n")  # same size as before
    stamp = index.stat().st_mtime_ns
    os.utime(repo.path / "b.txt", ns=(stamp, stamp))
    repo.write("a.txt", "two\n")
    session = open_session(repo)
    one_group_per_hunk(session)
    plan = next(p for p in session.propose_commits() if session.parts(p.hunk_ids)[0][0].file_path == "a.txt")
    session.apply_commit(plan.id)
    assert repo.git("diff", "--name-only").split() == ["b.txt"]


@pytest.mark.parametrize("addition_first", [False, True])
def test_a_file_replaced_by_a_symlink_commits_in_order(repo: Repo, addition_first: bool) -> None:
    repo.write("f", "a\n")
    repo.write("g", "b\n")
    repo.commit()
    os.unlink(repo.path / "f")
    os.symlink("g", repo.path / "f")
    session = open_session(repo)
    session.regroup()
    change = next(c for c in session.changes if c.file_path == "f")
    removal, addition = (h.id for h in change.hunks)
    session.move_hunks([removal, addition], to_group_id=session.groups[0].id)
    session.move_hunks([addition if addition_first else removal], new_group=True)
    plans = session.propose_commits()
    assert plans[0].hunk_ids == [removal], "the removal goes first, whichever group came first"
    session.apply_all(actor="person")
    assert repo.git("status", "--porcelain") == ""
    assert repo.git("ls-tree", "HEAD", "f").split()[0] == "120000"
