"""Which project paths may be recorded, decided by the project's own git.

Git's answer is used rather than re-implementing gitignore (pathspec): it reads
every nested ``.gitignore``, ``.git/info/exclude`` and ``core.excludesFile``,
and knows that a tracked file is recorded even when a pattern matches it.
``git ls-files`` only reads directory entries, never an ignored file's bytes,
and with ``GIT_OPTIONAL_LOCKS=0`` it never writes to the project's ``.git``.
"""

from __future__ import annotations

import os

from segmint_core.errors import disk_trouble, os_trouble
from segmint_core.git import Git, decode
from segmint_core.trajectory.errors import TrajectoryError
from segmint_core.trajectory.shadow import PATHSPEC_BATCH, SHADOW_DIR, setting_up

IGNORE_LINE = ".trajectory/"
EXCLUDE = "info/exclude"  # in the git dir: the repository's own ignore rules, in no commit


def is_internal(rel: str) -> bool:
    """Paths never recorded nor read: the shadow repository and any ``.git``."""
    parts = rel.split("/")
    return parts[0] == SHADOW_DIR or ".git" in parts


def ensure_ignored(root: str) -> bool:
    """Keep ``.trajectory/`` out of the project's changes without writing a tracked file: unless a rule
    already ignores it, add it to the repository's own ``info/exclude`` (in the git dir, never
    committed nor shared). True when the line was added."""
    project = Git(root)
    path = os.path.join(root, project.run("rev-parse", "--git-path", EXCLUDE).text.strip())
    try:
        with setting_up(root):  # two recorders starting together add it once
            if project.run("check-ignore", "-q", "--", IGNORE_LINE, check=False).returncode == 0:
                return False
            _add_ignore_line(path)
            return True
    except OSError as exc:  # a folder named exclude, a read-only file
        if disk_trouble(exc):
            raise
        raise TrajectoryError(
            f"Cannot add {IGNORE_LINE} to {path} ({os_trouble(exc)}), so git would list the "
            "timeline among your changes: fix that file to record."
        ) from exc


def _add_ignore_line(path: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        data = b""
    with open(path, "ab") as f:
        f.write((b"" if not data or data.endswith(b"\n") else b"\n") + IGNORE_LINE.encode() + b"\n")


def recordable_paths(project: Git, pathspecs: list[str] | None) -> set[str]:
    """Files under ``pathspecs`` (all when None) that the project's git would record.

    Tracked files (even deleted ones, so their removal is recorded) and untracked
    files its ignore rules allow. Pathspecs are literal paths (files or folders).
    """
    found: set[str] = set()
    batches = (
        [[]]
        if pathspecs is None
        else [pathspecs[i : i + PATHSPEC_BATCH] for i in range(0, len(pathspecs), PATHSPEC_BATCH)]
    )
    for batch in batches:
        out = project.run(
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
            f"--exclude=/{SHADOW_DIR}/",
            "--",
            *batch,
            env={"GIT_LITERAL_PATHSPECS": "1"},
        ).stdout
        for raw in out.split(b"\0"):
            rel = decode(raw)
            # A trailing slash is an untracked nested repository: not ours to record.
            if rel and not rel.endswith("/") and not is_internal(rel):
                found.add(rel)
    return found
