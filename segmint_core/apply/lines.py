"""The line model: one file's base, staged and unstaged hunks on a single line sequence.

A file has up to three versions: HEAD (the base), the index (base + staged
hunks) and the work tree (index + unstaged hunks). Every line that appears in
any of them is laid out once, in an order consistent with all three, and knows
which hunk line added it and which removed it. Any selection of changed lines
then yields a file:

- a base line is there unless a selected change removed it;
- a line a hunk added is there if that change is selected, unless a selected
  change removed it again;
- a selected unstaged change that removes a line only a staged change added
  needs that staged change: the selection is refused, naming it.

A changed line is named ``(hunk id, index into hunk.lines)`` of the git hunk
(the parent, for split sub-hunks). Lines are bytes with their newline kept
apart, so a last line without a newline is a different line from one with it.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from segmint_core.changes.models import Hunk
from segmint_core.changes.rewrites import rewritten
from segmint_core.errors import RefusedError, StaleReferenceError
from segmint_core.wording import shown

LineRef = tuple[str, int]  # (git hunk id, index into its lines)

NO_NEWLINE = "\\"


@dataclass(slots=True)
class Line:
    text: bytes
    eol: bool
    in_base: bool = False
    added_by: LineRef | None = None
    removed_by: list[LineRef] = field(default_factory=list)


class MissingDependency(RefusedError):
    """A selected change needs a change the selection lacks."""

    def __init__(self, needs: str, needed_by: str) -> None:
        super().__init__(f"{needed_by} cannot be committed without {needs}: add it to the same or an earlier commit")
        self.needs = needs
        self.needed_by = needed_by


def split_content(data: bytes) -> list[Line]:
    """A file's bytes as lines (the last one may lack its newline)."""
    if not data:
        return []
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
        return [Line(p, True, in_base=True) for p in parts]
    lines = [Line(p, True, in_base=True) for p in parts]
    lines[-1].eol = False
    return lines


def join_content(lines: list[Line]) -> bytes:
    return b"".join(line.text + (b"\n" if line.eol else b"") for line in lines)


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _laid_out(lines: list[str]) -> list[int]:
    """The order a hunk's lines are laid out in: as the diff has them, but a run of removed lines
    followed by as many added ones, each much like the one it replaces (lines rewritten in place),
    goes pair by pair, each new line right after its old one. A selection of some of the pairs then
    puts each new line where its old one was, not after the old lines left in place; the whole hunk
    reads the same either way."""
    order: list[int] = []
    i = 0
    while i < len(lines):
        removed = _run(lines, i, "-")
        added = _run(lines, removed, "+")
        if removed > i and added - removed == removed - i and _rewritten(lines, i, removed, added):
            for offset in range(removed - i):
                order += [i + offset, removed + offset]
            i = added
        else:
            order.append(i)
            i += 1
    return order


def _run(lines: list[str], start: int, sign: str) -> int:
    """Where the run of ``sign`` lines from ``start`` ends."""
    end = start
    while end < len(lines) and lines[end][:1] == sign:
        end += 1
    return end


def _rewritten(lines: list[str], start: int, middle: int, end: int) -> bool:
    """Whether the removed lines ``start:middle`` were rewritten as the added ``middle:end``, pair by
    pair: new lines that only happen to follow removed ones keep the diff's order. So does a run
    followed by a "no newline" marker, which belongs to the line before it."""
    if end < len(lines) and lines[end][:1] == NO_NEWLINE:
        return False
    return all(rewritten(old[1:], new[1:]) for old, new in zip(lines[start:middle], lines[middle:end]))


