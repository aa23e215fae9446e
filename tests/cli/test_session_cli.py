"""``segmint plan``, ``apply``, ``pr`` and ``undo`` as a user runs them."""

from __future__ import annotations

import json
import shutil

import pytest

from segmint_core.session.session import Session
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.readme_captions import readme_edited
from tests.support.repo import Repo


def dirty(repo: Repo) -> None:
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("README.md", "# Calc\n")
    repo.commit()
    repo.write("calc.py", "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n")
    repo.write("README.md", "# Calc\n\n## Usage\n\nImport it.\n")


def test_plan_apply_pr_undo(repo: Repo) -> None:
    dirty(repo)
    plan = run_segmint("plan", cwd=repo.path)
    assert plan.returncode == 0, plan.stderr
    assert (
        plan.stdout.splitlines()[0]
        == "Messages in plain Conventional Commits (only 1 earlier commit to learn a house style from)."
    )
    assert plan.stdout.splitlines()[2].split() == ["ID", "STATUS", "HUNKS", "TITLE"]
    commits = json.loads(run_segmint("plan", "--json", cwd=repo.path).stdout)["commits"]
    titles = [c["title"] for c in commits]
    assert "docs(readme): document Usage" in titles and "feat(calc): add sub" in titles

    dry = run_segmint("apply", commits[0]["id"], "--dry-run", cwd=repo.path)
    assert dry.returncode == 0 and "would commit" in dry.stdout
    assert repo.git("rev-list", "--count", "HEAD").strip() == "1"

    done = run_segmint("apply", "--all", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert repo.git("log", "--format=%s").splitlines()[:2] == [titles[1], titles[0]]
    assert repo.git("status", "--porcelain") == ""

    pr = run_segmint("pr", cwd=repo.path)
    assert pr.stdout.startswith("# ") and "## Commits" in pr.stdout

    undo = run_segmint("undo", cwd=repo.path)
    assert undo.returncode == 0 and undo.stdout.startswith(f"Undid op-1 ({commits[0]['id']}, {commits[1]['id']}")
    assert repo.git("status", "--porcelain").split() == ["M", "README.md", "M", "calc.py"], "both commits undone"


def test_a_plan_out_of_date_names_the_command_that_proposes_again(repo: Repo) -> None:
    dirty(repo)
    run_segmint("plan", cwd=repo.path)
    repo.write("calc.py", "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n")
    plan = run_segmint("plan", cwd=repo.path)
    assert plan.stdout.splitlines()[-1] == "Propose commits again with `segmint plan --new`."
    assert_clean_error(
        run_segmint("apply", "--all", cwd=repo.path),
        "calc.py changed since it was proposed; propose commits again with `segmint plan --new`",
    )
    assert repo.git("rev-list", "--count", "HEAD").strip() == "1"
    assert (
        run_segmint("plan", "--new", cwd=repo.path).stdout.splitlines()[-1]
        != "Propose commits again with `segmint plan --new`."
    )


def test_plans_whose_lines_were_all_committed_by_hand_are_planned_afresh(repo: Repo) -> None:
    dirty(repo)
    run_segmint("plan", cwd=repo.path)
    repo.commit("by hand")  # everything the plans held
    repo.write("notes.txt", "later\n")
    plan = run_segmint("plan", "--json", cwd=repo.path)
    commits = json.loads(plan.stdout)["commits"]
    assert [c["hunk_ids"] + c["change_ids"] for c in commits if c["status"] != "applied"] == [["change-1:1"]], commits
    assert "Propose commits again" not in run_segmint("plan", cwd=repo.path).stdout


def test_errors_are_one_sentence(repo: Repo) -> None:
    dirty(repo)
    run_segmint("plan", cwd=repo.path)
    plans = ", ".join(p.id for p in Session.open(str(repo.path)).plans)
    assert_clean_error(
        run_segmint("apply", "commit-99", cwd=repo.path), f"Unknown commit ID: commit-99; the commits are {plans}\n"
    )
    # a pasted id with a newline or a terminal escape in it is shown escaped, on one line
    pasted = run_segmint("apply", "commit-1\n\x1b[2J", cwd=repo.path)
    assert_clean_error(pasted, "Unknown commit ID: commit-1\\n\\x1b[2J")
    assert_clean_error(run_segmint("undo", cwd=repo.path), "Nothing to undo")
    assert_clean_error(run_segmint("apply", "--all", "--dry-run", cwd=repo.path), "--dry-run works on one commit")


def test_a_clean_tree_says_so(repo: Repo) -> None:
    repo.write("a.txt", "a\n")
    repo.commit()
    assert run_segmint("plan", cwd=repo.path).stdout == "No commits planned.\n"
    assert_clean_error(run_segmint("apply", "--all", cwd=repo.path), "The working tree is clean: nothing to commit")
    assert_clean_error(run_segmint("pr", cwd=repo.path), "No commits to describe: none are planned or applied")


def test_pr_prints_an_edited_draft_until_asked_to_draft_again(repo: Repo) -> None:
    from segmint_core.session.session import Session

    dirty(repo)
    first = run_segmint("pr", cwd=repo.path)
    assert first.returncode == 0, first.stderr
    Session.open(str(repo.path)).update_pr(title="Hand-written title")
    kept = run_segmint("pr", cwd=repo.path)
    assert kept.stdout.startswith("# Hand-written title\n") and "segmint pr --new" in kept.stdout
    assert json.loads(run_segmint("pr", "--json", cwd=repo.path).stdout)["edited"] is True
    again = run_segmint("pr", "--new", cwd=repo.path)
    assert again.stdout == first.stdout


def test_pr_summary_reads_a_capitalized_house_s_subjects_as_sentences(repo: Repo) -> None:
    # A house writing "Fix x" (click, black): its titles keep their capital, the summary's
    # "It also ..." does not, and each verb takes the third person.
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("README.md", "# Calc\n\nIt adds numbers.\n")
    repo.commit("Add calculator")
    for i in range(11):
        repo.write("NOTES.txt", f"note {i}\n")
        repo.commit(f"Update notes for release {i}")
    repo.write("calc.py", "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n")
    repo.write("README.md", "# Calc\n\nIt adds numbers, and subtracts them.\n")
    plan = run_segmint("plan", "--json", cwd=repo.path)
    titles = [c["title"] for c in json.loads(plan.stdout)["commits"]]
    assert len(titles) == 2 and all(t[:1].isupper() and ":" not in t for t in titles), titles
    pr = run_segmint("pr", cwd=repo.path)
    assert pr.returncode == 0, pr.stderr
    summary = pr.stdout.split("## Summary\n\n", 1)[1].split("\n", 1)[0]
    lead, also = summary.split(" It also ")
    assert lead[:1].isupper() and lead.split()[0].endswith("s"), summary
    assert also[:1].islower() and also.split()[0].endswith("s"), summary


def test_a_branch_lock_another_process_holds_is_named(repo: Repo) -> None:
    # A git process killed while moving the branch leaves refs/heads/main.lock behind.
    dirty(repo)
    run_segmint("plan", cwd=repo.path)
    lock = repo.path / ".git" / "refs" / "heads" / "main.lock"
    lock.touch()
    before = repo.snapshot()
    result = run_segmint("apply", "--all", cwd=repo.path)
    assert_clean_error(result, f"Another git process holds {lock}, so git commit could not move the branch")
    assert "nothing was committed; try again, or remove the file" in result.stderr
    assert repo.snapshot() == before
    lock.unlink()
    assert run_segmint("apply", "--all", cwd=repo.path).returncode == 0


@pytest.mark.parametrize(
    "program, config, said",
    [
        ("gpg", {"user.signingkey": "0xDEADBEEF"}, "error: gpg failed to sign the data"),
        ("ssh-keygen", {"gpg.format": "ssh", "user.signingkey": "/nonexistent/key"}, "error: Couldn't load public key"),
    ],
)
def test_commit_signing_without_a_key_says_so(repo: Repo, tmp_path, program: str, config: dict, said: str) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    dirty(repo)
    repo.git("config", "commit.gpgsign", "true")
    for key, value in config.items():
        repo.git("config", key, value)
    run_segmint("plan", cwd=repo.path)
    before = repo.snapshot()
    (tmp_path / "gnupg").mkdir(mode=0o700)
    result = run_segmint("apply", "--all", cwd=repo.path, env={"GNUPGHOME": str(tmp_path / "gnupg")})
    assert_clean_error(
        result, f"git commit could not sign the commit (commit.gpgsign is on), so nothing was committed: {said}"
    )
    assert repo.snapshot() == before


def test_applying_an_applied_plan_again_says_so_and_claims_no_commit(repo: Repo) -> None:
    dirty(repo)
    commits = json.loads(run_segmint("plan", "--json", cwd=repo.path).stdout)["commits"]
    first = run_segmint("apply", commits[0]["id"], cwd=repo.path)
    assert first.returncode == 0, first.stderr
    sha = repo.head()
    again = run_segmint("apply", commits[0]["id"], cwd=repo.path)
    assert_clean_error(again, f"segmint: {commits[0]['id']} is already applied as {sha[:7]}\n")
    assert again.stdout == ""
    assert repo.head() == sha


def test_a_conflicted_file_is_refused_in_one_line_saying_what_to_do(repo: Repo) -> None:
    # `git stash pop` onto a changed line leaves the file conflicted, with no merge under way.
    name = "con\x1bflict.txt"  # a terminal escape: shown escaped
    repo.write(name, "one\n")
    repo.commit("base")
    repo.write(name, "stashed\n")
    repo.git("stash", "-q")
    repo.write(name, "committed\n")
    repo.commit("change")
    repo.git("stash", "pop", check=False)
    commits = json.loads(run_segmint("plan", "--json", cwd=repo.path).stdout)["commits"]
    before = repo.snapshot()
    result = run_segmint("apply", commits[0]["id"], cwd=repo.path)
    assert_clean_error(
        result,
        "Cannot commit while the index holds unmerged paths (con\\x1bflict.txt); resolve the "
        "conflicts and stage the result (git add) first",
    )
    assert repo.snapshot() == before


def test_a_hook_whose_git_command_finds_a_lock_is_named_as_the_hook_s_failure(repo: Repo) -> None:
    # The hook's git works on the real index, whose lock Segmint holds while it commits.
    dirty(repo)
    run_segmint("plan", cwd=repo.path)
    hook = repo.path / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nGIT_INDEX_FILE=.git/index git update-index --refresh\n")
    hook.chmod(0o755)
    result = run_segmint("apply", "--all", cwd=repo.path)
    assert_clean_error(result, "git commit refused the commit (a hook or signing failed)")
    assert "could not move the branch" not in result.stderr


def test_lines_added_to_a_planned_file_after_planning_are_left_and_named(repo: Repo) -> None:
    """Staleness is per hunk: the plan's own lines are committed, the later ones stay in the work
    tree, and apply says which group holds them."""
    base = "".join(f"line {n}\n" for n in range(1, 41))
    repo.write("app.py", base)
    repo.commit("base")
    planned = base.replace("line 3\n", "line three\n")
    repo.write("app.py", planned)
    assert run_segmint("plan", cwd=repo.path).returncode == 0
    repo.write("app.py", planned.replace("line 36\n", "line thirty-six\n"))  # after planning
    applied = run_segmint("apply", "--all", cwd=repo.path)
    assert applied.returncode == 0, applied.stderr
    left = [line for line in applied.stdout.splitlines() if line.startswith("Not committed: ")]
    assert left == [
        "Not committed: group-2 (1 change in app.py) is not planned, so its lines stay uncommitted in the work tree."
    ]
    assert repo.git("show", "HEAD:app.py") == planned
    assert [
        line for line in repo.git("diff", "-U0").splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ] == ["-line 36", "+line thirty-six"]


def test_plan_says_which_groups_it_merged_for_titles_alike(repo: Repo) -> None:
    readme_edited(repo)
    assert run_segmint("group", cwd=repo.path).stdout.count("Docs: update README.md") == 2

    plan = run_segmint("plan", cwd=repo.path)

    assert plan.returncode == 0, plan.stderr
    lines = plan.stdout.splitlines()
    assert lines[3].startswith("commit-1  proposed      2  ") and len(lines) == 6, plan.stdout
    assert lines[5] == f"Segmint merged group-1, group-2 into group-1: their commits said “{lines[3].split('  ')[-1]}”."
    assert "merged" not in run_segmint("plan", cwd=repo.path).stdout, "said once, when it merged"
