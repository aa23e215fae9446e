"""The diff-chunk tools (after diffchunk): one method per MCP tool.

Every method returns a ``ToolResult``: readable text for the agent and a dict
for ``structuredContent``; bad input raises a ``SegmintError`` with one
deterministic sentence. The dict shapes follow diffchunk 0.2.0, with additions
(never renames). Every tool but ``get_current_overview`` loads its diff on first
use, and loads it again when the file (or the working tree) has changed.

Where diffchunk differs: line counts are the lines of the diff text (blank
ones and repeated headers included), so a chunk's ``lines`` is what
``get_chunk`` returns in ``raw``; raw chunks are the input's own sections, so
they apply with ``git apply``.
"""

from __future__ import annotations

import json
import os

from segmint_core.changes.models import wire_text
from segmint_core.chunks.errors import ChunkArgumentError
from segmint_core.chunks.filters import split_patterns
from segmint_core.chunks.formatting import (
    FORMATS,
    context_header,
    oversize_note,
    raw_parts,
    render_parts,
    whole_section,
)
from segmint_core.chunks.lookup import chunks_matching, find_file, skipped_matching
from segmint_core.chunks.models import Chunk, DiffSession, LoadOptions
from segmint_core.chunks.results import (
    chunk_entry,
    describe,
    find_text,
    list_text,
    load_summary,
    load_text,
    overview,
    overview_text,
)
from segmint_core.chunks.store import SessionStore
from segmint_core.roots import AllowedRoots
from segmint_core.toolresult import ToolResult

RESOURCE_URI = "diffchunk://current"

# The tools, in the order they are best listed; all are read-only.
TOOL_NAMES = (
    "load_diff",
    "list_chunks",
    "get_chunk",
    "find_chunks_for_files",
    "get_file_diff",
    "get_current_overview",
)


class ChunkService:
    """Large diffs cut into numbered chunks an agent can list, search and read.

    ``repo_root`` is the repository that ``working-tree`` names (default: the
    one containing the current directory, found on first use). With ``roots``
    (as the MCP server has), diff files outside them are refused.
    """

    def __init__(self, repo_root: str | os.PathLike[str] | None = None, *, roots: AllowedRoots | None = None) -> None:
        self.store = SessionStore(repo_root, roots)

    # -- tools -------------------------------------------------------------------

    def load_diff(
        self,
        absolute_file_path: str,
        max_chunk_lines: int = 1000,
        skip_trivial: bool = True,
        skip_generated: bool = True,
        include_patterns: str | None = None,
        exclude_patterns: str | None = None,
        context_lines: int | None = None,
    ) -> ToolResult:
        """Load a diff file (or the working tree) with custom chunking settings.

        Use this only for non-default settings; list_chunks, get_chunk,
        find_chunks_for_files and get_file_diff load the diff by themselves with
        the defaults (and keep the settings given here when the file changes).
        The diff is cut at file boundaries into chunks of at most max_chunk_lines
        lines; a file larger than that is split at hunk boundaries, its header
        repeated in each piece.

        Args:
            absolute_file_path: absolute path of a diff or patch file (`~` allowed,
                any text encoding, .gz accepted) inside the repository or a folder
                the person allowed, or "working-tree" for the repository's
                uncommitted changes (chunks then name Segmint hunk ids).
            max_chunk_lines: most lines per chunk (default 1000).
            skip_trivial: leave out files whose change is whitespace only (default true).
            skip_generated: leave out lock files, minified assets, build outputs
                and vendored trees (default true).
            include_patterns: comma-separated globs; only matching files are kept.
            exclude_patterns: comma-separated globs of files to leave out.
            context_lines: keep at most this many context lines around each change.

        Returns chunks, files, total_lines, file_path and files_excluded (files
        left out by the patterns), plus the files skipped as generated or
        trivial, the oversized chunks and how the file was decoded.
        """
        options = load_options(
            max_chunk_lines,
            skip_trivial,
            skip_generated,
            include_patterns,
            exclude_patterns,
            context_lines,
        )
        session = self.store.load(absolute_file_path, options)
        data = load_summary(session)
        return ToolResult(load_text(session, data), data)

    def list_chunks(self, absolute_file_path: str) -> ToolResult:
        """List every chunk of a diff: its files with their line counts, its line
        count, an estimated token count and a one-line summary.

        Start here to see the scope of a large diff before reading chunks with
        get_chunk. Loads the diff with default settings if it is not loaded.
        Pieces of one large file carry parent_file and sub_chunk_index; a chunk
        over the limit because one hunk is (it cannot be cut) is marked oversized.
        For "working-tree", each chunk lists the Segmint hunk ids it holds
        (usable with move_hunks). total_token_count helps plan a context budget.

        Args:
            absolute_file_path: absolute path of the diff file, or "working-tree".
        """
        session = self.store.get(absolute_file_path)
        chunks = [chunk_entry(c) for c in session.chunks]
        data = {
            "file_path": wire_text(session.source),
            "chunks": chunks,
            "total_chunks": len(chunks),
            "total_lines": session.total_lines,
            "total_token_count": sum(c["token_count"] for c in chunks),
        }
        return ToolResult(list_text(session, data), data)

    def get_chunk(
        self,
        absolute_file_path: str,
        chunk_number: int,
        include_context: bool = True,
        format: str = "raw",
    ) -> ToolResult:
        """Read one chunk of a diff (numbers start at 1; list_chunks shows them all).

        Loads the diff with default settings if it is not loaded.

        Args:
            absolute_file_path: absolute path of the diff file, or "working-tree".
            chunk_number: the chunk to read, from 1.
            include_context: put a header above the chunk: its number, files,
                line count, and (working tree) its hunk ids (default true).
            format: "raw" (the diff itself, default), "annotated" (per hunk the
                new side with new-file line numbers, then the removed lines) or
                "compact" (the new side only).
        """
        if format not in FORMATS:
            raise ChunkArgumentError(f"format must be one of {', '.join(FORMATS)}, not {format!r}.")
        session = self.store.get(absolute_file_path)
        chunk = chunk_by_number(session, chunk_number)
        body = render_parts(chunk.parts, format)
        limit = session.options.max_chunk_lines
        text = context_header(chunk, len(session.chunks), limit) + body if include_context else body
        data = chunk_entry(chunk)
        data.update(
            {
                "total_chunks": len(session.chunks),
                "format": format,
                "oversize_note": oversize_note(chunk, limit),
                "content": body,
            }
        )
        return ToolResult(text, data)

    def find_chunks_for_files(self, absolute_file_path: str, pattern: str) -> ToolResult:
        """Find the chunks holding files that match a glob pattern (case-insensitive;
        `*` also crosses `/`): "*.py", "*test*", "src/*", "README.md".

        Loads the diff with default settings if it is not loaded. Returns the
        chunk numbers (read them with get_chunk) and the matching files.

        Args:
            absolute_file_path: absolute path of the diff file, or "working-tree".
            pattern: a glob matched against each file's path (and old path if renamed).
        """
        if not isinstance(pattern, str) or not pattern.strip():
            raise ChunkArgumentError("pattern must be a non-empty glob, such as '*' for every file, '*.py' or 'src/*'.")
        pattern = pattern.strip()
        session = self.store.get(absolute_file_path)
        numbers, files = chunks_matching(session, pattern)
        skipped = skipped_matching(session, pattern)
        data = {
            "pattern": pattern,
            "chunks": numbers,
            "files": [wire_text(f) for f in files],
            "skipped_files": [{"path": wire_text(s.path), "reason": s.skipped} for s in skipped],
        }
        return ToolResult(find_text(session, data), data)

    def get_file_diff(self, absolute_file_path: str, file_path: str) -> ToolResult:
        """Get the whole diff of one file: its header and all its hunks.

        Use this for one file's changes without reading whole chunks (list_chunks
        shows each file's line count). The file is found by exact path, then
        case-insensitively, then as a glob that must match exactly one file;
        files left out of the chunks by the filters are found too. Loads the diff
        with default settings if it is not loaded.

        Args:
            absolute_file_path: absolute path of the diff file, or "working-tree".
            file_path: the file's path in the diff, or a glob matching just it.
        """
        if not isinstance(file_path, str) or not file_path.strip():
            raise ChunkArgumentError("file_path must be a non-empty path or glob of a file in the diff.")
        session = self.store.get(absolute_file_path)
        path, sections = find_file(session, file_path.strip())
        parts = [whole_section(s) for s in sections]
        content = raw_parts(parts)
        chunk_numbers = sorted({n for s in sections for n in session.chunks_of(s)})
        hunk_ids = list(dict.fromkeys(h.id for s in sections for h in s.hunks))
        data = {
            "file_path": wire_text(path),
            "sections": len(sections),
            "chunks": chunk_numbers,
            "lines": sum(p.line_count for p in parts),
            "skipped": next((s.skipped for s in sections if s.skipped), None),
            "hunk_ids": hunk_ids if session.is_working_tree else None,
            "content": content,
        }
        return ToolResult(content, data)

    def get_current_overview(self) -> ToolResult:
        """Show every loaded diff (and the working tree, if loaded) with its chunk,
        file and line counts. Loads nothing."""
        data = overview(self.store.sessions())
        return ToolResult(overview_text(data), data)

    def current_resource(self) -> str:
        """The content of the ``diffchunk://current`` resource: the overview as JSON."""
        return json.dumps(overview(self.store.sessions()), indent=2, ensure_ascii=False)


