"""A check killed half-way leaves the person's work tree, index and HEAD as they were, and no scratch tree
for long: removed on the way out (SIGTERM, Ctrl-C), else by the next check (SIGKILL)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.checking.conftest import scratch_left, state_of, user_before_definer
from tests.support.repo import Repo


def _start(repo: Repo, marker: Path) -> subprocess.Popen:
    command = f"touch {marker}; sleep 60"
    return subprocess.Popen(
        [sys.executable, "-m", "segmint", "--repo", str(repo.path), "check", "--command", command, "--jobs", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _wait_for(marker: Path) -> None:
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert time.monotonic() < deadline, "the check command never started"
        time.sleep(0.05)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_a_check_killed_half_way_changes_nothing_and_leaves_no_scratch_tree(
    repo: Repo, tmp_path: Path, how: signal.Signals
) -> None:
    user_before_definer(repo)
    repo.git("add", "pkg/core.py")  # something staged: the index must stay as it is, byte for byte
    before = state_of(repo)
    marker = tmp_path / "started"
    proc = _start(repo, marker)
    try:
        _wait_for(marker)
        assert scratch_left(repo), "the command runs in a scratch tree"
        proc.send_signal(how)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert state_of(repo) == before
    if how != signal.SIGKILL:
        assert proc.returncode == 130 and scratch_left(repo) == []
    done = subprocess.run(
        [sys.executable, "-m", "segmint", "--repo", str(repo.path), "check", "--command", "true"], capture_output=True
    )
    assert done.returncode == 0, done.stderr
    assert scratch_left(repo) == [] and state_of(repo) == before
    leftovers = [p.name for p in (repo.path / ".git" / "segmint" / "check").iterdir() if p.name != "results.json"]
    assert leftovers == []
