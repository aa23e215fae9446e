"""``segmint changes`` as a user runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.support.cli import CliResult, assert_clean_error, run_segmint
from tests.support.repo import Repo


def make_changes(repo: Repo) -> None:
    repo.write("app.py", "def main():\n    return 1\n")
    repo.write("README.md", "# app\n")
    repo.commit()
    repo.write("app.py", "def main():\n    return 2\n")
    repo.write("notes.txt", "todo\n")


def test_table_lists_each_file(repo: Repo) -> None:
    make_changes(repo)
    result = run_segmint("changes", cwd=repo.path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["ID", "STATUS", "HUNKS", "+", "-", "PATH"]
    assert "change-1" in lines[1] and "app.py" in lines[1]
    assert "notes.txt (untracked)" in lines[2]
    assert lines[-1] == "2 files, 2 hunks"


def test_json_from_another_directory_with_repo_flag(repo: Repo, tmp_path) -> None:
    make_changes(repo)
    result = run_segmint("changes", "--json", "--repo", str(repo.path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [c["id"] for c in data["changes"]] == ["change-1", "change-2"]
    assert data["changes"][0]["hunks"][0]["lines"] == [" def main():", "-    return 1", "+    return 2"]
    again = run_segmint("--repo", str(repo.path), "changes", "--json", cwd=tmp_path)
    assert again.stdout == result.stdout


def test_clean_repository(repo: Repo) -> None:
    repo.write("a", "a\n")
    repo.commit()
    result = run_segmint("changes", cwd=repo.path)
    assert result.stdout == "No uncommitted changes.\n"
    assert json.loads(run_segmint("changes", "--json", cwd=repo.path).stdout) == {"changes": []}


def test_not_a_repository(tmp_path) -> None:
    assert_clean_error(run_segmint("changes", cwd=tmp_path), "Not a git repository")


def test_path_that_does_not_exist(tmp_path) -> None:
    assert_clean_error(run_segmint("changes", "--repo", str(tmp_path / "nope")), "Path does not exist")


def test_git_missing(repo: Repo, tmp_path) -> None:
    bare_path = tmp_path / "bin"
    bare_path.mkdir()
    (bare_path / "python").symlink_to(sys.executable)
    assert shutil.which("git", path=str(bare_path)) is None
    result = run_segmint("changes", cwd=repo.path, env={"PATH": str(bare_path)})
    assert_clean_error(result, "git is not installed")


@pytest.mark.parametrize("command", ["changes", "group"])
def test_output_is_complete_and_a_reader_may_stop_early(repo: Repo, command: str) -> None:
    # `segmint changes` and `segmint group` end without the interpreter's teardown: their
    # output must still be flushed whole, and a reader closing the pipe is no error.
    for n in range(40):
        repo.write(f"f{n}.py", "x = 1\n" * 200)
    repo.commit()
    for n in range(40):
        repo.write(f"f{n}.py", "x = 2\n" * 200)
    offline = {"SEGMINT_CHAT_MODEL": "", "SEGMINT_EMBEDDINGS": ""}
    full = run_segmint(command, "--json", cwd=repo.path, env=offline)
    assert full.returncode == 0, full.stderr
    assert len(json.loads(full.stdout)["changes"]) == 40
    script = f"{sys.executable} -m segmint {command} --json | head -c 100 > /dev/null; echo ${{PIPESTATUS[0]}}"
    early = subprocess.run(
        ["bash", "-c", script],
        cwd=repo.path,
        env={**os.environ, **offline},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert early.stdout.strip() == "0", early
    assert early.stderr == ""


def test_a_full_disk_is_one_sentence_not_an_internal_error(repo: Repo) -> None:
    make_changes(repo)
    script = f"{sys.executable} -m segmint changes --json > /dev/full"
    full = subprocess.run(["bash", "-c", script], cwd=repo.path, capture_output=True, text=True, timeout=60)
    assert full.returncode == 1
    assert full.stderr == "segmint: No space left on device\n"


def test_a_bare_repository_is_named_as_one(tmp_path) -> None:
    subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "bare.git")], check=True)
    result = run_segmint("changes", "--repo", str(tmp_path / "bare.git"), cwd=tmp_path)
    assert_clean_error(result, "bare.git has no working tree (a bare repository, or inside .git)")


def test_an_unknown_option_is_named_with_the_command_s_usage(repo: Repo) -> None:
    result = run_segmint("changes", "--frobnicate", cwd=repo.path)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: segmint changes")
    assert "segmint changes: error: unrecognized arguments: --frobnicate" in result.stderr


def test_a_current_directory_that_was_deleted_is_named(tmp_path) -> None:
    gone = tmp_path / "gone"
    for args in (["changes"], ["plan"], ["--repo", "relative", "changes"]):
        gone.mkdir()
        proc = subprocess.run(
            [
                "sh",
                "-c",
                'cd "$1" && rmdir "$1" && shift && exec "$@"',
                "sh",
                str(gone),
                sys.executable,
                "-m",
                "segmint",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert_clean_error(
            CliResult(proc.returncode, proc.stdout, proc.stderr), "The current directory no longer exists"
        )


def test_an_empty_path_option_is_refused_not_taken_as_the_current_folder(repo: Repo, tmp_path) -> None:
    repo.write("a.py", "x = 1\n")  # a repository in the current folder, which an empty --repo must not reach
    for args in (
        ("changes", "--repo", ""),
        ("--repo", "", "apply", "--all"),
        ("mcp", "--allow-root", ""),
        ("skill", "--install", "--path", ""),
    ):
        result = run_segmint(*args, cwd=repo.path)
        assert result.returncode == 2, (args, result)
        assert "expected a path, not an empty string" in result.stderr and "Traceback" not in result.stderr
    assert not (repo.path / "segmint").exists() and not (repo.path / ".git" / "segmint").exists()
