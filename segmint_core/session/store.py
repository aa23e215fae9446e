"""Where a session lives between runs: ``.git/segmint/`` in the repository.

Writes are atomic (a temporary file renamed over the old one), so a crash never
leaves half a session behind.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from segmint_core.atomic import set_aside, write_atomic

FORMAT = 1


FOLDER = "segmint"  # the session's folder, inside the git dir


def session_dir(git_dir: str) -> Path:
    path = Path(git_dir) / FOLDER
    path.mkdir(parents=True, exist_ok=True)
    return path


def save_state(path: Path, state: dict[str, Any]) -> None:
    payload = {"format": FORMAT, **state}
    # No indent: only then does json use its C encoder (a session may hold a thousand groups).
    # A path that is not UTF-8 (an index entry undo restores) is kept byte for byte.
    write_atomic(path, json.dumps(payload, ensure_ascii=False, sort_keys=True).encode("utf-8", "surrogateescape"))


SetAside = Callable[[Path], None]  # told where an unreadable file now is


def load_state(path: Path, on_set_aside: SetAside | None = None) -> dict[str, Any] | None:
    """The saved state, or None if there is none (or it is unreadable: a
    session is a convenience, never worth refusing to start over; an
    unreadable file is set aside beside it rather than overwritten)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    try:
        data = json.loads(raw.decode("utf-8", "surrogateescape"))
    except ValueError:
        data = None
    if not isinstance(data, dict):
        put_aside(path, on_set_aside)
        return None
    return data if data.get("format") == FORMAT else None


def put_aside(path: Path, on_set_aside: SetAside | None) -> None:
    aside = set_aside(path)
    if aside is not None and on_set_aside is not None:
        on_set_aside(aside)
