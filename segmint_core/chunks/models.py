"""What a loaded diff is made of: file sections, the chunks cut from them, the session.

A chunk does not copy text: it names runs of hunks of file sections, and its
text is rendered when asked for. Sizes are counted in diff lines, the file
header and every ``@@`` line included, so a chunk's ``line_count`` is the
number of lines its raw text has.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from segmint_core.changes.models import Hunk

STAGED = "staged"
UNSTAGED = "unstaged"
UNTRACKED = "untracked"

# Why a section is in no chunk.
EXCLUDED = "excluded"  # include_patterns / exclude_patterns
GENERATED = "generated"  # lock files, minified assets, build outputs, vendored trees
TRIVIAL = "trivial"  # whitespace-only


def hunk_size(h: Hunk) -> int:
    """Lines of ``h``'s text, its ``@@`` line included (without splitting the body)."""
    body = h.body
    if body is None:
        return 1 + len(h.lines)
    if h.old_lines == 0 or h.new_lines == 0:
        # A pure insertion or deletion (most of a big diff's bytes, in new files)
        # has as many lines as its header says, plus perhaps a "\ No newline"
        # marker: no need to count them.
        last_line = body[body.rfind(b"\n") + 1 :]
        return 1 + h.old_lines + h.new_lines + (last_line[:1] == b"\\")
    return 2 + body.count(b"\n")


def hunk_body(h: Hunk) -> str | None:
    """The hunk's lines joined by newlines, or None when it has none."""
    body = h.body  # read once: another reader may split it into lines meanwhile
    if body is not None:
        return body.decode("utf-8", "surrogateescape")
    return "\n".join(h.lines) if h.lines else None


def hunk_chars(h: Hunk) -> int:
    """About the hunk's size in characters (bytes of a raw body), for token estimates."""
    body = h.body
    if body is not None:
        return len(h.header) + len(body) + 1
    return len(h.header) + (sum(len(line) + 1 for line in h.lines) if h.lines else 0)


@dataclass(eq=False)
class FileSection:
    """One file's section of the diff: its header lines and its hunks.

    In the working tree a file has a section per layer (staged, then unstaged
    or untracked), and its hunks carry Segmint hunk ids (``change-3:2``).
    """

    path: str  # after the change; the old path for a deletion
    old_path: str | None  # before a rename or copy, else None
    status: str
    binary: bool
    old_mode: str | None
    new_mode: str | None
    header_lines: list[str]
    hunks: list[Hunk]
    layer: str | None = None  # working tree only
    hunk_sizes: list[int] = field(default_factory=list)
    skipped: str | None = None  # EXCLUDED, GENERATED or TRIVIAL when in no chunk

    def measure(self) -> None:
        self.hunk_sizes = [hunk_size(h) for h in self.hunks]

    @property
    def line_count(self) -> int:
        return len(self.header_lines) + sum(self.hunk_sizes)

    @property
    def paths(self) -> tuple[str, ...]:
        return (self.path,) if self.old_path is None else (self.path, self.old_path)

    @property
    def has_hunk_ids(self) -> bool:
        return self.layer is not None


@dataclass(eq=False)
class ChunkPart:
    """Hunks ``start:stop`` of one section, under the section's header."""

    section: FileSection
    start: int
    stop: int
    line_count: int

    @property
    def hunks(self) -> list[Hunk]:
        return self.section.hunks[self.start : self.stop]

    @property
    def char_count(self) -> int:
        header = sum(len(line) + 1 for line in self.section.header_lines)
        return header + sum(hunk_chars(h) + 1 for h in self.hunks)


@dataclass(eq=False)
class Chunk:
    number: int
    parts: list[ChunkPart]
    line_count: int
    parent_file: str | None = None  # set on the pieces of a file split over chunks
    sub_chunk_index: int | None = None  # 1-based position of that piece
    sub_chunk_count: int | None = None
    oversized: bool = False  # one hunk alone is over max_chunk_lines

    @property
    def files(self) -> list[str]:
        return list(dict.fromkeys(part.section.path for part in self.parts))

    @property
    def char_count(self) -> int:
        return sum(part.char_count for part in self.parts)

    @property
    def token_count(self) -> int:
        """A rough token estimate: characters / 4, as diffchunk counts."""
        return self.char_count // 4

    @property
    def hunk_ids(self) -> list[str] | None:
        """Segmint hunk ids held (working tree only), each once, in diff order."""
        if not any(part.section.has_hunk_ids for part in self.parts):
            return None
        return list(dict.fromkeys(h.id for part in self.parts for h in part.hunks))


@dataclass(frozen=True)
class LoadOptions:
    max_chunk_lines: int = 1000
    skip_trivial: bool = True
    skip_generated: bool = True
    include_patterns: tuple[str, ...] = ()
    exclude_patterns: tuple[str, ...] = ()
    context_lines: int | None = None


@dataclass(eq=False)
class DiffSession:
    """One loaded diff: every section (skipped ones too) and the chunks cut from the rest."""

    source: str  # the canonical file path, or "working-tree"
    content_hash: str  # sha-256 of the file, or the working tree's fingerprint
    options: LoadOptions
    sections: list[FileSection]
    chunks: list[Chunk]
    encoding: dict | None = None  # how a file was read (None for the working tree)
    repo_root: str | None = None  # working tree only

    @property
    def is_working_tree(self) -> bool:
        return self.repo_root is not None

    @property
    def total_lines(self) -> int:
        return sum(c.line_count for c in self.chunks)

    @property
    def file_count(self) -> int:
        """Distinct paths in the chunks."""
        return len({part.section.path for c in self.chunks for part in c.parts})

    def skipped_count(self, reason: str) -> int:
        return sum(1 for s in self.sections if s.skipped == reason)

    def chunks_of(self, section: FileSection) -> list[int]:
        return [c.number for c in self.chunks if any(p.section is section for p in c.parts)]
