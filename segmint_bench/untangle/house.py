"""How large a case's house's commits run, as the engine reads it at the case's base.

The one-intent gate weighs a change's extent against the repository's own
commits (``History.sizes``: the files each of the last ``HISTORY_COMMITS``
first-parent commits touched, a sweep counted as ``SWEEP_FILES + 1``). Read
at each case's base it would cost a ``git log`` per case, so the whole
first-parent history is read once per repository and each case takes the
commits from its base back; cached by the repository's head.
"""

from __future__ import annotations

from segmint_bench.untangle.cache import Cache, source_hash
from segmint_bench.untangle.corpus import source_head
from segmint_bench.untangle.workspace import Workspace
from segmint_core.grouping.history import HISTORY_COMMITS, SWEEP_FILES, commit_paths
from segmint_core.history import read_history

SOURCES = ("segmint_core/history.py", "segmint_core/grouping/history.py", "segmint_bench/untangle/house.py")
ALL = 10**9  # commits: the whole first-parent history


def house_sizes(repo: str, bases: list[str], cache: Cache) -> list[tuple[int, ...] | None]:
    """Per base, ``History.sizes`` at it; None for a base off the first-parent line of the head."""
    key = f"{source_head(repo)}-{source_hash(SOURCES)}"
    line: tuple[list[str], list[int]] | None = cache.get("house", key)
    if line is None:
        with Workspace(repo) as workspace:
            past = read_history(workspace.git, workspace.head(), limit=ALL)
        line = ([c.sha for c in past], [len(commit_paths(c)) for c in past])
        cache.put("house", key, line)
    shas, counts = line
    position = {sha: n for n, sha in enumerate(shas)}
    return [_sizes(counts[position[b] : position[b] + HISTORY_COMMITS]) if b in position else None for b in bases]


def _sizes(counts: list[int]) -> tuple[int, ...]:
    """What ``History.sizes`` holds for these commits: empty ones left out, sweeps capped."""
    return tuple(min(c, SWEEP_FILES + 1) for c in counts if c)
