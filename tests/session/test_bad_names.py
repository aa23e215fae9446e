"""Bytes that are not UTF-8 in moved lines, and newlines or tabs in file names: planned,
saved, printed, sent over MCP and committed, always shown escaped, never a crash."""

from __future__ import annotations

import json

from segmint_core.session.session import Session
from segmint_core.wording import readable, shown
from tests.mcp.process import McpProcess
from tests.support.cli import run_segmint
from tests.support.repo import Repo

CAFE = b'def caf\xe9():\n    return "caf\xe9"\n'  # Latin-1, not UTF-8


def moved_latin1(repo: Repo) -> Repo:
    """A function whose lines are not UTF-8, moved from one file to another."""
    repo.write("m.py", CAFE + b"\n\ndef b():\n    return 2\n")
    repo.write("n.py", b"def c():\n    return 3\n")
    repo.commit("base")
    repo.write("m.py", b"def b():\n    return 2\n")
    repo.write("n.py", b"def c():\n    return 3\n\n\n" + CAFE)
    return repo


def segmint(repo: Repo, *args: str):
    return run_segmint(*args, "--repo", str(repo.path), env={"SEGMINT_CHAT_MODEL": "", "SEGMINT_EMBEDDINGS": ""})


def test_shown_and_readable_escape_what_a_terminal_or_json_cannot_take() -> None:
    assert shown("a\nb\tc\rd\x1be\x7f") == "a\\nb\\tc\\rd\\x1be\\x7f"
    assert shown(b"caf\xe9".decode("utf-8", "surrogateescape")) == "caf\\xe9"
    assert shown("plain café/path.py") == "plain café/path.py"
    assert readable("two\nlines \udce9") == "two\nlines \\xe9"


def test_non_utf8_moved_lines_plan_save_print_and_commit(repo: Repo) -> None:
    moved_latin1(repo)
    plan = segmint(repo, "plan")
    assert plan.returncode == 0, plan.stderr
    grouped = segmint(repo, "group")
    assert grouped.returncode == 0 and "\\xe9" in grouped.stdout, grouped.stderr
    as_json = segmint(repo, "plan", "--json")
    assert as_json.returncode == 0, as_json.stderr
    commits = json.loads(as_json.stdout)["commits"]
    reopened = Session.open(str(repo.path))  # the session saved and read back
    assert [p.to_dict() for p in reopened.plans] == commits
    done = segmint(repo, "apply", "--all", "--json")
    assert done.returncode == 0, done.stderr
    assert repo.git("status", "--porcelain") == ""
    assert repo.git_bytes("show", "HEAD:n.py").endswith(CAFE), "the bytes themselves are committed"


def test_non_utf8_moved_lines_over_mcp(repo: Repo) -> None:
    moved_latin1(repo)
    with McpProcess(cwd=repo.path) as server:
        server.initialize()
        grouped = server.call(2, "group_changes")
        assert grouped["isError"] is False, grouped
        proposed = server.call(3, "propose_commits")
        assert proposed["isError"] is False, proposed
        assert proposed["structuredContent"]["commits"]
        state = server.call(4, "get_session")
        assert any("\\xe9" in r for g in state["structuredContent"]["groups"] for r in g["reasons"])
        assert server.close() == 0
        server.assert_pure_json_rpc()


def test_a_newline_or_tab_in_a_file_name_is_escaped_wherever_it_is_shown(repo: Repo) -> None:
    repo.write("a\nb.txt", "one\n")
    repo.write("tab\tname.py", "x = 1\n")
    repo.commit("base")
    repo.write("a\nb.txt", "one\ntwo\n")
    repo.write("tab\tname.py", "x = 2\n")
    session = Session.open(str(repo.path))
    session.regroup()
    for change in session.changes:
        session.move_hunks([change.id], new_group=True)

    changes = segmint(repo, "changes").stdout
    rows = [line for line in changes.splitlines() if line.startswith("change-")]
    assert len(rows) == 2 and rows[0].endswith("  a\\nb.txt") and rows[1].endswith("  tab\\tname.py"), changes
    assert "\t" not in changes
    table = segmint(repo, "plan").stdout
    rows = [line for line in table.splitlines() if line.startswith("commit-")]
    assert len(rows) == 2 and any("a\\nb.txt" in r for r in rows) and any("tab\\tname.py" in r for r in rows)
    assert "\t" not in table
    listed = segmint(repo, "group").stdout
    assert "a\\nb.txt" in listed and "tab\\tname.py" in listed and "\t" not in listed
    pr = segmint(repo, "pr").stdout
    assert "a\\nb.txt" in pr and "tab\\tname.py" in pr and "\t" not in pr, pr  # in the commits' titles
    applied = segmint(repo, "apply", "--all")
    assert applied.returncode == 0, applied.stderr
    assert "  a\\nb.txt (+1 -0)" in applied.stdout and "  tab\\tname.py (+1 -1)" in applied.stdout
    subjects = repo.git("log", "--format=%s%x00", "-n", "2").split("\0")[:2]
    assert all("\n" not in s.strip("\n") and "\t" not in s for s in subjects), subjects
    assert repo.git("status", "--porcelain") == ""


def test_a_file_name_that_is_not_utf8_is_shown_as_its_bytes_in_messages_and_the_pr(repo: Repo) -> None:
    repo.write("a.txt", "a\n")
    repo.commit("base")
    repo.write(b"n\xe9w.txt".decode("utf-8", "surrogateescape"), "new\n")
    session = Session.open(str(repo.path))
    (plan,) = session.propose_commits()
    assert plan.title == "feat: add n\\xe9w.txt", plan.title
    assert "\\udc" not in plan.description
    pr = segmint(repo, "pr")
    assert pr.returncode == 0 and "n\\xe9w.txt" in pr.stdout and "\\udc" not in pr.stdout, pr
