"""A person at a terminal (tmux) goes to the first uncertain hunk with d and accepts its alternative with o."""

from __future__ import annotations

from segmint_bench.changes import segmint_command
from segmint_core.session.session import Session
from tests.tui.test_confidence import mixed
from tests.tui.test_terminal import Terminal, pytestmark, terminal  # noqa: F401  (the tmux fixture and skip)
from tests.support.repo import Repo


def test_one_key_to_the_uncertain_hunk_and_one_to_accept_its_alternative(repo: Repo, terminal: Terminal) -> None:
    doubt = mixed(repo).confidence().uncertain[0]
    short = doubt.hunk_ids[0].split("-", 1)[1]
    terminal.start(str(repo.path), [*segmint_command(), "--no-mcp"])
    screen = terminal.wait_for(lambda s: "? #1 +" in s, "the one group, marked uncertain")
    assert "#2 +" not in screen
    terminal.keys("d")
    terminal.wait_for(lambda s: f"? {short} +" in s and "o: accept" in s, "the cursor on the uncertain hunk")
    terminal.keys("o")
    moved = f"person moved {', '.join(doubt.hunk_ids)} to group-2"
    screen = terminal.wait_for(lambda s: moved in s and "? #1" not in s, "the hunks split off, the doubt gone")
    assert f"? {short}" not in screen
    groups = Session.open(str(repo.path)).groups
    assert [sorted(g.hunk_ids) for g in groups][1] == sorted(doubt.hunk_ids)
    terminal.keys("q")
