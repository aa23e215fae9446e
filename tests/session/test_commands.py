"""``segmint plan`` and ``apply`` tell the session as it is: what a stopped batch committed,
and changes no plan covers."""

from __future__ import annotations

from segmint_core.session.session import Session
from tests.session.conftest import one_group_per_hunk, open_session
from tests.session.test_put_back import staged_then_put_back
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo


def segmint(repo: Repo, *args: str):
    return run_segmint(*args, "--repo", str(repo.path), env={"SEGMINT_CHAT_MODEL": "", "SEGMINT_EMBEDDINGS": ""})


def four_commits(repo: Repo) -> Session:
    for name in "abcd":
        repo.write(f"{name}.txt", f"{name}\n")
    repo.commit("base")
    for name in "abcd":
        repo.write(f"{name}.txt", f"{name}\n{name} again\n")
    session = open_session(repo)
    one_group_per_hunk(session)
    session.propose_commits()
    return session


def test_a_batch_stopped_by_a_hook_lists_the_commits_made_then_why_it_stopped(repo: Repo) -> None:
    session = four_commits(repo)
    with_c = next(p for p in session.plans if "c.txt" in session.parts(p.hunk_ids)[0][0].file_path)
    session.reorder_commits(
        [p.id for p in session.plans if p is not with_c][:2]
        + [with_c.id]
        + [p.id for p in session.plans if p is not with_c][2:]
    )
    hook = repo.path / ".git" / "hooks" / "pre-commit"
    hook.write_text(
        "#!/bin/sh\nif git diff --cached --name-only | grep -q c.txt; then echo 'c.txt is frozen' >&2; exit 1; fi\n"
    )
    hook.chmod(0o755)

    result = segmint(repo, "apply", "--all")
    assert result.returncode == 3, result
    made = [line.split()[0] for line in result.stdout.splitlines() if " committed as " in line]
    assert made == [p.id for p in session.plans if p.status != "applied"][:2]
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"segmint: stopped after 2 commits, at {with_c.id}: git commit refused")
    assert "c.txt is frozen" in result.stderr
    assert repo.git("rev-list", "--count", "HEAD").strip() == "3"

    as_json = segmint(repo, "apply", "--all", "--json")
    assert as_json.returncode == 2, "nothing more was committed: the first plan left is refused"


def test_apply_all_with_nothing_planned_but_new_edits_says_how_to_plan_them(repo: Repo) -> None:
    session = four_commits(repo)
    session.apply_all()
    repo.write("a.txt", "a\na again\nand a third\n")
    result = segmint(repo, "apply", "--all")
    assert_clean_error(result, "Every planned commit is applied, but there are changes no plan covers: ")
    assert "a.txt" in result.stderr and "Run `segmint plan --new` to plan them" in result.stderr
    assert segmint(repo, "plan", "--new").returncode == 0
    assert segmint(repo, "apply", "--all").returncode == 0
    assert repo.git("status", "--porcelain") == ""


def test_plan_and_apply_name_a_file_staged_then_put_back(repo: Repo) -> None:
    staged_then_put_back(repo)
    repo.git("checkout", "--", "work.py")  # only the put-back files are left
    plan = segmint(repo, "plan")
    assert plan.returncode == 0, plan.stderr
    assert "has nothing to commit: staged, then put back as HEAD has it" in plan.stdout
    result = segmint(repo, "apply", "--all")
    assert_clean_error(result, "Nothing to commit: group-1 (kept.txt) has nothing to commit")
    assert "(`git restore --staged -- new.txt` unstages it)" in result.stderr
