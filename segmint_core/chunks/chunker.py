"""Cutting file sections into chunks of at most ``max_chunk_lines`` lines.

Whole sections fill a chunk up to the limit. A section larger than the limit
gets chunks of its own, cut at hunk boundaries, each piece under the section's
header again. Only a piece holding a single hunk (or a section without hunks)
may exceed the limit; such a chunk is marked ``oversized``.
"""

from __future__ import annotations

from segmint_core.chunks.models import Chunk, ChunkPart, FileSection


def cut_chunks(sections: list[FileSection], limit: int) -> list[Chunk]:
    chunks: list[Chunk] = []
    pending: list[ChunkPart] = []
    pending_lines = 0

    def flush() -> None:
        nonlocal pending, pending_lines
        if pending:
            chunks.append(Chunk(len(chunks) + 1, pending, pending_lines))
            pending, pending_lines = [], 0

    for section in sections:
        size = section.line_count
        if size <= limit:
            if pending_lines + size > limit:
                flush()
            pending.append(ChunkPart(section, 0, len(section.hunks), size))
            pending_lines += size
            continue
        flush()
        pieces = split_section(section, limit)
        split = len(pieces) > 1
        for index, part in enumerate(pieces, start=1):
            chunks.append(
                Chunk(
                    number=len(chunks) + 1,
                    parts=[part],
                    line_count=part.line_count,
                    parent_file=section.path if split else None,
                    sub_chunk_index=index if split else None,
                    sub_chunk_count=len(pieces) if split else None,
                    oversized=part.line_count > limit,
                )
            )
    flush()
    return chunks


def split_section(section: FileSection, limit: int) -> list[ChunkPart]:
    """Runs of whole hunks, each with the header at most ``limit`` lines when it can be."""
    header = len(section.header_lines)
    sizes = section.hunk_sizes
    pieces: list[ChunkPart] = []
    start, lines = 0, header
    for i, size in enumerate(sizes):
        if i > start and lines + size > limit:
            pieces.append(ChunkPart(section, start, i, lines))
            start, lines = i, header
        lines += size
    pieces.append(ChunkPart(section, start, len(sizes), lines))
    return pieces
