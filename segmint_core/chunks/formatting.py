"""Rendering chunks as text: raw diff, annotated, compact, and the context header.

``raw`` is the diff itself: the chunk's sections as they stand in the input (a
split file's header repeated), so a raw chunk applies with ``git apply``.
``annotated`` and ``compact`` are diffchunk's formats: per file a
``## File: 'path'`` line, per hunk a ``__new hunk__`` block numbered with
new-file line numbers and (annotated only) an ``__old hunk__`` block with the
removed lines. In the working tree, hunk blocks also name their hunk id.

Everything returned here is wire-safe: undecodable bytes appear as ``\\xNN``.
"""

from __future__ import annotations

from segmint_core.changes.models import wire_text
from segmint_core.changes.patch import section_of as hunk_section
from segmint_core.chunks.models import Chunk, ChunkPart, FileSection, hunk_body
from segmint_core.wording import counted

RAW = "raw"
ANNOTATED = "annotated"
COMPACT = "compact"
FORMATS = (RAW, ANNOTATED, COMPACT)

RULE = "=" * 50


# -- raw ---------------------------------------------------------------------


def raw_part(part: ChunkPart) -> str:
    out = list(part.section.header_lines)
    for h in part.hunks:
        out.append(h.header)
        body = hunk_body(h)
        if body is not None:
            out.append(body)
    return "\n".join(out) + "\n"


def raw_parts(parts: list[ChunkPart]) -> str:
    return wire_text("".join(raw_part(p) for p in parts))


def whole_section(section: FileSection) -> ChunkPart:
    return ChunkPart(section, 0, len(section.hunks), section.line_count)


# -- annotated and compact ---------------------------------------------------------


def annotated_parts(parts: list[ChunkPart], *, with_old: bool) -> str:
    out: list[str] = []
    for part in parts:
        section = part.section
        label = f" ({section.layer})" if section.layer else ""
        out.append(f"## File: '{section.path}'{label}")
        if not section.hunks:
            out.append(describe_without_hunks(section))
        for h in part.hunks:
            _annotate_hunk(out, h, with_old=with_old)
    return wire_text("\n".join(out) + "\n")


def _annotate_hunk(out: list[str], h, *, with_old: bool) -> None:
    context = hunk_section(h.header).strip()
    hunk_id = f" ({h.id})" if h.id else ""
    suffix = f"{hunk_id} | {context}" if context else hunk_id
    new_side: list[str] = []
    old_side: list[str] = []
    new_no = h.new_start
    has_old = False
    for line in h.lines:
        mark, text = line[:1], line[1:]
        if mark == "+":
            new_side.append(f"{new_no:>4} +{text}")
            new_no += 1
        elif mark == "-":
            old_side.append(f"    -{text}")
            has_old = True
        elif mark in (" ", ""):
            new_side.append(f"{new_no:>4}  {text}")
            old_side.append(f"     {text}")
            new_no += 1
    if new_side:
        out.append(f"__new hunk__{suffix}")
        out.extend(new_side)
    if with_old and has_old:
        out.append(f"__old hunk__{suffix}")
        out.extend(old_side)


def describe_without_hunks(section: FileSection) -> str:
    """One line for a file section that has no text hunks."""
    if section.binary:
        change = "changed" if section.status in ("binary", "modified") else section.status
        return f"(binary file {change})"
    if section.old_path is not None:
        return f"({section.status} from '{section.old_path}', content unchanged)"
    if section.old_mode and section.new_mode and section.old_mode != section.new_mode:
        return f"(mode changed from {section.old_mode} to {section.new_mode})"
    if section.status in ("added", "deleted"):
        return f"({section.status} empty file)"
    return f"({section.status}, no text hunks)"


def render_parts(parts: list[ChunkPart], fmt: str) -> str:
    if fmt == ANNOTATED:
        return annotated_parts(parts, with_old=True)
    if fmt == COMPACT:
        return annotated_parts(parts, with_old=False)
    return raw_parts(parts)


# -- chunk metadata ----------------------------------------------------------------


def chunk_summary(chunk: Chunk) -> str:
    """diffchunk's one-line summary: ``3 files, 120 lines`` or ``a.py (part 2 of 4), 990 lines``."""
    if chunk.parent_file is not None:
        head = f"{chunk.parent_file} (part {chunk.sub_chunk_index} of {chunk.sub_chunk_count})"
    else:
        head = counted(len(chunk.files), "file")
    return wire_text(f"{head}, {chunk.line_count} lines")


def oversize_note(chunk: Chunk, limit: int) -> str | None:
    if not chunk.oversized:
        return None
    part = chunk.parts[0]
    what = "one hunk" if part.stop - part.start == 1 else "the file header"
    return wire_text(
        f"{what} of {part.section.path} has {chunk.line_count} lines with its header, "
        f"more than max_chunk_lines ({limit}), and cannot be cut further"
    )


def context_header(chunk: Chunk, total: int, limit: int) -> str:
    """The block ``get_chunk`` puts above a chunk when ``include_context`` is on."""
    lines = [
        f"=== Chunk {chunk.number} of {total} ===",
        f"Files: {', '.join(chunk.files)}",
        f"Lines: {chunk.line_count}",
    ]
    if chunk.parent_file is not None:
        lines.append(f"Part: {chunk.sub_chunk_index} of {chunk.sub_chunk_count} of {chunk.parent_file}")
    note = oversize_note(chunk, limit)
    if note:
        lines.append(f"Oversized: {note}")
    ids = chunk.hunk_ids
    if ids is not None:
        lines.append(f"Hunks: {', '.join(ids)}")
    lines.append(RULE)
    return wire_text("\n".join(lines) + "\n")
