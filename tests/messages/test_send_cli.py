"""``segmint send`` as lazygit or a shell alias runs it."""

from __future__ import annotations

from pathlib import Path

from segmint_core.messages import MessageQueue
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
    if queued(repo)[0].time == queued(repo)[-1].time:   # both within one second (almost always)
        assert len(queued(repo)) == 1 and second.stdout == "Already waiting for the agent: a.py\n"


def test_bad_input_is_one_clean_sentence(repo: Repo, tmp_path: Path) -> None:
    assert_clean_error(run_segmint("send", "--file", "/etc/hosts", "--comment", "x", cwd=repo.path),
                       "is outside the repository")
    assert_clean_error(run_segmint("send", "--file", "a.py", "--comment", " ", cwd=repo.path),
                       "A review comment cannot be empty")
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    assert_clean_error(run_segmint("send", "--file", "a.py", "--comment", "x", cwd=outside), "Not a git repository")
    bad_line = run_segmint("send", "--file", "a.py", "--line", "0", "--comment", "x", cwd=repo.path)
    assert bad_line.returncode == 2 and "a line number must be a positive whole number" in bad_line.stderr
    assert queued(repo) == []


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
    (repo.path / "old.py").unlink()   # a deletion the person comments on: git still knows the file
    deleted = run_segmint("send", "--file", "old.py", "--comment", "Keep this file", cwd=repo.path)
    assert (deleted.returncode, deleted.stdout) == (0, "Sent to the agent: old.py (1 waiting)\n")
    repo.git("rm", "-q", "--cached", "src/app.py")
    (repo.path / "src" / "app.py").unlink()
    gone = run_segmint("send", "--file", "src/app.py", "--comment", "Why remove it?", cwd=repo.path)
    assert gone.returncode == 0, gone.stderr   # in HEAD still
    untracked = run_segmint("send", "--file", "src", "--comment", "A folder", cwd=repo.path)
    assert untracked.returncode == 0, untracked.stderr
    assert [m.file for m in queued(repo)] == ["old.py", "src/app.py", "src"]
