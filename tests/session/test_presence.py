"""A person at a TUI in another process counts: the agent's commits wait for them, here too."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.session.conftest import open_session
from tests.support.repo import Repo

TUI_STANDIN = """
import sys
from segmint_core.session.session import Session
session = Session.open(sys.argv[1])
session.set_presence(person_present=True, agent_can_commit=sys.argv[2] == "allow")
print("present", flush=True)
sys.stdin.readline()
session.set_presence(person_present=False)
"""


def other_process(repo: Repo, allow: bool = False) -> subprocess.Popen:
    """Another process that marks a person present (as a TUI does), until its stdin gets a line."""
    proc = subprocess.Popen(
        [sys.executable, "-c", TUI_STANDIN, str(repo.path), "allow" if allow else "ask"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "present\n"
    return proc


def presence_files(repo: Repo) -> list[str]:
    return sorted(p.name for p in Path(repo.path, ".git", "segmint").glob("presence-*.json"))


def test_a_person_in_another_process_is_present_until_they_leave(two_intents: Repo) -> None:
    session = open_session(two_intents)
    assert not session.person_present
    tui = other_process(two_intents)
    assert session.person_present and not session.agent_can_commit
    assert session.snapshot()["person_present"] is True
    plan = session.propose_commits()[0]
    head = two_intents.head()
    assert session.apply_commit(plan.id, actor="agent").status == "awaiting_approval"
    assert two_intents.head() == head  # nothing committed
    tui.communicate("bye\n", timeout=30)
    assert not session.person_present and presence_files(two_intents) == []
    assert session.apply_commit(plan.id, actor="agent").status == "applied"


def test_a_crashed_tui_does_not_count(two_intents: Repo) -> None:
    session = open_session(two_intents)
    tui = other_process(two_intents)
    assert session.person_present
    os.kill(tui.pid, signal.SIGKILL)
    tui.wait(timeout=30)
    assert presence_files(two_intents) == [f"presence-{tui.pid}.json"]  # left behind
    assert not session.person_present


def test_agents_commit_unasked_only_if_every_tui_allows_it(two_intents: Repo) -> None:
    session = open_session(two_intents)
    session.set_presence(person_present=True, agent_can_commit=True)
    assert session.agent_can_commit
    strict = other_process(two_intents, allow=False)
    assert session.person_present and not session.agent_can_commit
    strict.communicate("bye\n", timeout=30)
    assert session.agent_can_commit
    session.set_presence(person_present=False)
    assert not session.person_present and not session.agent_can_commit and presence_files(two_intents) == []


def test_a_presence_file_whose_pid_was_reused_does_not_count(two_intents: Repo) -> None:
    # A TUI crashed; later (a restarted container, say) its pid names some other process.
    session = open_session(two_intents)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        path = Path(two_intents.path, ".git", "segmint", f"presence-{other.pid}.json")
        path.write_text(json.dumps({"pid": other.pid, "started": 1, "agent_can_commit": False}))
        assert not session.person_present
        path.write_text(json.dumps({"pid": other.pid, "agent_can_commit": False}))  # no start time known
        assert session.person_present
    finally:
        other.kill()
        other.wait()
