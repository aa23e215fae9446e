"""The tools' results: the structured data (diffchunk's shapes, with additions)
and the readable text beside it."""

from __future__ import annotations

from segmint_core.changes.models import wire_text
from segmint_core.chunks.formatting import chunk_summary
from segmint_core.chunks.models import EXCLUDED, GENERATED, TRIVIAL, Chunk, DiffSession
from segmint_core.chunks.source import WORKING_TREE
from segmint_core.wording import counted


# -- data shapes ---------------------------------------------------------------------


def load_summary(session: DiffSession) -> dict:
    data = {
        "chunks": len(session.chunks),
        "files": session.file_count,
        "total_lines": session.total_lines,
        "file_path": wire_text(session.source),
        "files_excluded": session.skipped_count(EXCLUDED),
        "files_skipped_generated": session.skipped_count(GENERATED),
        "files_skipped_trivial": session.skipped_count(TRIVIAL),
        "oversized_chunks": [c.number for c in session.chunks if c.oversized],
        "max_chunk_lines": session.options.max_chunk_lines,
        "content_hash": session.content_hash[:16],
    }
    if session.is_working_tree:
        data["repo_root"] = wire_text(session.repo_root or "")
    else:
        data["encoding"] = session.encoding
    return data


def chunk_entry(chunk: Chunk) -> dict:
    return {
        "chunk": chunk.number,
        "files": [wire_text(f) for f in chunk.files],
        "file_details": [
            {
                "path": wire_text(p.section.path),
                "lines": p.line_count,
                "status": p.section.status,
                **({"old_path": wire_text(p.section.old_path)} if p.section.old_path else {}),
                **({"layer": p.section.layer} if p.section.layer else {}),
            }
            for p in chunk.parts
        ],
        "lines": chunk.line_count,
        "token_count": chunk.token_count,
        "summary": chunk_summary(chunk),
        "parent_file": wire_text(chunk.parent_file) if chunk.parent_file is not None else None,
        "sub_chunk_index": chunk.sub_chunk_index,
        "sub_chunk_count": chunk.sub_chunk_count,
        "oversized": chunk.oversized,
        "hunk_ids": chunk.hunk_ids,
    }


def overview(sessions: list[DiffSession]) -> dict:
    if not sessions:
        return {"loaded": False, "total_sessions": 0, "sessions": [], "message": "No diffs currently loaded"}
    return {
        "loaded": True,
        "total_sessions": len(sessions),
        "sessions": [
            {
                "file_path": wire_text(s.source),
                "chunks": len(s.chunks),
                "files": s.file_count,
                "total_lines": s.total_lines,
                "content_hash": s.content_hash[:16],
                "max_chunk_lines": s.options.max_chunk_lines,
                **({"repo_root": wire_text(s.repo_root)} if s.repo_root else {}),
            }
            for s in sessions
        ],
    }


# -- text ---------------------------------------------------------------------------------


def describe(session: DiffSession) -> str:
    if session.is_working_tree:
        return f"the working tree of {wire_text(session.repo_root or '')}"
    return wire_text(session.source)


def load_text(session: DiffSession, data: dict) -> str:
    lines = [
        f"Loaded {describe(session)}: {counted(data['chunks'], 'chunk')}, {counted(data['files'], 'file')}, "
        f"{counted(data['total_lines'], 'line')} (at most {data['max_chunk_lines']} lines per chunk)."
    ]
    skipped = [
        f"{data['files_excluded']} by include/exclude patterns" if data["files_excluded"] else "",
        f"{data['files_skipped_generated']} generated" if data["files_skipped_generated"] else "",
        f"{data['files_skipped_trivial']} whitespace-only" if data["files_skipped_trivial"] else "",
    ]
    skipped = [s for s in skipped if s]
    if skipped:
        lines.append(f"Left out: {', '.join(skipped)}.")
    if session.is_working_tree and not session.sections:
        lines.append("The working tree is clean.")
    if data["oversized_chunks"]:
        numbers = ", ".join(str(n) for n in data["oversized_chunks"])
        lines.append(f"Oversized (a single hunk over the limit): chunk {numbers}.")
    enc = data.get("encoding")
    if enc and (enc["encoding"] != "utf-8" or enc["recoded_sections"] or enc["sections_with_undecodable_bytes"]):
        lines.append(_encoding_text(enc))
    if data["chunks"]:
        lines.append("Next: list_chunks for what each chunk holds, get_chunk to read one.")
    return "\n".join(lines)


def _encoding_text(enc: dict) -> str:
    parts = [f"Read as {enc['encoding']}"]
    for codec, count in enc["recoded_sections"].items():
        parts.append(f"{counted(count, 'file section')} re-encoded from {codec}")
    if enc["sections_with_undecodable_bytes"]:
        parts.append(
            f"{counted(enc['sections_with_undecodable_bytes'], 'file section')} with undecodable bytes shown as \\xNN"
        )
    return "; ".join(parts) + "."


def list_text(session: DiffSession, data: dict) -> str:
    lines = [
        f"{describe(session)}: {counted(data['total_chunks'], 'chunk')}, {counted(data['total_lines'], 'line')}, "
        f"~{data['total_token_count']} tokens."
    ]
    for entry in data["chunks"]:
        line = f"Chunk {entry['chunk']}: {entry['summary']}, ~{entry['token_count']} tokens"
        if entry["parent_file"] is None:
            line += ": " + ", ".join(f"{d['path']} ({d['lines']})" for d in entry["file_details"])
        if entry["oversized"]:
            line += " [oversized: one hunk over the limit]"
        lines.append(line)
        if entry["hunk_ids"] is not None:
            lines.append(f"  hunks: {', '.join(entry['hunk_ids'])}")
    if not data["chunks"]:
        lines.append("No chunks: every file was left out by the filters, or there are no changes.")
    return "\n".join(lines)


def find_text(session: DiffSession, data: dict) -> str:
    pattern = data["pattern"]
    if data["chunks"]:
        numbers = ", ".join(str(n) for n in data["chunks"])
        text = (
            f"{counted(len(data['files']), 'file')} matching {pattern!r} in chunk"
            f"{'' if len(data['chunks']) == 1 else 's'} {numbers}: {', '.join(data['files'])}."
        )
    else:
        text = f"No file in the chunks of {describe(session)} matches {pattern!r}."
    if data["skipped_files"]:
        listed = ", ".join(f"{s['path']} ({s['reason']})" for s in data["skipped_files"][:10])
        more = f" and {len(data['skipped_files']) - 10} more" if len(data["skipped_files"]) > 10 else ""
        text += f"\nMatching files left out of the chunks: {listed}{more}; get_file_diff still shows them."
    return text


def overview_text(data: dict) -> str:
    if not data["loaded"]:
        return "No diffs loaded yet; any chunk tool loads one on first use."
    lines = [f"{counted(data['total_sessions'], 'diff')} loaded:"]
    for s in data["sessions"]:
        name = s["file_path"] if "repo_root" not in s else f"{WORKING_TREE} ({s['repo_root']})"
        lines.append(
            f"{name}: {counted(s['chunks'], 'chunk')}, {counted(s['files'], 'file')}, "
            f"{counted(s['total_lines'], 'line')} (content {s['content_hash']})"
        )
    return "\n".join(lines)
