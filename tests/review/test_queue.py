"""The review-message queue: dedup, retention, clear-on-read, foreign repositories, a damaged file."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from segmint_core.errors import SegmintError
from segmint_core.review import MessageQueue, ReviewMessage, new_message

ROOT = "/work/project"
NOON = datetime(2025, 7, 1, 10, 30, tzinfo=UTC)


def message(
    comment: str = "Add validation here",
    *,
    file: str = "src/main.go",
    line: int | None = 42,
    when: datetime = NOON,
    root: str = ROOT,
) -> ReviewMessage:
    return new_message(file, comment, root, line=line, now=when)


@pytest.fixture
def queue(tmp_path: Path) -> MessageQueue:
    return MessageQueue(tmp_path / "segmint", ROOT)


def test_a_message_is_kept_until_read(queue: MessageQueue) -> None:
    assert queue.append(message())
    assert queue.peek() == [message()]
    assert queue.peek() == [message()], "peeking leaves it queued"


def test_the_same_message_twice_is_one_message(queue: MessageQueue) -> None:
    assert queue.append(message())
    assert not queue.append(message())
    assert len(queue.peek()) == 1


def test_dedup_key_is_file_line_comment_and_time(queue: MessageQueue) -> None:
    later = datetime(2025, 7, 1, 10, 30, 1, tzinfo=UTC)
    variants = [message(), message(when=later), message(line=43), message(file="src/other.go"), message("Other")]
    assert all(queue.append(m) for m in variants)
    assert len({m.id for m in variants}) == 5
    assert message().id == message().id and len(message().id) == 64


def test_at_most_ten_are_kept_oldest_dropped(queue: MessageQueue) -> None:
    for n in range(12):
        queue.append(message(f"comment {n}"))
    assert [m.comment for m in queue.peek()] == [f"comment {n}" for n in range(2, 12)]


def test_retention_can_be_configured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert [m.comment for m in _fill(MessageQueue(tmp_path / "a", ROOT, kept=3), 5)] == ["c2", "c3", "c4"]
    monkeypatch.setenv("SEGMINT_MESSAGES_KEPT", "2")
    assert [m.comment for m in _fill(MessageQueue(tmp_path / "b", ROOT), 5)] == ["c3", "c4"]
    monkeypatch.setenv("SEGMINT_MESSAGES_KEPT", "none")
    with pytest.raises(SegmintError, match="SEGMINT_MESSAGES_KEPT must be a positive whole number"):
        MessageQueue(tmp_path / "c", ROOT)


def _fill(queue: MessageQueue, count: int) -> list[ReviewMessage]:
    for n in range(count):
        queue.append(message(f"c{n}"))
    return queue.peek()


def test_take_returns_everything_once(queue: MessageQueue) -> None:
    queue.append(message("one"))
    queue.append(message("two"))
    assert [m.comment for m in queue.take()] == ["one", "two"]
    assert queue.take() == []
    assert queue.peek() == []


def test_messages_of_another_repository_are_ignored(queue: MessageQueue) -> None:
    assert not queue.append(message(root="/elsewhere"))
    assert queue.peek() == []
    queue.append(message())
    data = json.loads(queue.path.read_text())
    data["messages"].append({**message("foreign").to_dict(), "project_root": "/elsewhere"})
    queue.path.write_text(json.dumps(data))
    assert [m.comment for m in queue.peek()] == ["Add validation here"]
    assert [m.comment for m in queue.take()] == ["Add validation here"]


def test_the_same_root_spelled_through_a_symlink_is_not_foreign(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    queue = MessageQueue(tmp_path / "segmint", str(tmp_path / "link"))
    assert queue.append(message(root=str(real)))


def test_a_damaged_file_starts_over_and_is_kept_beside_it(queue: MessageQueue) -> None:
    queue.path.parent.mkdir(parents=True)
    queue.path.write_text('{"messages": [{"comment": "half a rewrite')
    assert queue.peek() == []
    assert queue.append(message())
    assert queue.peek() == [message()]
    # the comments it held are set aside for a person to read, not overwritten by the next send
    assert queue.path.with_name("messages.json.unreadable").read_text() == '{"messages": [{"comment": "half a rewrite'
    queue.path.write_text(json.dumps({"format": 1, "messages": [{"file": 3}, message("ok").to_dict()]}))
    assert [m.comment for m in queue.peek()] == ["ok"]
    lineless = [{**message(f"line {n}").to_dict(), "line": n} for n in (0, -5, 2.0, True)]
    queue.path.write_text(json.dumps({"format": 1, "messages": [*lineless, message("ok").to_dict()]}))
    assert [m.comment for m in queue.peek()] == ["ok"], "no line 0, -5, 2.0 or true: those entries are dropped"


def test_a_file_nested_too_deep_to_parse_starts_over_too(queue: MessageQueue) -> None:
    queue.path.parent.mkdir(parents=True)
    queue.path.write_text("[" * 100_000)
    assert queue.peek() == []
    assert queue.append(message())
    assert queue.peek() == [message()]
    assert queue.path.with_name("messages.json.unreadable").read_text() == "[" * 100_000


def test_each_write_changes_the_signature(queue: MessageQueue) -> None:
    assert queue.signature() is None
    queue.append(message("one"))
    first = queue.signature()
    queue.append(message("two"))
    assert queue.signature() not in (None, first)


def test_new_message_checks_its_input() -> None:
    with pytest.raises(SegmintError, match="cannot be empty"):
        new_message("a.py", "  \n", ROOT)
    with pytest.raises(SegmintError, match="positive integer"):
        new_message("a.py", "x", ROOT, line=0)
    with pytest.raises(SegmintError, match="outside the repository"):
        new_message("../b.py", "x", ROOT)
    with pytest.raises(SegmintError, match="outside the repository"):
        new_message("/etc/passwd", "x", ROOT)
    for top in (".", ROOT, f"{ROOT}/src/.."):
        with pytest.raises(SegmintError, match="is the repository itself: a review message is about a file in it"):
            new_message(top, "x", ROOT)
    with pytest.raises(SegmintError, match="at most 20,000 characters"):
        new_message("a.py", "x" * 20_001, ROOT)
    inside = new_message(f"{ROOT}/src/./a.py", "x", ROOT, now=NOON)
    assert (inside.file, inside.time) == ("src/a.py", "2025-07-01T10:30:00Z")
