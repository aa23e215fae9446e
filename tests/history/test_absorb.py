"""``segmint absorb``: fixes folded into the unpushed commits they fix, the rest planned as new commits."""

from __future__ import annotations

import json

import pytest

from segmint_core.session.session import Session
from tests.support.cli import run_segmint
from tests.support.repo import Repo

BASE = "".join(f"line {n}\n" for n in range(1, 21))


def commit_as(repo: Repo, message: str, who: str, when: str) -> str:
    repo.git("add", "-A")
    repo.git(
        "commit",
        "-q",
        "-m",
        message,
        env={"GIT_AUTHOR_NAME": who, "GIT_AUTHOR_EMAIL": f"{who}@example.invalid", "GIT_AUTHOR_DATE": when},
    )
    return repo.head()


def stack(repo: Repo) -> dict[str, str]:
    """A pushed base, then three unpushed commits, each editing lines of its own; and a dirty tree:
    a fix for the first, a fix for the third, a line touching lines of two commits, a new file."""
    repo.write("app.py", BASE)
    repo.write("notes.txt", "notes\n")
    base = commit_as(repo, "base", "Ann", "2025-01-01T10:00:00+00:00")
    repo.git("update-ref", "refs/remotes/origin/main", base)  # pushed
    text = BASE.replace("line 3\n", "parse = 3\n")
    repo.write("app.py", text)
    first = commit_as(repo, "feat: parse", "Bob", "2025-01-02T10:00:00+00:00")
    text = text.replace("line 10\n", "render = 10\n")
    repo.write("app.py", text)
    second = commit_as(repo, "feat: render", "Cid", "2025-01-03T10:00:00+00:00")
    text = text.replace("line 17\n", "save = 17\nsave_more = 17\n")
    repo.write("app.py", text)
    third = commit_as(repo, "feat: save", "Dee", "2025-01-04T10:00:00+00:00")
    fixed = (
        text.replace("parse = 3\n", "parse = 33\n")
        .replace("save_more = 17\n", "save_more = 1717\n")
        .replace("line 1\n", "line one\n")
    )
    repo.write("app.py", fixed)
    repo.write("notes.txt", "notes\nmore notes\n")
    return {"base": base, "first": first, "second": second, "third": third, "fixed": fixed}


