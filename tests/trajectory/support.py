"""Helpers for the trajectory tests: a settable clock, the shadow's log, the state of ``.git``."""

from __future__ import annotations

import hashlib
import os
import subprocess
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

from tests.support.repo import Repo

WAIT = 30.0  # seconds: an upper bound on any wait for the recorder's own events; a loaded 2-core runner has needed more than 15
TZ = timezone(timedelta(hours=2))


class FakeClock:
    """A wall clock that only moves when told to."""

    def __init__(self, start: datetime = datetime(2026, 3, 14, 9, 30, 0, tzinfo=TZ)) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> datetime:
        with self._lock:
            self.now += timedelta(seconds=seconds)
            return self.now

    def set(self, moment: datetime) -> None:
        with self._lock:
            self.now = moment


def shadow_git(repo: Repo, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_DIR=str(repo.path / ".trajectory"), GIT_WORK_TREE=str(repo.path))
    proc = subprocess.run(["git", *args], cwd=repo.path, env=env, capture_output=True, check=True)
    return proc.stdout.decode("utf-8", "surrogateescape")


def shadow_subjects(repo: Repo) -> list[str]:
    """Shadow commit subjects, oldest first."""
    out = shadow_git(repo, "log", "--reverse", "--format=%s")
    return out.splitlines()


def shadow_file(repo: Repo, path: str, rev: str = "HEAD") -> bytes | None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_DIR=str(repo.path / ".trajectory"))
    proc = subprocess.run(["git", "cat-file", "blob", f"{rev}:{path}"], cwd=repo.path, env=env, capture_output=True)
    return proc.stdout if proc.returncode == 0 else None


def commits_touching(repo: Repo, path: str) -> list[str]:
    return shadow_git(repo, "log", "--format=%s", "--", path).splitlines()


def git_dir_state(repo: Repo) -> dict[str, str]:
    """Every file under the project's ``.git`` (refs, index, objects, logs...) by content hash."""
    state = {}
    git_dir = repo.path / ".git"
    for p in sorted(git_dir.rglob("*")):
        if p.is_file():
            state[p.relative_to(git_dir).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return state


def project(path: Path) -> Repo:
    """A small committed project: two source files and a .gitignore for build output."""
    repo = Repo(path)
    repo.write(".gitignore", "build/\n*.log\n")
    repo.write("app.py", "".join(f"line {n}\n" for n in range(1, 31)))
    repo.write("lib/util.py", "def helper():\n    return 1\n")
    repo.commit("initial")
    return repo
