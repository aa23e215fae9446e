"""Finding files in a loaded diff: by glob (``find_chunks_for_files``) and by one path
(``get_file_diff``: exact, then case-insensitive, then glob)."""

from __future__ import annotations

import difflib
import posixpath

from segmint_core.changes.models import wire_text
from segmint_core.chunks.errors import FileNotInDiffError
from segmint_core.chunks.filters import glob_matches
from segmint_core.chunks.models import DiffSession, FileSection

MAX_CANDIDATES = 10


def chunks_matching(session: DiffSession, pattern: str) -> tuple[list[int], list[str]]:
    """Chunk numbers holding a file whose path (or old path) matches ``pattern``, and those files."""
    numbers: set[int] = set()
    files: dict[str, None] = {}
    for chunk in session.chunks:
        for part in chunk.parts:
            if any(glob_matches(p, pattern) for p in part.section.paths):
                numbers.add(chunk.number)
                files[part.section.path] = None
    return sorted(numbers), list(files)


def skipped_matching(session: DiffSession, pattern: str) -> list[FileSection]:
    return [s for s in session.sections if s.skipped and any(glob_matches(p, pattern) for p in s.paths)]


def find_file(session: DiffSession, query: str) -> tuple[str, list[FileSection]]:
    """The one file ``query`` names and all its sections (a file may have several:
    staged and unstaged, or two diffs concatenated). Errors name the candidates."""
    by_path: dict[str, list[FileSection]] = {}  # the path each section has now
    by_name: dict[str, list[FileSection]] = {}  # and its old path too, if renamed
    for section in session.sections:
        by_path.setdefault(section.path, []).append(section)
        for name in section.paths:
            by_name.setdefault(name, []).append(section)
    folded = query.lower()
    # A file's own path comes before another's old path: a file made where one was moved from.
    for found_in, rule in (
        (by_path, lambda name: name == query),
        (by_name, lambda name: name == query),
        (by_name, lambda name: wire_text(name) == query),  # a name that is not UTF-8, as shown
        (by_name, lambda name: name.lower() == folded),
        (by_name, lambda name: glob_matches(name, query)),
    ):
        names = [name for name in found_in if rule(name)]
        if names:
            break
    sections = list({id(s): s for name in names for s in found_in[name]}.values())
    files = list(dict.fromkeys(s.path for s in sections))
    if len(files) > 1:
        shown = ", ".join(wire_text(f) for f in sorted(files)[:MAX_CANDIDATES])
        more = f" (and {len(files) - MAX_CANDIDATES} more)" if len(files) > MAX_CANDIDATES else ""
        raise FileNotInDiffError(
            f"{wire_text(query)!r} matches {len(files)} files in {wire_text(session.source)}: {shown}{more}; "
            "give one exact path."
        )
    if not files:
        paths = list(dict.fromkeys(s.path for s in session.sections))
        raise FileNotInDiffError(_no_match_message(session, query, paths))
    order = {id(s): k for k, s in enumerate(session.sections)}
    return files[0], sorted(sections, key=lambda s: order[id(s)])


def _no_match_message(session: DiffSession, query: str, paths: list[str]) -> str:
    base = posixpath.basename(query).lower()
    similar = [p for p in paths if posixpath.basename(p).lower() == base]
    similar += difflib.get_close_matches(query, paths, n=MAX_CANDIDATES, cutoff=0.6)
    similar = list(dict.fromkeys(similar))[:MAX_CANDIDATES]
    if similar:
        hint = f"similar paths: {', '.join(wire_text(p) for p in similar)}"
    elif paths:
        listed = sorted(paths)[:MAX_CANDIDATES]
        more = f" (and {len(paths) - len(listed)} more)" if len(paths) > len(listed) else ""
        hint = f"files in it include: {', '.join(wire_text(p) for p in listed)}{more}"
    else:
        hint = "it holds no files"
    return (
        f"No file matching {wire_text(query)!r} in {wire_text(session.source)} ({hint}); "
        "use find_chunks_for_files to search by pattern."
    )
