"""Files rewritten in another format: one deleted and another added in its place.

``docs/changes.md`` deleted and ``docs/changes.rst`` added (the same folder and
name, another extension) is one file converted, which git's rename detection
misses once most lines change. Commit titles and group summaries name it so.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath


def conversions(paths: Iterable[str], added: Iterable[str], deleted: Iterable[str]) -> list[tuple[str, str]]:
    """The ``(old, new)`` pairs, where every one of ``paths`` is in one; else none."""
    by_stem = {PurePosixPath(p).with_suffix(""): p for p in added if PurePosixPath(p).suffix}
    pairs = [
        (old, by_stem[stem])
        for old in deleted
        if PurePosixPath(old).suffix and (stem := PurePosixPath(old).with_suffix("")) in by_stem
    ]
    return pairs if pairs and {p for pair in pairs for p in pair} == set(paths) else []


def conversion_text(pairs: list[tuple[str, str]], olds: str) -> str:
    """What ``pairs`` convert, ``olds`` naming the old files together (``api.md and cli.md``):
    ``changes.md to changes.rst``, ``api.md and cli.md to .rst``."""
    if len(pairs) == 1:
        return f"{PurePosixPath(pairs[0][0]).name} to {PurePosixPath(pairs[0][1]).name}"
    suffixes = {PurePosixPath(new).suffix for _, new in pairs}
    return f"{olds} to {suffixes.pop()}" if len(suffixes) == 1 else olds
