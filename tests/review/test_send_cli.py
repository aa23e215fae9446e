"""``segmint send`` as lazygit or a shell alias runs it."""

from __future__ import annotations

import os
from pathlib import Path

from segmint_core.review import MessageQueue
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo


def queued(repo: Repo) -> list:
    return MessageQueue(repo.path / ".git" / "segmint", str(repo.path)).peek()


def test_send_appends_to_the_queue_of_the_current_repository(repo: Repo) -> None:
    repo.write("src/app.py", "x = 1\n")
    result = run_segmint("send", "--file", "src/app.py", "--line", "1", "--comment", "Rename x", cwd=repo.path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Sent to the agent: src/app.py:1 (1 waiting)\n"
    [message] = queued(repo)
    assert (message.file, message.line, message.comment) == ("src/app.py", 1, "Rename x")
    assert message.project_root == str(repo.path.resolve())


def test_a_path_is_relative_to_the_current_directory(repo: Repo) -> None:
    repo.write("src/app.py", "x = 1\n")
    result = run_segmint("send", "--file", "app.py", "--comment", "From a subfolder", cwd=repo.path / "src")
    assert result.returncode == 0, result.stderr
    assert queued(repo)[0].file == "src/app.py" and queued(repo)[0].line is None


def test_the_same_comment_twice_in_a_second_is_sent_once(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    first = run_segmint("send", "--file", "a.py", "--comment", "same", cwd=repo.path)
    second = run_segmint("send", "--file", "a.py", "--comment", "same", cwd=repo.path)
    assert first.returncode == second.returncode == 0
    if queued(repo)[0].time == queued(repo)[-1].time:  # both within one second (almost always)
        assert len(queued(repo)) == 1 and second.stdout == "Already waiting for the agent: a.py\n"


def test_bad_input_is_one_clean_sentence(repo: Repo, tmp_path: Path) -> None:
    assert_clean_error(
        run_segmint("send", "--file", "/etc/hosts", "--comment", "x", cwd=repo.path), "is outside the repository"
    )
    assert_clean_error(
        run_segmint("send", "--file", "a.py", "--comment", " ", cwd=repo.path), "A review comment cannot be empty"
    )
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    assert_clean_error(run_segmint("send", "--file", "a.py", "--comment", "x", cwd=outside), "Not a git repository")
    bad_line = run_segmint("send", "--file", "a.py", "--line", "0", "--comment", "x", cwd=repo.path)
    assert bad_line.returncode == 2 and "a line number must be a positive whole number" in bad_line.stderr
    assert queued(repo) == []


def test_a_queue_that_cannot_be_written_is_one_sentence(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    (repo.path / ".git" / "segmint").write_text("not a folder\n")
    assert_clean_error(
        run_segmint("send", "--file", "a.py", "--comment", "x", cwd=repo.path),
        f"Cannot queue the comment in {repo.path / '.git' / 'segmint'}: File exists",
    )


def test_a_line_of_a_file_that_is_not_a_regular_file_is_refused_without_reading_it(repo: Repo) -> None:
    os.mkfifo(repo.path / "pipe")  # reading it would wait for a writer forever
    (repo.path / "zeros").symlink_to("/dev/zero")  # and this one never ends
    for name in ("pipe", "zeros"):
        result = run_segmint("send", "--file", name, "--line", "1", "--comment", "x", cwd=repo.path, timeout=30)
        assert_clean_error(result, f"{name} has no lines: there is no line 1.")


def test_a_file_git_does_not_know_and_not_on_disk_is_refused(repo: Repo) -> None:
    repo.write("src/app.py", "x = 1\n")
    repo.write("old.py", "y = 2\n")
    repo.write("staged.py", "z = 3\n")
    repo.commit("base")
    repo.git("add", "staged.py")
    for missing in ("src/ap.py", "src/app.py/x", "no/such/folder/file.py"):
        result = run_segmint("send", "--file", missing, "--comment", "typo", cwd=repo.path)
        assert_clean_error(result, f"{missing} is not in the work tree, the index or HEAD: check the path.")
    assert queued(repo) == []
    (repo.path / "old.py").unlink()  # a deletion the person comments on: git still knows the file
    deleted = run_segmint("send", "--file", "old.py", "--comment", "Keep this file", cwd=repo.path)
    assert (deleted.returncode, deleted.stdout) == (0, "Sent to the agent: old.py (1 waiting)\n")
    repo.git("rm", "-q", "--cached", "src/app.py")
    (repo.path / "src" / "app.py").unlink()
    gone = run_segmint("send", "--file", "src/app.py", "--comment", "Why remove it?", cwd=repo.path)
    assert gone.returncode == 0, gone.stderr  # in HEAD still
    untracked = run_segmint("send", "--file", "src", "--comment", "A folder", cwd=repo.path)
    assert untracked.returncode == 0, untracked.stderr
    assert [m.file for m in queued(repo)] == ["old.py", "src/app.py", "src"]


def test_a_line_past_the_end_of_the_file_is_refused(repo: Repo) -> None:
    repo.write("app.py", "a\nb\nc\n")
    repo.write("empty.py", "")
    repo.write("src/x.py", "x\n")
    repo.commit("base")
    for line, said in (
        ("4", "app.py has 3 lines: there is no line 4."),
        ("99999999999999999999", "app.py has 3 lines: there is no line 99999999999999999999."),
    ):
        assert_clean_error(
            run_segmint("send", "--file", "app.py", "--line", line, "--comment", "x", cwd=repo.path), said
        )
    assert_clean_error(
        run_segmint("send", "--file", "empty.py", "--line", "1", "--comment", "x", cwd=repo.path),
        "empty.py has no lines: there is no line 1.",
    )
    assert_clean_error(
        run_segmint("send", "--file", "src", "--line", "1", "--comment", "x", cwd=repo.path),
        "src is a folder: a comment on it cannot name a line.",
    )
    for bad in ("0", "-3", "two"):
        result = run_segmint("send", "--file", "app.py", "--line", bad, "--comment", "x", cwd=repo.path)
        assert result.returncode == 2 and "a line number must be a positive whole number" in result.stderr
    assert queued(repo) == []
    last = run_segmint("send", "--file", "app.py", "--line", "3", "--comment", "The last line", cwd=repo.path)
    assert last.returncode == 0, last.stderr


def test_a_removed_line_is_named_as_head_has_it(repo: Repo) -> None:
    repo.write("app.py", "a\nb\nc\nd\n")
    repo.commit("base")
    repo.write("app.py", "a\n")  # lines 2-4 removed in the work tree, still in HEAD (and the index)
    removed = run_segmint("send", "--file", "app.py", "--line", "4", "--comment", "Keep this", cwd=repo.path)
    assert removed.returncode == 0, removed.stderr
    repo.delete("app.py")
    deleted = run_segmint("send", "--file", "app.py", "--line", "2", "--comment", "And this", cwd=repo.path)
    assert deleted.returncode == 0, deleted.stderr
    assert_clean_error(
        run_segmint("send", "--file", "app.py", "--line", "5", "--comment", "x", cwd=repo.path),
        "app.py has 4 lines: there is no line 5.",
    )
    assert [m.line for m in queued(repo)] == [4, 2]
