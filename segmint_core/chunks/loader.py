"""Building a ``DiffSession``: a diff file or the working tree, filtered and chunked."""

from __future__ import annotations

from typing import Callable

from segmint_core.changes.capture import ChangeSet
from segmint_core.changes.models import FilePatch
from segmint_core.changes.parser import parse_diff
from segmint_core.chunks.chunker import cut_chunks
from segmint_core.chunks.context import reduce_context
from segmint_core.chunks.encoding import decode_diff
from segmint_core.chunks.filters import skip_reason
from segmint_core.chunks.models import (
    STAGED,
    UNSTAGED,
    UNTRACKED,
    DiffSession,
    FileSection,
    LoadOptions,
)
from segmint_core.chunks.source import WORKING_TREE, DiffFile
from segmint_core.errors import DiffParseError


def load_file(diff: DiffFile, options: LoadOptions, content_hash: Callable[[], str]) -> DiffSession:
    """The session for a diff file's bytes; ``content_hash`` is asked for last
    (it may be computed in another thread meanwhile)."""
    if not diff.data or diff.data.isspace():
        raise DiffParseError(f"{diff.path} is empty; a diff file holds at least one file section.")
    decoded = decode_diff(diff.data, diff.path)
    try:
        patches = parse_diff(decoded.data, strict=False)
    except DiffParseError as exc:
        raise DiffParseError(f"{diff.path} cannot be parsed as a diff: {exc}") from None
    if not patches:
        raise DiffParseError(
            f"{diff.path} is not a diff: it holds no file sections ('diff --git' lines or '---'/'+++' header pairs)."
        )
    encoding = decoded.report()
    encoding["compressed"] = "gzip" if diff.compressed else None
    sections = [section_of(fp) for fp in patches]
    return _session(diff.path, content_hash(), options, sections, encoding=encoding)


def load_working_tree(changes: ChangeSet, repo_root: str, options: LoadOptions) -> DiffSession:
    """The session for a repository's uncommitted changes, hunks named by their ids."""
    sections: list[FileSection] = []
    for change in changes.changes:
        if change.staged_patch is not None:
            sections.append(section_of(change.staged_patch, STAGED))
        if change.unstaged_patch is not None:
            layer = UNTRACKED if change.untracked else UNSTAGED
            sections.append(section_of(change.unstaged_patch, layer))
    assert changes.fingerprint is not None, "a full capture names the state it read"
    return _session(WORKING_TREE, changes.fingerprint, options, sections, repo_root=repo_root)


def section_of(fp: FilePatch, layer: str | None = None) -> FileSection:
    return FileSection(
        path=fp.path,
        old_path=fp.old_path if fp.old_path not in (None, fp.path) else None,
        status=fp.status,
        binary=fp.binary,
        old_mode=fp.old_mode,
        new_mode=fp.new_mode,
        header_lines=fp.header_lines,
        hunks=fp.hunks,
        layer=layer,
    )


def _session(source: str, content_hash: str, options: LoadOptions, sections: list[FileSection], **extra) -> DiffSession:
    kept: list[FileSection] = []
    for section in sections:
        section.skipped = skip_reason(section, options)
        if section.skipped is None:
            kept.append(section)
    for section in sections:
        if options.context_lines is not None and section.hunks:
            section.hunks = reduce_context(section.hunks, options.context_lines)
        section.measure()
    chunks = cut_chunks(kept, options.max_chunk_lines)
    return DiffSession(source, content_hash, options, sections, chunks, **extra)
