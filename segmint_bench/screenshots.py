"""Make the README's screenshots from the demo repository.

    python -m segmint_bench.screenshots [OUT_DIR]      (default: screenshots/)

Each picture is the real app, run headless on a fresh copy of the demo
repository (``segmint_bench.demo``), driven by the keys a person would press, and
saved as SVG by Textual. The session's clock and the time zone are pinned, so
the pictures change only when the app does.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from segmint_core.session.session import Session
from segmint_tui.app import SegmintApp, create_app
from segmint_bench.demo import build_demo

SIZE = (120, 36)
NOON = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Shot:
    name: str
    keys: tuple[str, ...]
    what: str
    size: tuple[int, int] = SIZE


SHOTS = (
    Shot("main", ("p", "1"), "the main screen: groups, the selected group's diff, the proposed commits"),
    Shot(
        "group-diff",
        ("right", "down", "down", "down", "down", "down", "down"),
        "a group opened to its files, a Python file's diff highlighted",
    ),
    Shot("commit-editor", ("p", "2", "enter"), "the commit editor on the first proposed commit"),
    Shot("small-terminal", ("p", "3"), "an 80x24 terminal: the diff in use takes the whole width", size=(80, 24)),
    Shot(
        "line-selection",
        ("3", "right_square_bracket", *("down",) * 6, "v", "down"),
        "two lines of a hunk selected in the diff pane, for m or n to move",
    ),
    Shot(
        "lines-moved",
        ("3", "right_square_bracket", *("down",) * 6, "v", "down", "n"),
        "the hunk after its last two lines went to a new group: they show, dimmed, where they went",
    ),
)


def pinned_session(path: Path, *, grouped: bool = True) -> Session:
    """A session whose clock always says noon, so activity lines are the same in every run."""
    session = Session.open(str(path), clock=lambda: NOON)
    if grouped:
        session.regroup()
    return session


async def settle(pilot, timeout: float = 20.0) -> None:
    """Wait until every session call the app started has finished and the screen redrew
    (with the ? marks of the session's confidence)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await pilot.pause(0.02)
        if not pilot.app.busy and not pilot.app.reading_confidence:
            await pilot.pause()
            if not pilot.app.busy and not pilot.app.reading_confidence:
                return
    raise TimeoutError(f"the app was still busy after {timeout} s")


def steady_cursors(app: SegmintApp) -> None:
    """Stop the text cursors blinking, so a picture never catches one mid-blink."""
    for editor in app.screen.query("Input, TextArea"):
        editor.cursor_blink = False


async def take(shot: Shot, out_dir: Path) -> Path:
    with tempfile.TemporaryDirectory(prefix="segmint-demo-") as tmp:
        repo = build_demo(Path(tmp) / "inventory")
        session = pinned_session(repo)
        app = create_app(session=session, mcp=False, watch=False, auto_group=False)
        async with app.run_test(size=shot.size, notifications=False) as pilot:
            await settle(pilot)
            for key in shot.keys:
                await pilot.press(key)
                await settle(pilot)
            app.clear_notifications()
            steady_cursors(app)
            await pilot.pause()
            return Path(app.save_screenshot(f"{shot.name}.svg", str(out_dir)))


async def take_all(out_dir: Path) -> list[Path]:
    return [await take(shot, out_dir) for shot in SHOTS]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out_dir = Path(args[0] if args else "screenshots")
    out_dir.mkdir(parents=True, exist_ok=True)
    os.environ["TZ"] = "UTC"
    time.tzset()
    for shot, path in zip(SHOTS, asyncio.run(take_all(out_dir))):
        print(f"{path}  {shot.what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
