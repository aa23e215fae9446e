"""A person at a terminal moves one line of a hunk to a commit of its own (tmux, a clone of click)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from segmint_bench.changes import segmint_command
from tests.conftest import shared_data
from tests.support.repo import Repo
from tests.tui.test_terminal import Terminal, pytestmark, terminal  # noqa: F401  (the tmux fixture and skip)

ADDED = ["FIRST_SETTING = 1", "SECOND_SETTING = 2", "THIRD_SETTING = 3"]


def click_clone(tmp_path: Path) -> Repo:
    path = tmp_path / "click"
    subprocess.run(["git", "clone", "-q", str(shared_data("click.bundle")), str(path)], check=True)
    repo = Repo(path, init=False)
    repo.git("config", "user.name", "Test Author")
    repo.git("config", "user.email", "author@example.invalid")
    repo.git("config", "commit.gpgsign", "false")
    return repo


def commit_lines(repo: Repo, rev: str) -> list[str]:
    patch = repo.git("show", "--format=", "--unified=0", rev)
    return [line for line in patch.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]


def test_one_added_line_of_three_becomes_a_commit_of_its_own(tmp_path: Path, terminal: Terminal) -> None:
    repo = click_clone(tmp_path)
    target = "src/click/globals.py" if (repo.path / "src/click/globals.py").exists() else "click/globals.py"
    text = repo.read(target).decode()
    edited = text.replace("\n\n", "\n\n" + "".join(line + "\n" for line in ADDED), 1)
    repo.write(target, edited)
    head = repo.head()

    terminal.start(str(repo.path), [*segmint_command(), "--no-mcp"])
    terminal.wait_for(lambda s: "#1 +3" in s, "the one group")
    terminal.keys("3", "/")
    terminal.wait_for(lambda s: "search the diff" in s, "the search bar")
    terminal.tmux("send-keys", "-t", "segmint", "-l", "+SECOND_SETTING")
    terminal.wait_for(lambda s: s.count("+SECOND_SETTING") == 2, "the search bar with the typed text")
    terminal.keys("Escape")  # alone: escape then v at once would read as alt+v
    terminal.wait_for(lambda s: s.count("+SECOND_SETTING") == 1, "the search bar closed")
    terminal.keys("v")
    terminal.wait_for(lambda s: "▌      4 +SECOND_SETTING" in s, "the selected line")
    terminal.keys("n")
    screen = terminal.wait_for(lambda s: "→ group-2" in s, "group-1's diff showing where the line went")
    assert "+SECOND_SETTING = 2   → group-2" in screen
    terminal.keys("1")
    screen = terminal.wait_for(lambda s: "#2 +1" in s, "the line in a group of its own")
    assert "#1 +2" in screen

    terminal.keys("p")
    terminal.wait_for(lambda s: s.count("○ proposed") == 2, "two proposed commits")
    terminal.keys("A")
    terminal.wait_for(lambda s: s.count("✓ approved") == 2, "two approved commits")
    terminal.keys("X")
    terminal.wait_for(lambda s: s.count("● applied") == 2, "two applied commits")
    terminal.keys("q")

    assert repo.git("status", "--porcelain") == "", "nothing left: HEAD holds the work tree"
    assert repo.git("rev-parse", "HEAD~2") == head + "\n"
    assert repo.read(target).decode() == edited
    assert repo.git_bytes("show", f"HEAD:{target}").decode() == edited
    made = {tuple(commit_lines(repo, "HEAD~1")), tuple(commit_lines(repo, "HEAD"))}
    assert made == {("+FIRST_SETTING = 1", "+THIRD_SETTING = 3"), ("+SECOND_SETTING = 2",)}


EDITOR = """import sys
line, path = int(sys.argv[1][1:]), sys.argv[2]
lines = open(path).readlines()
lines.insert(line, "EDITED_IN_THE_EDITOR = 1\\n")
open(path, "w").writelines(lines)
"""


def test_e_hands_the_terminal_to_the_editor_and_comes_back_refreshed(tmp_path: Path, terminal: Terminal) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("app.py", "a = 1\nz = 9\n")
    repo.commit()
    repo.write("app.py", "a = 1\nb = 2\nz = 9\n")
    script = tmp_path / "editor.py"
    script.write_text(EDITOR)
    terminal.start(str(repo.path), ["env", f"VISUAL='{sys.executable} {script}'", *segmint_command(), "--no-mcp"])
    terminal.wait_for(lambda s: "#1 +1" in s, "the group")
    terminal.keys("3")
    terminal.wait_for(lambda s: "v Select lines" in s, "the diff pane's keys")
    terminal.keys("]", "Down", "Down", "e")
    terminal.wait_for(lambda s: "refreshed: 1 new hunk" in s, "the session read again after the editor closed")
    assert repo.read("app.py") == b"a = 1\nb = 2\nEDITED_IN_THE_EDITOR = 1\nz = 9\n"
