"""A merge or rebase stopped on conflicts: said at every command that reads the changes.

``apply`` refuses to commit then (``apply.commit.refuse_unfinished``); the other commands
would propose commits without a word, so they warn first, in the same terms.
"""

from __future__ import annotations

from collections.abc import Iterable

from segmint_core.changes.models import CONFLICTED, Change
from segmint_core.git import Git
from segmint_core.wording import counted, shown


def conflict_warning(git: Git, changes: Iterable[Change]) -> str | None:
    """One sentence when some of ``changes`` are conflicted files, else None (no git call then)."""
    conflicted = [c.file_path for c in changes if c.status == CONFLICTED]
    if not conflicted:
        return None
    operation = git.operation_in_progress()
    named = ", ".join(shown(p) for p in conflicted[:5]) + (
        f" and {len(conflicted) - 5} more" if len(conflicted) > 5 else ""
    )
    during = f"{operation[0].upper()}{operation[1:]} is in progress with" if operation else "The index holds"
    return (
        f"{during} {counted(len(conflicted), 'conflicted file')} ({named}): nothing can be committed until "
        "they are resolved and staged (git add)" + (" and it is finished or aborted" if operation else "")
    )