class FileLines:
    """The merged line sequence of one file; see the module docstring."""

    def __init__(
        self,
        path: str,
        base: bytes,
        staged: list[Hunk],
        unstaged: list[Hunk],
        *,
        new_file: AbstractSet[str] = frozenset(),
    ) -> None:
        """``new_file``: hunks whose added lines make a new file that replaces
        the old one (re-created after a staged deletion, or a type change):
        those lines need every line of the old file removed."""
        self.path = path
        self.new_file = new_file
        merged = split_content(base)
        merged = self._apply_layer(merged, staged, present=lambda ln: not ln.removed_by)
        self.staged_ids = {h.id for h in staged}
        merged = self._apply_layer(
            merged,
            unstaged,
            present=lambda ln: not any(ref[0] in self.staged_ids for ref in ln.removed_by),
        )
        self.lines = merged

    # -- building ---------------------------------------------------------------

    def _apply_layer(self, merged: list[Line], hunks: list[Hunk], present) -> list[Line]:
        """Lay ``hunks`` (in coordinates of the version made of the ``present``
        lines) over ``merged``; lines not in that version are passed through."""
        out: list[Line] = []
        pos = 0  # index into merged
        version_line = 0  # lines of the version consumed so far

        def advance_to(target: int) -> None:
            nonlocal pos, version_line
            while version_line < target:
                if pos >= len(merged):
                    raise StaleReferenceError(
                        f"{shown(self.path)}: a hunk starts past the end of the file; refresh first"
                    )
                line = merged[pos]
                out.append(line)
                pos += 1
                if present(line):
                    version_line += 1

        # By start; at one place (a type change) removals come before additions.
        for hunk in sorted(hunks, key=lambda h: (h.old_start - (h.old_lines > 0), h.old_lines == 0)):
            start = hunk.old_start - 1 if hunk.old_lines else hunk.old_start
            advance_to(start)
            last_added: Line | None = None
            for index in _laid_out(hunk.lines):
                raw = hunk.lines[index]
                sign = raw[:1]
                if sign == NO_NEWLINE:
                    # Only a line this hunk adds takes its newline state from the
                    # marker; lines it keeps or removes carry theirs already.
                    if index and hunk.lines[index - 1][:1] == "+" and last_added is not None:
                        last_added.eol = False
                    continue
                if sign in (" ", "", "-"):
                    line = self._next_present(merged, out, pos, present)
                    pos = line[1]
                    current = line[0]
                    expected = _encode(raw[1:])
                    if current.text != expected:
                        raise StaleReferenceError(
                            f"{shown(self.path)}: hunk {hunk.id} does not match the file any more; refresh first"
                        )
                    out.append(current)
                    pos += 1
                    version_line += 1
                    if sign == "-":
                        current.removed_by.append((hunk.id, index))
                else:  # "+"
                    # Lines an earlier layer removed here come first, as in a
                    # diff: old lines, then the new ones.
                    while pos < len(merged) and not present(merged[pos]):
                        out.append(merged[pos])
                        pos += 1
                    last_added = Line(_encode(raw[1:]), True, added_by=(hunk.id, index))
                    out.append(last_added)
        out.extend(merged[pos:])
        return out

    @staticmethod
    def _next_present(merged: list[Line], out: list[Line], pos: int, present) -> tuple[Line, int]:
        while pos < len(merged) and not present(merged[pos]):
            out.append(merged[pos])
            pos += 1
        if pos >= len(merged):
            raise StaleReferenceError("a hunk runs past the end of the file; refresh first")
        return merged[pos], pos

    # -- reading ---------------------------------------------------------------

    def materialize(self, selected: set[LineRef]) -> bytes:
        """The file's content with exactly the ``selected`` changes applied."""
        kept = [line for line in self.lines if self._present(line, selected)]
        self._check_replacement(kept)
        for line, following in zip(kept, kept[1:]):
            if not line.eol:
                self._refuse_missing_newline(line, following)
        return join_content(kept)

    def keeps_any(self, selected: set[LineRef]) -> bool:
        """Whether any line is left with exactly the ``selected`` changes applied."""
        return any(self._present(line, selected) for line in self.lines)

    def _refuse_missing_newline(self, line: Line, following: Line) -> None:
        """A kept last-line-without-newline with lines after it: whoever adds
        those lines needs the change that replaces it (and so adds the newline)."""
        if line.removed_by and following.added_by:
            raise MissingDependency(line.removed_by[0][0], following.added_by[0])
        raise RefusedError(
            f"{shown(self.path)}: the selected changes leave a line without its newline in the middle of the file; "
            "commit the end-of-file change together with the lines after it"
        )

    def _present(self, line: Line, selected: set[LineRef]) -> bool:
        if line.added_by is not None and line.added_by not in selected:
            for ref in line.removed_by:
                if ref in selected:
                    raise MissingDependency(line.added_by[0], ref[0])
            return False
        return not any(ref in selected for ref in line.removed_by)

    def net_counts(self, selected: set[LineRef]) -> tuple[int, int]:
        """Lines the ``selected`` changes add to and remove from the base, as git counts
        them: a line staged, then edited again in the work tree, counts once."""
        added = sum(
            1 for ln in self.lines if ln.added_by in selected and not any(ref in selected for ref in ln.removed_by)
        )
        removed = sum(1 for ln in self.lines if ln.in_base and any(ref in selected for ref in ln.removed_by))
        return added, removed

    def _is_new(self, line: Line) -> bool:
        return self._new_ref(line) is not None

    def _new_ref(self, line: Line) -> LineRef | None:
        """The change that adds ``line``, when the line is one of a new file's."""
        ref = line.added_by
        return ref if ref is not None and ref[0] in self.new_file else None

    def _check_replacement(self, kept: list[Line]) -> None:
        """Lines of a new file go in only with the old file's lines gone."""
        new = next((ref for ln in kept if (ref := self._new_ref(ln)) is not None), None)
        if new is None:
            return
        old = next((ln for ln in kept if not self._is_new(ln) and ln.removed_by), None)
        if old is not None:
            raise MissingDependency(old.removed_by[0][0], new[0])

    def changed_refs(self) -> set[LineRef]:
        refs: set[LineRef] = set()
        for line in self.lines:
            if line.added_by is not None:
                refs.add(line.added_by)
            refs.update(line.removed_by)
        return refs

    def line_dependencies(self) -> dict[LineRef, set[LineRef]]:
        """Changed line -> changed lines it needs committed first (or with it): an unstaged
        removal of a line a staged change added, and a line of a new file that replaces
        the old one, every removal of the old file's lines."""
        needs: dict[LineRef, set[LineRef]] = {}
        for line in self.lines:
            if line.added_by is None:
                continue
            for ref in line.removed_by:
                if ref[0] != line.added_by[0]:
                    needs.setdefault(ref, set()).add(line.added_by)
        old = {ref for ln in self.lines if not self._is_new(ln) for ref in ln.removed_by}
        if old:
            for ln in self.lines:
                new = self._new_ref(ln)
                if new is not None:
                    needs.setdefault(new, set()).update(old)
        for needer, needed in self._after_missing_newline().items():
            needs.setdefault(needer, set()).update(needed)
        return needs

    def _after_missing_newline(self) -> dict[LineRef, set[LineRef]]:
        """An added line after a line without newline needs that line's removal, or the line
        would end in the middle of the file (``_refuse_missing_newline``)."""
        needs: dict[LineRef, set[LineRef]] = {}
        unended: set[LineRef] = set()  # removals of the lines without newline seen so far
        for line in self.lines:
            if line.added_by is not None and unended:
                needs.setdefault(line.added_by, set()).update(unended - {line.added_by})
            if not line.eol:
                unended.update(line.removed_by)
        return needs

    def dependencies(self) -> dict[str, set[str]]:
        """Hunk id -> hunk ids it needs committed first (``line_dependencies``, by hunk)."""
        needs: dict[str, set[str]] = {}
        for needer, needed in self.line_dependencies().items():
            needs.setdefault(needer[0], set()).update(ref[0] for ref in needed if ref[0] != needer[0])
        return needs
