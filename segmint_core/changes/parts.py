"""A hunk cut by any set of its changed lines into numbered parts that each commit on their own.

Grouping cuts a hunk between runs of lines (``split.part_ranges``); a person or
an agent moves single lines (``Session.move_lines``). Both end up here: part
``n`` (from 1) of a git hunk owns a set of its changed lines, named by index
into ``hunk.lines``, in any pattern (``render_part`` shows it as a hunk).

Numbers are stable. A move gives the moved lines a new number (or the number
of the part they join) and leaves every other part its own; a part emptied by
a move keeps its number, retired, so ``change-3:2.2`` never comes to name
other lines. A hunk with one part left is shown whole again, under its own id.

Any set of a hunk's changed lines commits on its own (the line model keeps a
line another part removes, and leaves out a line another part adds), except
around the end of the file: when the old file's last line lacks its newline (a
``-`` line followed by ``\\ No newline at end of file``), every line added
after it needs that line replaced, or the commit would leave a line without
its newline in the middle of the file. That removed line and the lines added
after it are the *end-of-file block*; they stay in one part.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from segmint_core.changes.split import part_ranges
from segmint_core.errors import RefusedError, SegmintError

CHANGED = ("+", "-")
NO_NEWLINE = "\\"


class LinesMustComeAlong(RefusedError):
    """A selection that would split the end-of-file block; names the lines it lacks."""

    def __init__(self, message: str, missing: list[int]) -> None:
        super().__init__(message)
        self.missing = missing


def changed_indices(lines: Sequence[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line[:1] in CHANGED]


def eof_block(lines: Sequence[str]) -> frozenset[int]:
    """The changed lines that must stay in one part (see the module docstring); empty if none."""
    for i in range(len(lines) - 1):
        if lines[i][:1] == "-" and lines[i + 1][:1] == NO_NEWLINE:
            after = {j for j in range(i + 2, len(lines)) if lines[j][:1] == "+"}
            return frozenset({i} | after) if after else frozenset()
    return frozenset()


@dataclass(frozen=True)
class HunkParts:
    """How one git hunk is cut: part ``n`` owns ``parts[n - 1]``; an empty set is a retired number."""

    parts: tuple[frozenset[int], ...]

    @classmethod
    def whole(cls, lines: Sequence[str]) -> "HunkParts":
        return cls((frozenset(changed_indices(lines)),))

    @classmethod
    def from_cuts(cls, lines: Sequence[str], cuts: Iterable[int]) -> "HunkParts":
        """The parts ``split_hunk`` makes of ``cuts`` (contiguous runs, numbered in order)."""
        ranges = part_ranges(list(lines), list(cuts))
        changed = set(changed_indices(lines))
        return cls(tuple(frozenset(i for i in range(a, b) if i in changed) for a, b in ranges) or (frozenset(changed),))

    @classmethod
    def from_saved(cls, lines: Sequence[str], value: Sequence) -> "HunkParts":
        """Parts as saved (lists of indices), or the cuts older sessions saved (a list of ints).

        Raises ``SegmintError`` when they do not fit ``lines``: an index that is
        not a changed line, a line in two parts or in none, a split end-of-file block.
        """
        if all(isinstance(v, int) for v in value):
            return cls.from_cuts(lines, value)
        parts = cls(tuple(frozenset(int(i) for i in part) for part in value))
        parts.check(lines)
        return parts

    def to_saved(self) -> list[list[int]]:
        return [sorted(part) for part in self.parts]

    def check(self, lines: Sequence[str]) -> None:
        changed = set(changed_indices(lines))
        seen: set[int] = set()
        for part in self.parts:
            if part & seen or not part <= changed:
                raise SegmintError("The saved parts of a hunk do not fit its lines")
            seen |= part
        if seen != changed:
            raise SegmintError("The saved parts of a hunk do not cover its changed lines")
        block = eof_block(lines)
        if block and not any(block <= part for part in self.parts):
            raise SegmintError("The saved parts of a hunk split its end-of-file lines")

    # -- reading ---------------------------------------------------------------------

    def live(self) -> list[tuple[int, frozenset[int]]]:
        """``(number, owned)`` of the parts holding lines, in the order of their first line."""
        found = [(n, part) for n, part in enumerate(self.parts, start=1) if part]
        return sorted(found, key=lambda item: min(item[1]))

    @property
    def is_split(self) -> bool:
        return sum(1 for part in self.parts if part) > 1

    def number_of(self, index: int) -> int:
        return next(n for n, part in enumerate(self.parts, start=1) if index in part)

    # -- moving lines ----------------------------------------------------------------

    def move(
        self, lines: Sequence[str], source: int, chosen: frozenset[int], into: int | None, *, unit_id: str
    ) -> tuple["HunkParts", int]:
        """Move the ``chosen`` lines of part ``source`` into part ``into`` (None: a new part).

        Returns the new parts and the number the moved lines now have. Moving a
        whole part to a new one changes nothing (the caller moves the part
        itself). ``unit_id`` names ``source`` in a refusal.
        """
        owned = self.parts[source - 1]
        if not chosen or not chosen <= owned:
            raise SegmintError(f"Give lines of {unit_id} to move")
        _check_block(lines, owned, chosen, unit_id)
        if into is None and chosen == owned:
            return self, source
        parts = list(self.parts)
        parts[source - 1] = owned - chosen
        if into is None:
            parts.append(chosen)
            into = len(parts)
        else:
            parts[into - 1] = parts[into - 1] | chosen
        return HunkParts(tuple(parts)), into


def _check_block(lines: Sequence[str], owned: frozenset[int], chosen: frozenset[int], unit_id: str) -> None:
    """Refuse a move that takes part of the end-of-file block, naming the lines that must come along."""
    block = eof_block(lines) & owned
    if not block or not (block & chosen) or block <= chosen:
        return
    missing = sorted(block - chosen)
    order = sorted(owned)
    names = [f"{order.index(i) + 1} ({lines[i][:60]})" for i in missing]
    noun = "line" if len(names) == 1 else "lines"
    raise LinesMustComeAlong(
        f"{unit_id} {noun} {', '.join(names)} must move too: the file's old last line has no newline, "
        "so it, its replacement and the lines added after it are committed together; select them as well",
        missing,
    )