# -- arguments ----------------------------------------------------------------------


def load_options(
    max_chunk_lines: int,
    skip_trivial: bool,
    skip_generated: bool,
    include_patterns: str | None,
    exclude_patterns: str | None,
    context_lines: int | None,
) -> LoadOptions:
    if isinstance(max_chunk_lines, bool) or not isinstance(max_chunk_lines, int) or max_chunk_lines < 1:
        raise ChunkArgumentError(f"max_chunk_lines must be a positive integer, not {max_chunk_lines!r}.")
    if context_lines is not None and (
        isinstance(context_lines, bool) or not isinstance(context_lines, int) or context_lines < 0
    ):
        raise ChunkArgumentError(f"context_lines must be a non-negative integer or omitted, not {context_lines!r}.")
    for name, value in (("include_patterns", include_patterns), ("exclude_patterns", exclude_patterns)):
        if value is not None and not isinstance(value, str):
            raise ChunkArgumentError(f"{name} must be a string of comma-separated globs, not {value!r}.")
    return LoadOptions(
        max_chunk_lines=max_chunk_lines,
        skip_trivial=bool(skip_trivial),
        skip_generated=bool(skip_generated),
        include_patterns=split_patterns(include_patterns),
        exclude_patterns=split_patterns(exclude_patterns),
        context_lines=context_lines,
    )


def chunk_by_number(session: DiffSession, number: int) -> Chunk:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ChunkArgumentError(f"chunk_number must be a positive integer, not {number!r}.")
    total = len(session.chunks)
    if number > total:
        if total == 0:
            raise ChunkArgumentError(f"Chunk {number} does not exist: {describe(session)} has no chunks.")
        raise ChunkArgumentError(
            f"Chunk {number} does not exist: {describe(session)} has {total} chunks (1-{total}); "
            "list_chunks shows what each holds."
        )
    return session.chunks[number - 1]
