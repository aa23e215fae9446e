"""Recording provenance as work happens: which task (intent) each edit was made under.

A coding agent's hook, the TUI, MCP and ``segmint intent`` call these five
functions; each is one short locked read-modify-write of the store
(``store.py``). An intent is current per source and agent session, so two
agents in one tree each keep their own. Edits snapshot the files' bytes at
once; what is attributed to whom is worked out later (``attribution.py``) by
replaying the snapshots, so the hook does as little as possible.
"""

from __future__ import annotations

import os
import stat
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from segmint_core.errors import SegmintError
from segmint_core.git import Git, changed_paths
from segmint_core.redact import redact
from segmint_core.trajectory.errors import DamagedProvenanceError
from segmint_core.trajectory.provenance.store import State, Store

SOURCES = ("claude-code", "gemini", "mcp", "tui", "cli")
PERSON_SOURCES = ("tui", "cli")  # one person at the keyboard: a task said in one holds in the other
# Sources whose edits no hook snapshots as they are made: a person, an agent that only declares its
# task over MCP. What changed by hand while one of their tasks was current is that task's work.
UNHOOKED_SOURCES = (*PERSON_SOURCES, "mcp")
SESSION_EVENTS = ("start", "end")
MAX_INTENT_CHARS = 4000
MAX_FILE_BYTES = 8 * 1024 * 1024  # bigger files are not snapshotted (a data dump, a build output)
SHADOW_DIR = ".trajectory"
COMPACT_AT = 4 * 1024 * 1024  # bytes of event log past which a prompt compacts it


@dataclass(frozen=True)
class Intent:
    id: str  # stable, e.g. "intent-3"
    text: str  # redacted prompt / declared task
    source: str  # "claude-code" | "gemini" | "mcp" | "tui" | "cli"
    session_id: str | None  # the agent's session, when known
    prompt_id: str | None
    created: float  # epoch seconds

    @property
    def number(self) -> int:
        return int(self.id.rsplit("-", 1)[-1])

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "text": self.text,
            "source": self.source,
            "session": self.session_id,
            "prompt": self.prompt_id,
            "created": self.created,
        }

    @classmethod
    def from_json(cls, data: dict) -> "Intent":
        return cls(
            str(data["id"]),
            str(data.get("text", "")),
            str(data.get("source", "")),
            data.get("session"),
            data.get("prompt"),
            float(data.get("created", 0.0)),
        )


def begin_intent(
    repo_root: Path, text: str, *, source: str, session_id: str | None = None, prompt_id: str | None = None
) -> Intent:
    """Make ``text`` the current intent of ``source``/``session_id``; secrets in it are masked.

    Files changed since their last snapshot (by hand, with no recorder) are first
    snapshotted, so the new task's edits never claim them: under the task a person (or an
    agent over MCP) said it was working on then, else with no intent.
    """
    _check_source(source)
    clean = _clean_text(text)
    store = Store(repo_root)
    changed = _changed_paths(store.repo_root)
    with store.locked() as state:
        _snapshot(store, state, changed, intent_of_hand_edits(state), source, session_id)
        intent = Intent(f"intent-{state.next_intent}", clean, source, session_id, prompt_id, time.time())
        state.next_intent += 1
        state.current[_key(source, session_id)] = intent.to_json()
        store.append({"kind": "intent", **intent.to_json()})
        if store.events_size() > COMPACT_AT:
            _compact(store, state, changed)
    return intent


def _compact(store: Store, state: State, changed: Sequence[str]) -> None:
    """Forget the snapshots of files that are on disk and unchanged now (their work is committed):
    no grouping will read them again. A path gone from disk too is kept (a file moved without git
    is followed to it)."""
    pending = set(changed)
    root = store.repo_root
    store.compact(state, lambda path: path not in pending and os.path.lexists(root / path))


