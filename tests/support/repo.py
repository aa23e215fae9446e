"""Real temporary git repositories for tests: a thin, explicit helper."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.invalid",
    "GIT_COMMITTER_NAME": "Test Author",
    "GIT_COMMITTER_EMAIL": "author@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T12:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T12:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
}


class Repo:
    """A git repository in a temporary directory, driven by the real git."""

    def __init__(self, path: Path, *, init: bool = True) -> None:
        self.path = path
        if init:
            path.mkdir(parents=True, exist_ok=True)
            self.git("init", "-q", "-b", "main")
            self.git("config", "user.name", "Test Author")
            self.git("config", "user.email", "author@example.invalid")
            self.git("config", "commit.gpgsign", "false")
            self.git("config", "core.autocrlf", "false")

    def git(self, *args: str, input: bytes | None = None, check: bool = True, env: dict | None = None) -> str:
        return self.git_bytes(*args, input=input, check=check, env=env).decode("utf-8", "surrogateescape")

    def git_bytes(self, *args: str, input: bytes | None = None, check: bool = True, env: dict | None = None) -> bytes:
        full_env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_INDEX_FILE")}
        full_env.update(GIT_ENV)
        full_env.update(env or {})
        proc = subprocess.run(
            ["git", *args],
            cwd=self.path,
            input=input,
            capture_output=True,
            env=full_env,
        )
        if check and proc.returncode != 0:
            raise AssertionError(
                f"git {' '.join(args)} failed ({proc.returncode}): {proc.stderr.decode(errors='replace')}"
            )
        return proc.stdout

    def write(self, rel: str, content: str | bytes, *, mode: int | None = None) -> Path:
        path = self.path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8", "surrogateescape") if isinstance(content, str) else content
        path.write_bytes(data)
        if mode is not None:
            path.chmod(mode)
        return path

    def read(self, rel: str) -> bytes:
        return (self.path / rel).read_bytes()

    def delete(self, rel: str) -> None:
        (self.path / rel).unlink()

    def add(self, *paths: str) -> None:
        self.git("add", "--", *paths) if paths else self.git("add", "-A")

    def commit(self, message: str = "commit", *, all: bool = True) -> str:
        if all:
            self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()

    def stage_then_edit(self, rel: str, base: str, staged: str, work: str) -> None:
        """``rel`` committed as ``base``, ``staged`` in the index, ``work`` in the work tree."""
        self.write(rel, base)
        self.commit()
        self.write(rel, staged)
        self.add(rel)
        self.write(rel, work)

    def add_submodule(self, origin: Path, at: str) -> "Repo":
        """A submodule at ``at`` cloned from a new one-commit repository at ``origin``,
        committed here; its checkout, to commit in or edit."""
        sub = Repo(origin)
        sub.write("s.txt", "1\n")
        sub.commit("s1")
        self.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub.path), at)
        self.commit("add submodule")
        return Repo(self.path / at, init=False)

    def status(self) -> str:
        return self.git("status", "--porcelain=v1", "-z", "--untracked-files=all")

    def snapshot(self) -> dict[str, object]:
        """Everything a Segmint operation might touch, for before/after checks."""
        files: dict[str, bytes] = {}
        for p in sorted(self.path.rglob("*")):
            rel = p.relative_to(self.path).as_posix()
            if rel == ".git" or rel.startswith(".git/"):
                continue
            if p.is_symlink():
                files[rel] = b"-> " + os.readlink(p).encode()
            elif p.is_file():
                files[rel] = p.read_bytes()
        head = self.git("rev-parse", "--verify", "--quiet", "HEAD", check=False).strip()
        return {
            "files": files,
            "head": head,
            "index": self.git_bytes("ls-files", "--stage", "-z"),
            "refs": self.git("for-each-ref", "--format=%(refname) %(objectname)"),
        }
