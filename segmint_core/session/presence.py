"""Whether a person is at a Segmint TUI on this repository, in this process or another.

A TUI marks its presence with a file ``presence-PID.json`` in the session
folder and removes it when it closes. Every process reads those files, so an
agent on a headless ``segmint mcp`` (started before the TUI, or beside it)
also waits for the person's approval before committing. A file whose process
has ended (the TUI crashed) is ignored, and so is one whose pid now names a
process started at another time (where ``/proc`` tells start times: a
container restarted, say). Elsewhere a reused pid only asks for an approval
that was not needed, never the other way round.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from segmint_core.atomic import write_atomic
from segmint_core.proc import pid_alive

PREFIX = "presence-"


@dataclass(frozen=True)
class Presence:
    person_present: bool = False
    agent_can_commit: bool = False  # meaningful only while a person is present


def mark(folder: Path, presence: Presence) -> None:
    """Publish (or, when nobody is present, withdraw) this process's presence."""
    path = _own_file(folder)
    if presence.person_present:
        pid = os.getpid()
        data = {"pid": pid, "started": _start_time(pid), "agent_can_commit": presence.agent_can_commit}
        write_atomic(path, json.dumps(data).encode())
    else:
        path.unlink(missing_ok=True)


def combined(here: Presence, folder: Path) -> Presence:
    """This process's presence together with every live TUI's on the repository.

    Agents may commit unasked only if every TUI present allows it.
    """
    present = [p for p in (here, *_elsewhere(folder)) if p.person_present]
    return Presence(bool(present), bool(present) and all(p.agent_can_commit for p in present))


def _elsewhere(folder: Path) -> list[Presence]:
    found = []
    for path in folder.glob(f"{PREFIX}*.json"):
        digits = path.name[len(PREFIX) : -len(".json")]
        pid = int(digits) if digits.isdigit() else 0
        if pid == os.getpid() or not pid_alive(pid):
            continue  # (an alive process of another user counts: approval is the safe side)
        data = _read(path)  # unreadable: the person is there, agent commits are not known to be allowed
        started = data.get("started")
        if started is not None and started != _start_time(pid):
            continue  # the pid was reused by another process
        found.append(Presence(True, data.get("agent_can_commit") is True))
    return found


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _own_file(folder: Path) -> Path:
    return folder / f"{PREFIX}{os.getpid()}.json"


def _start_time(pid: int) -> int | None:
    """When the process started (clock ticks since boot), where ``/proc`` says; else None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
        return int(stat.rpartition(")")[2].split()[19])  # field 22; the name may hold spaces
    except (OSError, ValueError, IndexError):
        return None
