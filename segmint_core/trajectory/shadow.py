"""Git plumbing on the shadow repository ``.trajectory/``.

The shadow repository is a bare git dir whose work tree is the project. Every
command runs with ``GIT_DIR``, ``GIT_WORK_TREE`` and ``GIT_INDEX_FILE`` pointing
into ``.trajectory/``, so the project's own ``.git`` is never touched.

Only plumbing is used (``hash-object``, ``update-index --index-info``,
``write-tree``, ``commit-tree``, ``update-ref``): no hooks, no signing, no
clean/smudge filters or line-ending conversion, so a snapshot holds exactly the
bytes on disk. Commands that take a lock retry while another process holds it;
the ref update is compare-and-swap, so two recorders never overwrite each other.
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from segmint_core.errors import GitCommandError, SegmintError
from segmint_core.git import EMPTY_TREES, Git, GitResult, decode, encode, read_object_format, zero_oid_of
from segmint_core.trajectory.clock import git_date
from segmint_core.trajectory.errors import (
    DamagedShadowError,
    HeadMovedError,
    NotAShadowRepoError,
    ShadowLockedError,
)
from segmint_core.wire import to_wire

log = logging.getLogger(__name__)

SHADOW_DIR = ".trajectory"
BRANCH = "trajectory"
IDENTITY = {
    "GIT_AUTHOR_NAME": "Segmint Trajectory",
    "GIT_AUTHOR_EMAIL": "trajectory@segmint.invalid",
    "GIT_COMMITTER_NAME": "Segmint Trajectory",
    "GIT_COMMITTER_EMAIL": "trajectory@segmint.invalid",
}
PATHSPEC_BATCH = 500
# Waits between attempts while another process holds a lock (seconds).
LOCK_BACKOFF = (0.02, 0.05, 0.1, 0.2, 0.4)


@dataclass(frozen=True)
class FileStat:
    """One file's change between two shadow trees."""

    path: str
    status: str  # added, modified, deleted
    added: int
    removed: int
    binary: bool

    def to_dict(self) -> dict:
        return to_wire(self)


@dataclass(frozen=True)
class IndexEntry:
    """A line for ``update-index --index-info``; mode ``"0"`` removes the path (its oid is then
    the repository's "no object", filled in by ``update_index``)."""

    path: str
    mode: str
    oid: str

    @classmethod
    def removal(cls, path: str) -> "IndexEntry":
        return cls(path, "0", "")


def is_lock_failure(stderr: str) -> bool:
    return ".lock'" in stderr and "File exists" in stderr


