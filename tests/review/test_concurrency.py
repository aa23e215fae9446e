"""Several processes writing at once, and a reader taking while they write: nothing lost or repeated."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from segmint_core.review import MessageQueue

WRITERS = 6
EACH = 25


def start_writers(folder: Path, root: str) -> list[subprocess.Popen]:
    return [
        subprocess.Popen([sys.executable, "-m", "tests.review.writer", str(folder), root, f"w{w}", str(EACH)])
        for w in range(WRITERS)
    ]


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "segmint"
    for proc in start_writers(folder, str(tmp_path)):
        assert proc.wait(timeout=60) == 0
    messages = MessageQueue(folder, str(tmp_path), kept=10_000).peek()
    assert len(messages) == WRITERS * EACH
    for w in range(WRITERS):  # each writer's messages in the order it wrote them
        assert [m.comment for m in messages if m.file == f"w{w}.py"] == [f"w{w} {n}" for n in range(EACH)]


def test_a_reader_taking_while_writers_write_gets_each_message_once(tmp_path: Path) -> None:
    folder = tmp_path / "segmint"
    queue = MessageQueue(folder, str(tmp_path), kept=10_000)
    writers = start_writers(folder, str(tmp_path))
    taken = []
    while any(p.poll() is None for p in writers):
        taken += queue.take()
    assert all(p.wait(timeout=60) == 0 for p in writers)
    taken += queue.take()
    assert len(taken) == WRITERS * EACH
    assert len({m.id for m in taken}) == WRITERS * EACH
