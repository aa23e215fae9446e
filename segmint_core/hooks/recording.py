"""A hook event applied to the repository's provenance record.

A prompt becomes the current intent (its secrets masked as ``--refine`` masks
them before anything leaves the machine); just before an edit, the files it is
about to touch are snapshotted with no intent (a person's changes to them since
are not the agent's); the edit then snapshots them at once, under that intent; a shell command snapshots whatever it
changed; a session start or end is marked. Files outside the repository are
never recorded, nor those the project's git ignores (``record_edit`` asks it).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from segmint_core.git import Git
from segmint_core.hooks.events import (
    BEFORE_EDIT,
    EDIT,
    IGNORED,
    PROMPT,
    SESSION,
    SHELL,
    HookEvent,
    project_paths,
)
from segmint_core.redact import redact


def apply_event(event: HookEvent, fallback_cwd: str) -> None:
    """Record ``event`` in the repository its ``cwd`` (else ``fallback_cwd``) is in.

    Raises ``SegmintError`` (not a repository, a damaged record) for the caller to report.
    """
    if event.action == IGNORED:
        return
    cwd = event.cwd if event.cwd and os.path.isdir(event.cwd) else fallback_cwd
    root = Git.discover(cwd).root
    from segmint_core.trajectory import provenance  # (after the cheap checks: it is the heavier import)

    where = Path(root)
    if event.action == PROMPT:
        provenance.begin_intent(
            where,
            redact_prompt(event.prompt or ""),
            source=event.agent,
            session_id=event.session_id,
            prompt_id=event.prompt_id,
        )
    elif event.action in (EDIT, BEFORE_EDIT):
        paths = project_paths(event.paths, cwd, root)
        record = provenance.record_edit if event.action == EDIT else provenance.record_before_edit
        if paths:  # (ignored files are left out by the record, which asks the project's git)
            record(where, paths, source=event.agent, session_id=event.session_id)
    elif event.action == SHELL:
        provenance.record_edit(where, None, source=event.agent, session_id=event.session_id)
    elif event.action == SESSION and event.session_id and event.session_event:
        provenance.mark_session(where, source=event.agent, session_id=event.session_id, event=event.session_event)


def redact_prompt(text: str) -> str:
    """``text`` with each sentence or line that looks like it holds a secret masked whole, as ``--refine``
    masks a diff's lines: a prompt is often one long line, and its task stays readable beside the key."""
    return "".join(part if part.isspace() or not part else redact(part) for part in _SENTENCE_GAP.split(text))


_SENTENCE_GAP = re.compile(r"((?<=[.!?;])\s+|\n+)")
