"""Running child processes and collecting their output, all at once; and
whether some other process is still alive.

``subprocess`` costs about as much to import as git takes to diff a small
repository, and ``segmint changes`` must stay within 1.5x of git's own time,
so Git runs through this: ``os.posix_spawn`` plus one ``poll`` loop that feeds
stdin and drains stdout and stderr of every child together.
"""

from __future__ import annotations

import fcntl
import os
import select
from typing import Any

CHUNK = 1 << 20
PIPE_SIZE = 1 << 20  # Linux lets anyone grow a pipe to 1 MiB: far fewer wake-ups for big diffs


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists, under any user."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


class Finished:
    """A child's exit status and everything it wrote."""

    __slots__ = ("returncode", "stdout", "stderr")

    def __init__(self, returncode: int, stdout: bytes, stderr: bytes) -> None:
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr

    @property
    def text(self) -> str:
        """stdout as text, without loss (undecodable bytes become surrogates)."""
        return self.stdout.decode("utf-8", "surrogateescape")


class Collector:
    """Where a child's stdout goes: kept whole by default; subclasses may also
    consume it as it arrives (see ``DiffStream``)."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def feed(self, chunk: bytes) -> None:
        self.chunks.append(chunk)

    def close(self) -> None:
        pass

    def value(self) -> bytes:
        return b"".join(self.chunks)


def run_all(
    commands: list[list[str]],
    *,
    env: dict[str, str],
    inputs: list[bytes | None] | None = None,
    collectors: list[Collector | None] | None = None,
) -> list[Finished]:
    """Run ``commands`` concurrently; results in the same order.

    ``argv[0]`` must be an absolute executable path. Raises ``OSError`` if a
    command cannot be started (nothing is left running in that case).
    """
    return start_all(commands, env=env, inputs=inputs).finish(collectors)


class Started:
    """Children already running, whose output is not read yet.

    Starting first and choosing the collectors later lets a caller import what
    reads the output while the children work (``segmint changes`` does).
    """

    def __init__(self, children: list[_Child]) -> None:
        self.children = children

    def finish(self, collectors: list[Collector | None] | None = None) -> list[Finished]:
        """Feed stdin, drain every output into its collector, wait for all."""
        collectors = collectors or [None] * len(self.children)
        for child, collector in zip(self.children, collectors):
            if collector is not None:
                child.readers[child.out_fd] = child.out = collector
        _pump(self.children)
        return [child.wait() for child in self.children]


def start_all(
    commands: list[list[str]],
    *,
    env: dict[str, str],
    inputs: list[bytes | None] | None = None,
) -> Started:
    """Start ``commands`` at once; ``.finish()`` collects them."""
    inputs = inputs or [None] * len(commands)
    env_b = {os.fsencode(k): os.fsencode(v) for k, v in env.items()}
    children: list[_Child] = []
    try:
        for argv, data in zip(commands, inputs):
            children.append(_Child(argv, env_b, data))
    except OSError:
        for child in children:
            child.abandon()
        raise
    return Started(children)


class _Child:
    def __init__(self, argv: list[str], env: dict[bytes, bytes], data: bytes | None) -> None:
        out_r, out_w = os.pipe()
        _grow(out_r)
        err_r, err_w = os.pipe()
        actions: list[tuple[Any, ...]] = [(os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_DUP2, err_w, 2)]
        in_r = in_w = -1
        if data is None:
            actions.append((os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0))
        else:
            in_r, in_w = os.pipe()
            actions.append((os.POSIX_SPAWN_DUP2, in_r, 0))
        try:
            self.pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
        except OSError:
            for fd in (out_r, out_w, err_r, err_w, in_r, in_w):
                if fd >= 0:
                    os.close(fd)
            raise
        for fd in (out_w, err_w, in_r):
            if fd >= 0:
                os.close(fd)
        self.out_fd = out_r
        self.out = Collector()
        self.err = Collector()
        self.readers = {out_r: self.out, err_r: self.err}
        self.stdin_fd = in_w
        self.pending = memoryview(data) if data is not None else None
        if in_w >= 0:
            os.set_blocking(in_w, False)

    def abandon(self) -> None:
        for fd in list(self.readers):
            os.close(fd)
        if self.stdin_fd >= 0:
            os.close(self.stdin_fd)
        os.waitpid(self.pid, 0)

    def wait(self) -> Finished:
        _, status = os.waitpid(self.pid, 0)
        return Finished(os.waitstatus_to_exitcode(status), self.out.value(), self.err.value())


def _grow(fd: int) -> None:
    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
    except (AttributeError, OSError):  # not Linux, or over the system's limit
        pass


def _pump(children: list[_Child]) -> None:
    poller = select.poll()
    sinks: dict[int, Collector] = {}
    writers: dict[int, _Child] = {}
    for child in children:
        for fd, sink in child.readers.items():
            poller.register(fd, select.POLLIN)
            sinks[fd] = sink
        if child.stdin_fd >= 0:
            if child.pending:
                poller.register(child.stdin_fd, select.POLLOUT)
                writers[child.stdin_fd] = child
            else:
                os.close(child.stdin_fd)
    while sinks or writers:
        for fd, _event in poller.poll():
            if fd in writers:
                _feed(poller, writers, fd)
                continue
            chunk = os.read(fd, CHUNK)
            if chunk:
                sinks[fd].feed(chunk)
            else:
                poller.unregister(fd)
                os.close(fd)
                sinks.pop(fd).close()


def _feed(poller: select.poll, writers: dict[int, _Child], fd: int) -> None:
    child = writers[fd]
    pending = child.pending
    try:
        written = os.write(fd, pending[:CHUNK]) if pending else 0
    except BrokenPipeError:
        written, pending = 0, None  # the child stopped reading; its status tells why
    except BlockingIOError:
        return
    child.pending = pending[written:] if pending is not None else None
    if not child.pending:
        poller.unregister(fd)
        os.close(fd)
        del writers[fd]
