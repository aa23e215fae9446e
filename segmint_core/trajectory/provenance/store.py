"""Where provenance is kept: ``<git dir>/segmint/provenance/``, never the work tree.

Three kinds of file, all written under one ``flock`` so concurrent hook
processes never interleave:

- ``events.jsonl``  append-only: intents begun and ended, sessions marked, edits snapshotted
- ``state.json``    small, replaced atomically: the current intent of each source/session,
                    the last snapshot of each path, the next intent number
- ``blobs/xx/...``  file contents by git blob id, zlib-compressed, written once

Only the standard library is imported: a hook process starts Python for every
edit, and the import time is most of its latency.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from segmint_core.locks import flock_within
from segmint_core.trajectory.errors import DamagedProvenanceError

STORE_DIR = ("segmint", "provenance")
LOCK_TIMEOUT = 5.0  # seconds another hook process may hold the lock
STATE_VERSION = 1


@dataclass
class State:
    """What the next event needs to know without reading the whole log."""

    next_intent: int = 1
    next_edit: int = 1
    current: dict[str, dict] = field(default_factory=dict)  # session key -> intent record
    last_blob: dict[str, str | None] = field(default_factory=dict)  # path -> blob id of its last snapshot

    def to_json(self) -> dict:
        return {
            "version": STATE_VERSION,
            "next_intent": self.next_intent,
            "next_edit": self.next_edit,
            "current": self.current,
            "last_blob": self.last_blob,
        }


def git_dir_of(repo_root: Path) -> Path:
    """The repository's own git dir (a linked worktree's ``.git`` is a file naming it), read without git."""
    dot_git = Path(repo_root) / ".git"
    if dot_git.is_dir():
        return dot_git
    try:
        text = dot_git.read_text(encoding="utf-8")
    except OSError as exc:
        raise DamagedProvenanceError(f"{repo_root} is not the top of a git work tree ({_trouble(exc)}).") from exc
    if not text.startswith("gitdir:"):
        raise DamagedProvenanceError(f"{dot_git} names no git dir, so provenance has nowhere to be kept.")
    target = Path(text[len("gitdir:") :].strip())
    return target if target.is_absolute() else (dot_git.parent / target).resolve()


class Store:
    """The provenance files of one work tree."""

    def __init__(self, repo_root: str | os.PathLike[str]) -> None:
        self.repo_root = Path(repo_root)
        self.git_dir = git_dir_of(self.repo_root)
        self.dir = self.git_dir.joinpath(*STORE_DIR)
        self.events_path = self.dir / "events.jsonl"
        self.state_path = self.dir / "state.json"
        self.blobs_dir = self.dir / "blobs"

    def exists(self) -> bool:
        return os.path.lexists(self.events_path)

    # -- the lock and the state ---------------------------------------------------

    @contextmanager
    def locked(self) -> Iterator[State]:
        """The state, under an exclusive lock between processes; written back when the block ends without error."""
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.dir / "lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise DamagedProvenanceError(f"Cannot open the provenance record {self.dir} ({_trouble(exc)}).") from exc
        try:
            self._acquire(fd)
            state = self.read_state()
            before = json.dumps(state.to_json(), sort_keys=True)
            yield state
            if json.dumps(state.to_json(), sort_keys=True) != before:
                self._write_state(state)
        finally:
            os.close(fd)  # closing releases the lock

    def _acquire(self, fd: int) -> None:
        if not flock_within(fd, LOCK_TIMEOUT, 0.005):
            raise DamagedProvenanceError(
                f"The provenance record {self.dir} stayed locked for {LOCK_TIMEOUT:g} s by another process."
            )

    def read_state(self) -> State:
        try:
            raw = self.state_path.read_bytes()
        except FileNotFoundError:
            return State()
        except OSError as exc:
            raise self._damaged(self.state_path, _trouble(exc)) from exc
        try:
            data = json.loads(raw)
            if data.get("version") != STATE_VERSION:
                raise ValueError(f"version {data.get('version')!r} is not {STATE_VERSION}")
            state = State(
                int(data["next_intent"]), int(data["next_edit"]), dict(data["current"]), dict(data["last_blob"])
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise self._damaged(self.state_path, str(exc) or type(exc).__name__) from exc
        if not all(isinstance(v, dict) and isinstance(v.get("id"), str) for v in state.current.values()):
            raise self._damaged(self.state_path, "a current intent is not an intent record")
        return state

    def _write_state(self, state: State) -> None:
        self._replace(self.state_path, json.dumps(state.to_json(), sort_keys=True).encode())

    def _damaged(self, path: Path, why: str) -> DamagedProvenanceError:
        return DamagedProvenanceError(
            f"The provenance record {path} is damaged ({why}): move {self.dir} away to start recording again."
        )

    # -- events -------------------------------------------------------------------

    def append(self, event: dict) -> None:
        """One event, one line; the caller holds the lock."""
        line = json.dumps(event, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogateescape") + b"\n"
        try:
            with open(self.events_path, "ab+") as f:
                if f.tell() > 0:  # after a line a killed process cut short, start a new one
                    f.seek(-1, os.SEEK_END)
                    if f.read(1) != b"\n":
                        line = b"\n" + line
                f.write(line)
        except OSError as exc:
            raise DamagedProvenanceError(
                f"Cannot append to the provenance record {self.events_path} ({_trouble(exc)})."
            ) from exc

    def events(self) -> list[dict]:
        """Every event, oldest first. A line cut short (a process killed mid-write) is skipped."""
        try:
            raw = self.events_path.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise self._damaged(self.events_path, _trouble(exc)) from exc
        found = []
        for line in raw.split(b"\n"):
            if not line.strip():
                continue
            try:
                event = json.loads(line.decode("utf-8", "surrogateescape"))
            except ValueError:
                continue
            if isinstance(event, dict) and isinstance(event.get("kind"), str):
                found.append(event)
        return found

    def events_size(self) -> int:
        try:
            return os.stat(self.events_path).st_size
        except OSError:
            return 0

    def compact(self, state: State, settled: Callable[[str], bool]) -> None:
        """Forget the snapshots of the paths ``settled`` says are done with (committed, unchanged now):
        their edits leave the log, their contents the blobs, their last snapshot the state. Intents,
        sessions and the snapshots of every other path stay as they were, in order. The caller holds
        the lock; the log is replaced atomically, so a reader sees it whole, before or after."""
        kept: list[dict] = []
        for event in self.events():
            files = event.get("files")
            if event["kind"] == "edit" and isinstance(files, dict):
                files = {path: oid for path, oid in files.items() if not settled(path)}
                if not files:
                    continue
                event = {**event, "files": files}
            kept.append(event)
        state.last_blob = {path: oid for path, oid in state.last_blob.items() if not settled(path)}
        lines = [json.dumps(e, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogateescape") for e in kept]
        self._replace(self.events_path, b"".join(line + b"\n" for line in lines))
        wanted = {oid for e in kept if e["kind"] == "edit" for oid in e["files"].values() if isinstance(oid, str)}
        wanted |= {oid for oid in state.last_blob.values() if oid}
        self._sweep_blobs(wanted)

    def _sweep_blobs(self, wanted: set[str]) -> None:
        try:
            folders = list(os.scandir(self.blobs_dir))
        except OSError:
            return
        for folder in folders:
            if not folder.is_dir():
                continue
            for entry in os.scandir(folder.path):
                if folder.name + entry.name not in wanted and not entry.name.startswith(".tmp-"):
                    _unlink(entry.path)

    # -- blobs --------------------------------------------------------------------

    def put_blob(self, data: bytes) -> str:
        oid = blob_id(data)
        path = self._blob_path(oid)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            self._replace(path, zlib.compress(data, 1))
        return oid

    def get_blob(self, oid: str) -> bytes | None:
        try:
            return zlib.decompress(self._blob_path(oid).read_bytes())
        except (OSError, zlib.error):
            return None

    def _blob_path(self, oid: str) -> Path:
        return self.blobs_dir / oid[:2] / oid[2:]

    def _replace(self, path: Path, data: bytes) -> None:
        try:
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.replace(tmp, path)
            except BaseException:
                _unlink(tmp)
                raise
        except OSError as exc:
            raise DamagedProvenanceError(f"Cannot write the provenance record {path} ({_trouble(exc)}).") from exc

    # -- the project's HEAD, read without git ---------------------------------------

    def project_head(self) -> str | None:
        """The commit HEAD names now (None: unborn, or refs this reader does not know, like reftable)."""
        try:
            head = (self.git_dir / "HEAD").read_text(encoding="utf-8").strip()
        except OSError:
            return None
        if not head.startswith("ref:"):
            return head or None
        ref = head[4:].strip()
        common = self._common_dir()
        for folder in (self.git_dir, common):
            try:
                return (folder / ref).read_text(encoding="utf-8").strip() or None
            except OSError:
                continue
        try:
            with open(common / "packed-refs", encoding="utf-8") as f:
                for line in f:
                    oid, _, name = line.strip().partition(" ")
                    if name == ref:
                        return oid
        except OSError:
            pass
        return None

    def _common_dir(self) -> Path:
        try:
            text = (self.git_dir / "commondir").read_text(encoding="utf-8").strip()
        except OSError:
            return self.git_dir
        return (self.git_dir / text).resolve()


def blob_id(data: bytes) -> str:
    """The id git gives these bytes as a blob (SHA-1), so snapshots compare with the project's blobs."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _trouble(exc: OSError) -> str:
    return exc.strerror or errno.errorcode.get(exc.errno or 0, type(exc).__name__)