class ShadowRepo:
    """The shadow repository of the project at ``root``."""

    def __init__(
        self,
        root: str,
        *,
        lock_timeout: float = 3.0,
        on_lock_wait: Callable[[str], None] | None = None,
    ) -> None:
        self.root = root
        self.git_dir = os.path.join(root, SHADOW_DIR)
        self.index_file = os.path.join(self.git_dir, "index")
        self.lock_timeout = lock_timeout
        self.on_lock_wait = on_lock_wait
        self._git = Git(root)

    # -- setting up ------------------------------------------------------------

    def exists(self) -> bool:
        return os.path.isfile(os.path.join(self.git_dir, "HEAD"))

    def init(self) -> bool:
        """Create the shadow repository if missing; True when it was created (by this call, not by
        another recorder starting at the same moment)."""
        if self.exists():
            return False
        with setting_up(self.root):
            return self._init()

    def _init(self) -> bool:
        if self.exists():
            return False
        if os.path.exists(self.git_dir) and (not os.path.isdir(self.git_dir) or os.listdir(self.git_dir)):
            raise NotAShadowRepoError(
                f"{self.git_dir} exists and is not a trajectory shadow repository; move it away to record."
            )
        self._git.run("init", "-q", "--bare", f"--initial-branch={BRANCH}", self.git_dir)
        for key, value in (
            ("core.bare", "false"),
            ("core.logAllRefUpdates", "true"),
            ("core.autocrlf", "false"),
            ("segmint.shadow", "true"),
        ):
            self.run("config", key, value)
        return True

    @cached_property
    def object_format(self) -> str:
        """The shadow repository's hash, ``sha1`` or ``sha256``: git's default when it was made
        (``GIT_DEFAULT_HASH``), whatever the project's."""
        return read_object_format(self.run("rev-parse", "--show-object-format").text)

    @property
    def zero_oid(self) -> str:
        return zero_oid_of(self.object_format)

    @property
    def empty_tree(self) -> str:
        return EMPTY_TREES[self.object_format]

    # -- running ---------------------------------------------------------------

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = {
            "GIT_DIR": self.git_dir,
            "GIT_WORK_TREE": self.root,
            "GIT_INDEX_FILE": self.index_file,
            "GIT_LITERAL_PATHSPECS": "1",
            **IDENTITY,
        }
        if extra:
            env.update(extra)
        return env

    def run(
        self,
        *args: str,
        input: bytes | None = None,
        env: dict[str, str] | None = None,
        check: bool = True,
        locking: bool = False,
    ) -> GitResult:
        """Run git on the shadow repository; ``locking`` commands retry on a held lock."""
        waits = iter(LOCK_BACKOFF)
        deadline = time.monotonic() + self.lock_timeout
        while True:
            result = self._git.run(*args, input=input, env=self.env(env), check=False)
            if result.returncode == 0 or not check:
                return result
            stderr = decode(result.stderr).strip()
            if not (locking and is_lock_failure(stderr)):
                raise self._error(args, result, stderr)
            if self.on_lock_wait is not None:
                self.on_lock_wait(stderr.splitlines()[0])
            if time.monotonic() >= deadline:
                raise ShadowLockedError(_stayed_locked(stderr, self.lock_timeout))
            time.sleep(next(waits, LOCK_BACKOFF[-1]))

    def _error(self, args: tuple[str, ...], result: GitResult, stderr: str) -> SegmintError:
        first = stderr.splitlines()[0] if stderr else f"exit status {result.returncode}"
        # "reference already exists": another recorder's first snapshot came first
        if args and args[0] == "update-ref" and ("but expected" in stderr or "reference already exists" in stderr):
            return HeadMovedError(f"The shadow HEAD moved during an update: {first}")
        return GitCommandError(
            f"git {args[0]} failed in the shadow repository: {first}", returncode=result.returncode, stderr=stderr
        )

    # -- reading ---------------------------------------------------------------

    def head(self) -> str | None:
        """The latest snapshot; None before the first. A HEAD git cannot read raises ``DamagedShadowError``
        (taken for "no snapshot yet", the next snapshot would fail on the ref with a sentence naming no cure)."""
        res = self.run("rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False)
        if res.returncode == 0:
            return res.text.strip() or None
        if res.returncode == 1 and not self._branch_written():
            return None
        again = self.run("rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False)  # (another recorder
        if again.returncode == 0:  # wrote it meanwhile)
            return again.text.strip() or None
        first = (decode(again.stderr).strip().splitlines() or ["its HEAD names no commit it holds"])[0]
        raise DamagedShadowError(f"{self.git_dir} is damaged ({first}): move it away to start a new timeline.")

    def _branch_written(self) -> bool:
        """Whether HEAD's branch has a ref on disk (loose or packed): a branch no snapshot made yet has none."""
        ref = self.run("symbolic-ref", "--quiet", "HEAD", check=False).text.strip()
        if not ref:
            return True  # a detached HEAD that does not resolve: damaged
        if os.path.lexists(os.path.join(self.git_dir, ref)):
            return True
        try:
            with open(os.path.join(self.git_dir, "packed-refs"), "rb") as f:
                return any(line.rstrip(b"\r\n").endswith(b" " + encode(ref)) for line in f)
        except OSError:
            return False

    def tree_of(self, commit: str | None) -> str:
        return self.run("rev-parse", f"{commit}^{{tree}}").text.strip() if commit else self.empty_tree

    def ls_files(self, pathspecs: list[str] | None) -> set[str]:
        """Paths in the shadow index (under ``pathspecs``; all when None)."""
        found: set[str] = set()
        for batch in _batches(pathspecs):
            out = self.run("ls-files", "-z", "--", *batch).stdout
            found.update(decode(p) for p in out.split(b"\0") if p)
        return found

    def diff_stats(self, old: str | None, new: str, paths: Iterable[str] = ()) -> list[FileStat]:
        """Per-file line counts between two trees or commits (None: the empty tree)."""
        out = self.run(
            "diff-tree",
            "-r",
            "-z",
            "--no-renames",
            "--raw",
            "--numstat",
            old or self.empty_tree,
            new,
            "--",
            *paths,
        ).stdout
        return parse_raw_numstat(out)

    def cat_blobs(self, specs: list[str]) -> dict[str, bytes | None]:
        """Contents of ``<rev>:<path>`` specs (None when missing), in one process."""
        if not specs:
            return {}
        found: dict[str, bytes | None] = {}
        for spec in [s for s in specs if "\n" in s]:  # --batch reads one spec a line: asked alone
            res = self.run("cat-file", "blob", spec, check=False)
            found[spec] = res.stdout if res.returncode == 0 else None
        batch = [s for s in specs if "\n" not in s]
        out = self.run("cat-file", "--batch", input=encode("".join(s + "\n" for s in batch))).stdout if batch else b""
        pos = 0
        for spec in batch:
            end = out.index(b"\n", pos)
            header = out[pos:end].split(b" ")
            pos = end + 1
            if len(header) == 3 and header[1] != b"missing":
                size = int(header[2])
                found[spec] = out[pos : pos + size]
                pos += size + 1
            else:
                found[spec] = None
        return found

    # -- writing ---------------------------------------------------------------

    def hash_paths(self, paths: list[str]) -> dict[str, str]:
        """Store the files' bytes as blobs (no filters); paths that vanished are left out."""
        plain = [p for p in paths if _plain_line(p)]
        oids: dict[str, str] = {}
        if plain:
            res = self.run(
                "hash-object", "-w", "--no-filters", "--stdin-paths", input=encode("\n".join(plain) + "\n"), check=False
            )
            lines = res.text.split()
            if res.returncode == 0 and len(lines) == len(plain):
                oids.update(zip(plain, lines))
                plain = []
        # A file deleted mid-batch fails the whole batch: hash the rest one by one.
        for path in plain + [p for p in paths if not _plain_line(p)]:
            res = self.run("hash-object", "-w", "--no-filters", "--", path, check=False)
            if res.returncode == 0:
                oids[path] = res.text.strip()
            else:
                log.debug("not recorded (vanished while hashing): %s", path)
        return oids

    def hash_bytes(self, data: bytes) -> str:
        return self.run("hash-object", "-w", "--no-filters", "--stdin", input=data).text.strip()

    def update_index(self, entries: list[IndexEntry]) -> None:
        if entries:
            data = b"".join(encode(f"{e.mode} {e.oid or self.zero_oid}\t{e.path}") + b"\0" for e in entries)
            self.run("update-index", "-z", "--index-info", input=data, locking=True)

    def write_tree(self) -> str:
        return self.run("write-tree", locking=True).text.strip()  # it writes the cache-tree back: a lock

    def commit_tree(self, tree: str, parent: str | None, message: str, when: datetime) -> str:
        date = git_date(when)
        args = ["commit-tree", "--no-gpg-sign", tree, *(["-p", parent] if parent else []), "-F", "-"]
        env = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
        return self.run(*args, input=encode(message), env=env).text.strip()

    def update_head(self, new: str, old: str | None, reason: str) -> None:
        """Point HEAD at ``new`` if it is still at ``old`` (None: no commit yet)."""
        self.run("update-ref", "-m", reason, "HEAD", new, old or self.zero_oid, locking=True)


@contextmanager
def setting_up(root: str) -> Iterator[None]:
    """An exclusive lock, between processes too, on setting up the project at ``root`` (creating
    ``.trajectory``, adding it to ``.git/info/exclude``): held on the project folder itself, which
    needs no file written and is there before anything is made."""
    fd = os.open(root, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _stayed_locked(stderr: str, timeout: float) -> str:
    """The sentence for a lock held past the retry budget: which file, and the cure when its holder is gone."""
    held = re.search(r"Unable to create '(.+\.lock)'", stderr)
    if held is None:
        return f"The shadow repository stayed locked: {stderr.splitlines()[0]}"
    return (
        f"The shadow repository stayed locked for {timeout:g} s by {held.group(1)}: if no other recorder of "
        "this project is running (one killed mid-write leaves it behind), remove that file."
    )


def _plain_line(path: str) -> bool:
    """Whether ``--stdin-paths`` reads ``path`` back as it is: it splits at a newline, drops a
    carriage return before it, and unquotes a line that starts with a double quote (``"a.txt"``
    would be read as ``a.txt``, another file's bytes)."""
    return "\n" not in path and not path.endswith("\r") and not path.startswith('"')


def parse_raw_numstat(out: bytes) -> list[FileStat]:
    """``diff-tree -z --raw --numstat`` output: raw records first, then numstat ones."""
    tokens = out.split(b"\0")
    status: dict[str, str] = {}
    counts: dict[str, tuple[int, int, bool]] = {}
    order: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.startswith(b":"):
            letter = token.rsplit(b" ", 1)[-1][:1]
            path = decode(tokens[i + 1])
            status[path] = {b"A": "added", b"D": "deleted"}.get(letter, "modified")
            order.append(path)
            i += 2
            continue
        if token:
            added, removed, path_b = token.split(b"\t", 2)
            binary = added == b"-"
            counts[decode(path_b)] = (0 if binary else int(added), 0 if binary else int(removed), binary)
        i += 1
    return [FileStat(p, status[p], *counts.get(p, (0, 0, False))) for p in order]


def _batches(pathspecs: list[str] | None) -> Iterable[list[str]]:
    if pathspecs is None:
        yield []
        return
    for start in range(0, len(pathspecs), PATHSPEC_BATCH):
        yield pathspecs[start : start + PATHSPEC_BATCH]
