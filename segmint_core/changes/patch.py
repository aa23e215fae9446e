"""Rebuilding patch text from the model: a whole file, or any subset of its hunks.

Hunks of one file section do not overlap in the base, so a subset applies to
that base once each kept hunk's new-side start is shifted by the line-count
delta of the kept hunks before it.
"""

from __future__ import annotations

from collections.abc import Iterable

from segmint_core.changes.models import FilePatch, Hunk
from segmint_core.changes.parser import HUNK_HEADER


def _range(start: int, count: int) -> str:
    return str(start) if count == 1 else f"{start},{count}"


def hunk_header(old_start: int, old_lines: int, new_start: int, new_lines: int, section: str = "") -> str:
    return f"@@ -{_range(old_start, old_lines)} +{_range(new_start, new_lines)} @@{section}"


def section_of(header: str) -> str:
    """The text after the closing ``@@`` (git's function context), with its space."""
    m = HUNK_HEADER.match(header)
    return header[m.end() :] if m else ""


def render_hunks(hunks: Iterable[Hunk]) -> list[str]:
    """Hunk headers and bodies, new-side starts renumbered for this subset."""
    out: list[str] = []
    delta = 0
    for h in hunks:
        # An empty side names the line *before* the change, hence the +1/-1.
        new_start = h.old_start + delta + (h.old_lines == 0) - (h.new_lines == 0)
        out.append(hunk_header(h.old_start, h.old_lines, new_start, h.new_lines, section_of(h.header)))
        out.extend(h.lines)
        delta += h.new_lines - h.old_lines
    return out


def build_patch(fp: FilePatch, hunks: Iterable[Hunk] | None = None) -> str:
    """Patch text for ``fp`` with only ``hunks`` (default: all), ending in a newline.

    A type change is git's two sections again: the removal, then the addition.
    """
    chosen = fp.hunks if hunks is None else _in_file_order(fp, hunks)
    second = next((i for i, line in enumerate(fp.header_lines) if i and line.startswith("diff ")), None)
    if not fp.typechange or second is None:
        return "\n".join([*fp.header_lines, *render_hunks(chosen)]) + "\n"
    removal = [h for h in chosen if h.old_lines]
    addition = [h for h in chosen if not h.old_lines]
    lines = [*fp.header_lines[:second], *render_hunks(removal), *fp.header_lines[second:], *render_hunks(addition)]
    return "\n".join(lines) + "\n"


def _in_file_order(fp: FilePatch, hunks: Iterable[Hunk]) -> list[Hunk]:
    wanted = {id(h) for h in hunks}
    return [h for h in fp.hunks if id(h) in wanted]
