"""A person at a terminal: tmux runs `segmint` in a repository, keys are typed, the pane is read.

The whole product as shipped: the installed command, a real terminal (tmux's),
real key presses, and the repository's status at the end.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator

import pytest

from segmint_bench.changes import segmint_command
from segmint_core.session.session import Session
from tests.support.repo import Repo

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: this test types into segmint through it"
)


class Terminal:
    """One tmux server of our own (so no user configuration or running server is involved)."""

    def __init__(self, name: str) -> None:
        self.socket = name

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, "-f", os.devnull, *args], capture_output=True, text=True, check=True
        ).stdout

    def start(self, cwd: str, command: list[str], size: tuple[int, int] = (120, 36)) -> None:
        self.tmux(
            "new-session",
            "-d",
            "-s",
            "segmint",
            "-x",
            str(size[0]),
            "-y",
            str(size[1]),
            "-c",
            cwd,
            " ".join(command),
            ";",
            "set-option",
            "-t",
            "segmint",
            "remain-on-exit",
            "on",
        )

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "segmint", *keys)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "segmint")

    def wait_for(self, check: Callable[[str], bool], what: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if check(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}; the pane shows:\n{self.screen()}")

    def stop(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(f"segmint-test-{os.getpid()}")
    try:
        yield term
    finally:
        term.stop()


def test_from_a_tangled_tree_to_clean_commits_in_a_terminal(demo: Repo, terminal: Terminal) -> None:
    env = {"TERM": "xterm-256color", "COLORTERM": "truecolor"}
    terminal.start(str(demo.path), ["env", *(f"{k}={v}" for k, v in env.items()), *segmint_command(), "--no-mcp"])
    screen = terminal.wait_for(lambda s: "#3 +" in s, "the groups")
    assert "#1 +15 −7" in screen and "Groups" in screen and "Commits" in screen
    assert "pairing off (--no-mcp)" in screen

    terminal.keys("p")
    terminal.wait_for(lambda s: s.count("○ proposed") == 3, "three proposed commits")
    terminal.keys("A")
    terminal.wait_for(lambda s: s.count("✓ approved") == 3, "three approved commits")
    terminal.keys("X")
    screen = terminal.wait_for(lambda s: s.count("● applied") == 3, "three applied commits")

    assert demo.status() == "", "a clean working tree"
    assert len(demo.git("log", "--format=%h").split()) == 4
    terminal.keys("1")
    terminal.wait_for(lambda s: "The working tree is clean" in s, "the clean status on screen")

    terminal.keys("q")
    terminal.wait_for(lambda s: "Pane is dead" in s or "segmint" not in s, "segmint to quit")


def test_a_title_typed_at_speed_is_saved_as_typed(demo: Repo, terminal: Terminal) -> None:
    title = "feat(inventory): restock refuses zero amounts and reports what it changed"
    terminal.start(str(demo.path), [*segmint_command(), "--no-mcp"])
    terminal.wait_for(lambda s: "#3 +" in s, "the groups")
    terminal.keys("p")
    terminal.wait_for(lambda s: s.count("○ proposed") == 3, "three proposed commits")
    terminal.keys("Enter")
    terminal.wait_for(lambda s: "Title" in s and "^s Save message" in s, "the commit editor")
    for _ in range(2):  # 90 backspaces clear the title, then a new one: each in one burst
        terminal.keys(*["BSpace"] * 90)
        terminal.tmux("send-keys", "-t", "segmint", "-l", title)
    terminal.wait_for(lambda s: "reports what it changed" in s, "the end of the typed title")
    terminal.keys("Escape")
    terminal.wait_for(lambda s: "1. feat(inventory): restock" in s, "the saved title in the commits pane")
    assert Session.open(str(demo.path)).plans[0].title == title


def test_the_whole_flow_at_80_by_24_in_a_terminal(demo: Repo, terminal: Terminal) -> None:
    terminal.start(str(demo.path), [*segmint_command(), "--no-mcp"], size=(80, 24))
    terminal.wait_for(lambda s: "#3 +" in s, "the groups")
    terminal.keys("3")  # the diff takes the whole width
    terminal.wait_for(
        lambda s: "inventory/config.py modified +3 −6  change-3" in s and "1 Groups" not in s, "the diff at full width"
    )
    terminal.keys("1")
    terminal.wait_for(lambda s: "1 Groups" in s, "the groups again")
    terminal.keys("p")
    terminal.wait_for(lambda s: s.count("○ proposed") == 3, "three proposed commits")
    terminal.keys("Enter")
    terminal.wait_for(lambda s: "Title" in s and "1 Groups" not in s, "the message editor at full width")
    terminal.keys("C-a", "C-k")
    terminal.tmux("send-keys", "-t", "segmint", "-l", "feat(config): read the settings from a JSON file")
    terminal.wait_for(lambda s: "read the settings from a JSON file" in s, "the new title")
    terminal.keys("Escape")
    terminal.wait_for(lambda s: "1. feat(config): read the settings" in s, "the commits with the new title")
    terminal.keys("A")
    terminal.wait_for(lambda s: s.count("✓ approved") == 3, "three approved commits")
    terminal.keys("X")
    terminal.wait_for(lambda s: s.count("● applied") == 3 and "Nothing to commit" in s, "three commits made")
    assert demo.status() == ""
    assert demo.git("log", "-3", "--format=%s").splitlines()[-1] == "feat(config): read the settings from a JSON file"