def record_edit(repo_root: Path, paths: Sequence[str] | None, *, source: str, session_id: str | None = None) -> None:
    """Snapshot ``paths`` (None: every changed file, as after a shell command) under the current
    intent of ``source``/``session_id``, or under none. Ignored files are never recorded."""
    _check_source(source)
    store = Store(repo_root)
    wanted = _changed_paths(store.repo_root) if paths is None else _recordable(store.repo_root, paths)
    if not wanted:
        return
    with store.locked() as state:
        current = _current_record(state, source, session_id)
        _snapshot(store, state, wanted, current["id"] if current else None, source, session_id)


def record_before_edit(repo_root: Path, paths: Sequence[str], *, source: str, session_id: str | None = None) -> None:
    """An agent is about to edit ``paths`` (Claude Code's ``PreToolUse``, Gemini CLI's ``BeforeTool``):
    whatever changed in them since their last snapshot is not its doing, so it is snapshotted apart
    (under a person's current task, else with no intent), and the edit's own snapshot then holds only
    the agent's lines."""
    _check_source(source)
    store = Store(repo_root)
    wanted = _recordable(store.repo_root, paths)
    if not wanted:
        return
    with store.locked() as state:
        _snapshot(store, state, wanted, intent_of_hand_edits(state), source, session_id)


def end_intent(repo_root: Path, *, source: str, session_id: str | None = None) -> None:
    """The task of ``source``/``session_id`` is finished: later edits are unattributed until a new intent.

    A person's task (or an MCP agent's) first takes the files changed by hand while it was current.
    """
    _check_source(source)
    store = Store(repo_root)
    changed = _changed_paths(store.repo_root) if source in UNHOOKED_SOURCES else []
    with store.locked() as state:
        if changed:
            _snapshot(store, state, changed, intent_of_hand_edits(state), source, session_id)
        _end(store, state, source, session_id)


def current_intent(repo_root: Path, *, source: str | None = None, session_id: str | None = None) -> Intent | None:
    """The intent edits would be recorded under: of that session, else the newest of that source
    (of any source when None)."""
    store = Store(repo_root)
    if not store.state_path.exists():
        return None
    state = store.read_state()
    record = _current_record(state, source, session_id)
    try:
        return Intent.from_json(record) if record else None
    except (KeyError, TypeError, ValueError) as exc:
        raise DamagedProvenanceError(
            f"The provenance record {store.state_path} is damaged ({exc}): move {store.dir} away to start recording again."
        ) from exc


def mark_session(repo_root: Path, *, source: str, session_id: str, event: str) -> None:
    """An agent session started or ended; its end also ends its intent."""
    _check_source(source)
    if event not in SESSION_EVENTS:
        raise ValueError(f"event must be one of {', '.join(SESSION_EVENTS)}, not {event!r}")
    store = Store(repo_root)
    with store.locked() as state:
        store.append({"kind": "session", "event": event, "source": source, "session": session_id, "t": time.time()})
        if event == "end":
            _end(store, state, source, session_id)


# -- the work ----------------------------------------------------------------------


def _key(source: str, session_id: str | None) -> str:
    return f"{source}\x1f{session_id or ''}"


def _current_record(state: State, source: str | None, session_id: str | None) -> dict | None:
    if source is not None and session_id is not None:
        return state.current.get(_key(source, session_id))
    if source is None:
        pool = list(state.current.values())
    else:
        family = PERSON_SOURCES if source in PERSON_SOURCES else (source,)
        pool = [r for r in state.current.values() if r.get("source") in family]
    if session_id is not None:
        pool = [r for r in pool if r.get("session") == session_id]
    return _newest(pool)


def intent_of_hand_edits(state: State) -> str | None:
    """The intent that edits found by no hook were made under: the newest current task of a person
    or an MCP agent (their edits are snapshotted only when found), else none."""
    newest = _newest([r for r in state.current.values() if r.get("source") in UNHOOKED_SOURCES])
    return newest["id"] if newest else None


def _newest(records: list[dict]) -> dict | None:
    return max(records, key=lambda r: (float(r.get("created", 0.0)), str(r["id"])), default=None)


