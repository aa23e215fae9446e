"""The errors Segmint raises on purpose.

Every one carries a single sentence meant for a person (CLI stderr) or an agent
(MCP ``isError`` text). Anything else escaping is a bug.
"""

from __future__ import annotations

import errno

from segmint_core.wording import shown


class SegmintError(Exception):
    """Base class: a deterministic, user-facing failure."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class GitMissingError(SegmintError):
    """The ``git`` executable cannot be found."""


class NotARepositoryError(SegmintError):
    """The path is not inside a git work tree (or does not exist)."""


class GitCommandError(SegmintError):
    """A git command failed in a way Segmint did not expect."""

    def __init__(self, message: str, *, returncode: int = 1, stderr: str = "") -> None:
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


class DiffParseError(SegmintError):
    """Input that cannot be read as a unified diff."""


class UnknownIdError(SegmintError):
    """References to ids that do not exist (``Unknown commit ID: commit-9; the commits are commit-1, commit-2``).

    ``known``: the valid ids, named after the unknown ones (the first ten, and how many more)."""

    def __init__(self, kind: str, ids: list[str], known: list[str] | None = None) -> None:
        noun = "ID" if len(ids) == 1 else "IDs"
        message = f"Unknown {kind} {noun}: {', '.join(shown(i) or '(empty)' for i in ids)}"
        if known is not None:
            message += f"; the {kind}s are {_listed(known)}" if known else f"; there are no {kind}s"
        super().__init__(message)
        self.kind = kind
        self.ids = ids


class StaleReferenceError(SegmintError):
    """A reference computed against a repository state that has since changed."""


class RefusedError(SegmintError):
    """An operation refused to protect the user's work (HEAD moved, rebase, ...)."""


class UnfinishedOperationError(RefusedError):
    """A merge, rebase, cherry-pick or revert under way, or unmerged paths in the index:
    nothing is committed (or undone) until it is finished or aborted."""

    def __init__(self, doing: str, operation: str | None, unmerged: list[str]) -> None:
        if operation:
            listed = f" (unmerged: {_listed(unmerged)})" if unmerged else ""
            message = f"Cannot {doing} while {operation} is in progress{listed}; finish or abort it first"
        else:
            message = (
                f"Cannot {doing} while the index holds unmerged paths ({_listed(unmerged)}); resolve the "
                "conflicts and stage the result (git add) first"
            )
        super().__init__(message)
        self.operation = operation
        self.unmerged = unmerged


def _listed(paths: list[str], most: int = 10) -> str:
    named = ", ".join(shown(p) for p in paths[:most])
    return named if len(paths) <= most else f"{named} and {len(paths) - most} more"


class OutOfDateError(RefusedError):
    """A plan the files or its groups have moved past: commits must be proposed again."""


# A full or failing disk: the machine's trouble, not Segmint's, told as such.
DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})


def os_trouble(exc: OSError) -> str:
    """An ``OSError`` as a few words: "No space left on device: /path/to/file"."""
    where = f": {exc.filename}" if getattr(exc, "filename", None) else ""
    return f"{exc.strerror or exc}{where}"


def disk_trouble(exc: BaseException) -> str | None:
    """``os_trouble`` of a full or failing disk's error; None for anything else."""
    return os_trouble(exc) if isinstance(exc, OSError) and exc.errno in DISK_ERRNOS else None
