"""The changed paths whose content is never sent to a model: those git's ignore rules match.

Untracked ignored files are never captured at all (``changes.capture`` lists
untracked files with ``--exclude-standard``); this also catches a tracked file
an ignore rule matches (one added with ``git add -f``, a ``.env`` committed
before the rule), by asking git's own matcher with ``--no-index``.
"""

from __future__ import annotations

from segmint_core.git import Git, decode, encode


def withheld_paths(git: Git | None, paths: list[str]) -> set[str]:
    """The paths among ``paths`` that a ``.gitignore`` (or ``info/exclude``, ``core.excludesFile``) matches."""
    paths = [p for p in dict.fromkeys(paths) if p]
    if git is None or not paths:
        return set()
    request = b"".join(encode(p) + b"\0" for p in paths)
    result = git.run("check-ignore", "--no-index", "-z", "--stdin", input=request, check=False)
    if result.returncode not in (0, 1):   # 1: none of them is ignored
        return set(paths)                  # git cannot say: send nothing of any file
    return {decode(p) for p in result.stdout.split(b"\0") if p}