def _end(store: Store, state: State, source: str, session_id: str | None) -> None:
    ended = state.current.pop(_key(source, session_id), None)
    if ended is not None:
        store.append({"kind": "end", "intent": ended["id"], "source": source, "session": session_id, "t": time.time()})


def _snapshot(
    store: Store, state: State, paths: Sequence[str], intent: str | None, source: str, session_id: str | None
) -> None:
    """Store the bytes of ``paths`` that changed since their last snapshot, as one edit event."""
    files: dict[str, str | None] = {}
    for rel in paths:
        data = _read(store.repo_root / rel)
        if data is False:
            continue
        oid = None if data is None else store.put_blob(data)
        if rel in state.last_blob and state.last_blob[rel] == oid:
            continue
        files[rel] = oid
        state.last_blob[rel] = oid
    if not files:
        return
    store.append(
        {
            "kind": "edit",
            "id": state.next_edit,
            "intent": intent,
            "source": source,
            "session": session_id,
            "t": time.time(),
            "head": store.project_head(),
            "files": files,
        }
    )
    state.next_edit += 1


def _read(path: Path) -> bytes | None | Literal[False]:
    """The bytes git would record (a symlink's target path); None when gone; False when not to be recorded."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            return os.fsencode(os.readlink(path))
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES:
            return False
        with open(path, "rb") as f:
            return f.read()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        return False


def _check_source(source: str) -> None:
    if source not in SOURCES:
        raise ValueError(f"source must be one of {', '.join(SOURCES)}, not {source!r}")


def _clean_text(text: str) -> str:
    text = redact(str(text).replace("\0", "").strip())
    return text if len(text) <= MAX_INTENT_CHARS else text[: MAX_INTENT_CHARS - 1] + "…"


# -- asking the project's git which files count -------------------------------------


def _git(root: Path, *args: str) -> bytes:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_OPTIONAL_LOCKS="0", GIT_LITERAL_PATHSPECS="1", LC_ALL="C")
    try:
        done = subprocess.run(
            ["git", "-c", "core.quotePath=false", *args],
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
    except OSError as exc:
        raise DamagedProvenanceError(f"Cannot run git in {root} to record an edit ({exc.strerror}).") from exc
    if done.returncode != 0:
        first = (done.stderr.decode("utf-8", "replace").strip().splitlines() or [f"exit {done.returncode}"])[0]
        raise DamagedProvenanceError(f"git could not list the files of {root} to record an edit: {first}")
    return done.stdout


def _relative(root: Path, path: str) -> str | None:
    """``path`` relative to the work tree (an agent names files absolutely); None when outside it."""
    if os.path.isabs(path):
        real_root = os.path.realpath(root)
        real = os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
        rel = os.path.relpath(real, real_root)
    else:
        rel = os.path.normpath(path)
    rel = rel.replace(os.sep, "/")
    if rel == "." or rel.startswith("../") or rel == "..":
        return None
    return rel


def _internal(rel: str) -> bool:
    parts = rel.split("/")
    return parts[0] == SHADOW_DIR or ".git" in parts


def _recordable(root: Path, paths: Sequence[str]) -> list[str]:
    """Those of ``paths`` the project's git would record: tracked, or untracked and not ignored."""
    rels = sorted({r for r in (_relative(root, p) for p in paths) if r and not _internal(r)})
    if not rels:
        return []
    out = _git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *rels)
    listed = {p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p}
    return sorted(p for p in listed if not p.endswith("/") and not _internal(p))


def _changed_paths(root: Path) -> list[str]:
    """The files Segmint's changes are read from (``git.changed_paths``), but for its own."""
    try:
        found = changed_paths(Git(root))
    except SegmintError as exc:  # git missing, or failing in a repository it cannot read
        raise DamagedProvenanceError(f"git could not list the files of {root} to record an edit: {exc}") from exc
    except OSError as exc:
        raise DamagedProvenanceError(f"Cannot run git in {root} to record an edit ({exc.strerror}).") from exc
    return [rel for rel in found if not _internal(rel)]
