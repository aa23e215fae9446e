"""``segmint trajectory watch`` as a real process."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo
from tests.trajectory.support import WAIT, shadow_subjects


class Watch:
    """A running ``segmint trajectory watch`` whose stderr lines can be awaited."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "segmint", "trajectory", "watch", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, fragment: str) -> str:
        while True:
            try:
                line = self.lines.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"no {fragment!r} on stderr; saw {self.seen}") from None
            self.seen.append(line)
            if fragment in line:
                return line

    def finish(self, sig: int) -> tuple[int, str]:
        self.proc.send_signal(sig)
        stdout, _ = self.proc.communicate(timeout=WAIT)
        return self.proc.returncode, stdout


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_watch_records_saves_until_stopped(repo: Repo, sig: int) -> None:
    repo.write("app.py", "v1\n")
    repo.commit()
    watch = Watch("--repo", str(repo.path), "--debounce", "0.1", "--intent", "From the CLI")
    watch.wait_for("Ctrl-C to stop")
    repo.write("app.py", "v2\n")
    line = watch.wait_for("[AUTO-TRJ]")
    assert line.startswith("segmint trajectory: ") and "From the CLI - app.py (+1 -1)" in line
    returncode, stdout = watch.finish(sig)
    assert (returncode, stdout) == (0, "")
    assert shadow_subjects(repo)[-1].endswith(" - From the CLI - app.py (+1 -1)")


def test_watch_is_listed_in_help() -> None:
    result = run_segmint("--help")
    assert "trajectory" in result.stdout
    result = run_segmint("trajectory", "watch", "--help")
    assert result.returncode == 0 and "--debounce" in result.stdout


def test_watch_refuses_a_bad_debounce(repo: Repo) -> None:
    for bad, shown in (("0", "0.0"), ("inf", "inf"), ("nan", "nan"), ("1e308", "1e+308")):
        result = run_segmint("trajectory", "watch", "--repo", str(repo.path), "--debounce", bad)
        assert_clean_error(result, f"--debounce must be a positive number of seconds up to 3600, got {shown}.")


def test_watch_refuses_a_folder_outside_git(tmp_path: Path) -> None:
    result = run_segmint("trajectory", "watch", "--repo", str(tmp_path))
    assert_clean_error(result, "Not a git repository")


def test_trajectory_needs_an_action(repo: Repo) -> None:
    result = run_segmint("trajectory", cwd=repo.path)
    assert result.returncode == 2 and "ACTION" in result.stderr
    assert not os.path.exists(repo.path / ".trajectory")


def test_watch_records_saves_under_the_task_said_in_another_shell(repo: Repo) -> None:
    repo.write("app.py", "v1\n")
    repo.commit()
    watch = Watch("--repo", str(repo.path), "--debounce", "0.1")
    watch.wait_for("Ctrl-C to stop")
    assert run_segmint("intent", "Bump the version", cwd=repo.path).returncode == 0
    watch.wait_for("now recording under: Bump the version")
    repo.write("app.py", "v2\n")
    watch.wait_for("[AUTO-TRJ]")
    assert run_segmint("intent", "--done", cwd=repo.path).returncode == 0
    watch.wait_for("now recording under: (no intent)")
    assert watch.finish(signal.SIGTERM) == (0, "")
    assert shadow_subjects(repo)[-1].endswith(" - Bump the version - app.py (+1 -1)")