def test_dry_run_says_where_each_hunk_goes_and_why(repo: Repo) -> None:
    made = stack(repo)
    out = run_segmint("absorb", "--dry-run", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(f"absorb into {made['first'][:7]} 'feat: parse'" in line and "app.py" in line for line in lines)
    assert any(f"absorb into {made['third'][:7]} 'feat: save'" in line for line in lines)
    assert any(
        "stays for a new commit: no commit in range wrote the lines it changes" in line and "app.py" in line
        for line in lines
    ), "line 1 was written by the pushed base"
    assert any("notes.txt" in line and "stays" in line for line in lines)
    placements = json.loads(run_segmint("absorb", "--dry-run", "--json", cwd=repo.path).stdout)["placements"]
    assert sorted(p["target"] for p in placements if p["target"]) == sorted([made["first"], made["third"]])
    assert repo.head() == made["third"], "a dry run changes nothing"


def test_a_fix_conflicting_with_a_later_commit_stays(repo: Repo) -> None:
    stack(repo)
    repo.git("checkout", "--", "app.py")
    repo.write("app.py", repo.read("app.py").decode().replace("line 4\n", "line four\n"))
    repo.git("commit", "-qam", "touch next to parse")  # the line right after parse = 3
    repo.write("app.py", repo.read("app.py").decode().replace("parse = 3\n", "parse = 33\n"))
    out = run_segmint("absorb", "--dry-run", cwd=repo.path)
    assert "stays for a new commit: it conflicts with a later commit" in out.stdout, out.stdout
    assert "'touch next to parse'" in out.stdout


def test_apply_all_folds_the_fixes_and_commits_the_rest_then_one_undo_takes_it_all_back(repo: Repo) -> None:
    made = stack(repo)
    before = {
        "head": repo.head(),
        "index": repo.git("ls-files", "-s"),
        "files": repo.snapshot()["files"],
        "status": repo.git("status", "--porcelain"),
    }
    session = Session.open(str(repo.path))
    plan = session.absorb()
    folds = [p for p in plan.plans if p.absorb_into]
    assert [p.title for p in folds] == [
        f"absorb into {made['first'][:7]} 'feat: parse'",
        f"absorb into {made['third'][:7]} 'feat: save'",
    ]
    assert plan.plans[:2] == folds, "the folds come first"
    assert [p for p in plan.plans if not p.absorb_into], "the rest is planned as new commits"

    outcomes = session.apply_all()
    assert repo.snapshot()["files"] == before["files"], "no work-tree byte changed"
    assert repo.git("status", "--porcelain") == "", "everything is committed or folded in"
    log = repo.git("log", "--format=%s|%an|%aI", f"{made['base']}..HEAD").splitlines()
    new = len(outcomes) - 2
    assert [row.split("|")[0] for row in log[new:]] == ["feat: save", "feat: render", "feat: parse"]
    assert [row.split("|", 1)[1] for row in log[new:]] == [
        "Dee|2025-01-04T10:00:00+00:00",
        "Cid|2025-01-03T10:00:00+00:00",
        "Bob|2025-01-02T10:00:00+00:00",
    ]
    parse = f"HEAD~{new + 2}"
    assert "parse = 33" in repo.git("show", f"{parse}:app.py") and "save_more = 1717" not in repo.git(
        "show", f"{parse}:app.py"
    ), "the parse fix is in the parse commit, the save fix is not"
    assert repo.git("diff", f"{parse}~1", parse, "--stat").strip().startswith("app.py")
    assert "save_more = 1717" in repo.git("show", f"HEAD~{new}:app.py")
    assert repo.git("rev-parse", f"{parse}~1").strip() == made["base"], "the pushed commit is kept"
    [op] = session.operations()
    assert op.kind == "absorb" and op.head_before == made["third"]

    session.undo()
    assert repo.head() == before["head"] and repo.git("ls-files", "-s") == before["index"]
    assert repo.snapshot()["files"] == before["files"] and repo.git("status", "--porcelain") == before["status"]


def test_a_pushed_commit_is_never_a_target(repo: Repo) -> None:
    made = stack(repo)
    repo.git("update-ref", "refs/remotes/origin/main", made["second"])
    placements = Session.open(str(repo.path)).absorb_preview()
    assert [p.target.sha for p in placements if p.target] == [made["third"]]
    stays = [p.reason for p in placements if p.path == "app.py" and p.target is None]
    assert len(stays) == 2 and all(r.startswith("no commit in range wrote the lines it changes") for r in stays), (
        "line 1 (the base's) and the parse fix (the pushed first commit's) stay"
    )


@pytest.mark.parametrize("staged", [True])
def test_a_file_with_staged_and_unstaged_changes_stays(repo: Repo, staged: bool) -> None:
    made = stack(repo)
    repo.git("add", "app.py")
    repo.write("app.py", made["fixed"] + "tail\n")
    placements = Session.open(str(repo.path)).absorb_preview()
    assert all(p.target is None for p in placements if p.path == "app.py")
    assert any(p.reason == "its file has staged and unstaged changes" for p in placements)


def test_a_fix_for_a_commit_behind_a_merge_stays_and_the_merge_is_kept(repo: Repo) -> None:
    made = stack(repo)
    repo.git("stash", "-q", "--include-untracked")
    repo.git("checkout", "-q", "-b", "side", made["third"])
    repo.write("side.txt", "side\n")
    commit_as(repo, "side", "Eve", "2025-01-05T10:00:00+00:00")
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
    merged = repo.head()
    repo.git("stash", "pop", "-q")
    out = run_segmint("absorb", "--dry-run", cwd=repo.path)
    assert out.returncode == 0, out.stderr
    assert "absorb into" not in out.stdout, "no fold reaches past the merge"
    assert run_segmint("absorb", cwd=repo.path).returncode == 0
    assert run_segmint("apply", "--all", cwd=repo.path).returncode == 0
    assert repo.git("merge-base", "--is-ancestor", merged, "HEAD") == "", "the merge is kept"
    assert repo.git("rev-list", "--count", f"{merged}..HEAD").strip() != "0", "the fixes are new commits on top"
    assert repo.git("status", "--porcelain") == ""


def test_a_hook_that_changes_the_tree_stops_the_batch_and_one_undo_takes_back_the_folds(repo: Repo) -> None:
    made = stack(repo)
    hook = repo.path / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho sneaked >> notes.txt\ngit add notes.txt\n")
    hook.chmod(0o755)
    assert run_segmint("absorb", cwd=repo.path).returncode == 0
    out = run_segmint("apply", "--all", cwd=repo.path)
    assert out.returncode == 3 and "A hook changed what the commit holds" in out.stderr, out
    assert "Traceback" not in out.stderr
    assert repo.git("show", "HEAD:notes.txt") == "notes\n", "nothing the hook staged was committed"
    assert run_segmint("undo", cwd=repo.path).returncode == 0
    assert repo.head() == made["third"], "one undo takes back the folds made before the hook stopped it"


def test_the_pull_request_names_the_commits_fixes_were_folded_into(repo: Repo) -> None:
    made = stack(repo)
    assert run_segmint("absorb", cwd=repo.path).returncode == 0
    for step in ("proposed", "applied"):
        if step == "applied":
            assert run_segmint("apply", "--all", cwd=repo.path).returncode == 0
        draft = json.loads(run_segmint("pr", "--json", "--new", cwd=repo.path).stdout)
        body = draft["description"]
        assert "absorb into" not in draft["title"] + body, step
        on_branch = repo.git("log", "--format=%h %s", f"{made['base']}..HEAD").splitlines()[::-1]
        folded = [f"`{row.split()[0]}` {row.split(' ', 1)[1]}" for row in on_branch if row.endswith(("parse", "save"))]
        assert all(f"- {line}" in body for line in folded), (step, body)
        assert body.index("feat: parse") < body.index("feat: save"), "oldest first, as on the branch"


def test_after_a_fold_into_commits_this_session_made_each_is_named_once_as_the_branch_has_it(
    repo: Repo,
) -> None:
    repo.write("app.py", BASE)
    repo.write("README.md", "# App\n")
    base = commit_as(repo, "base", "Ann", "2025-01-01T10:00:00+00:00")
    repo.git("update-ref", "refs/remotes/origin/main", base)
    repo.write("app.py", BASE.replace("line 3\n", "parse = 3\n"))
    repo.write("README.md", "# App\n\nRun it.\n")
    assert run_segmint("plan", cwd=repo.path).returncode == 0
    assert run_segmint("apply", "--all", cwd=repo.path).returncode == 0
    made = repo.git("rev-list", f"{base}..HEAD").split()
    repo.write("app.py", BASE.replace("line 3\n", "parse = 33\n"))
    assert run_segmint("absorb", cwd=repo.path).returncode == 0
    assert run_segmint("apply", "--all", cwd=repo.path).returncode == 0
    body = json.loads(run_segmint("pr", "--json", "--new", cwd=repo.path).stdout)["description"]
    listed = [line for line in body.splitlines() if line.startswith("- `")]
    on_branch = repo.git("log", "--reverse", "--format=- `%h` %s", f"{base}..HEAD").splitlines()
    assert listed == on_branch, body
    assert not any(sha[:7] in body for sha in made if sha not in repo.git("rev-list", f"{base}..HEAD")), "no old sha"
