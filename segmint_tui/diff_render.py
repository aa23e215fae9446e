"""The diff pane's content: rows of a group, file or hunk, highlighted on demand.

A ``DiffDocument`` is a list of blocks (header text, hunks) with running row
offsets, so row ``y`` is found by bisection and only the rows on screen are ever
turned into text. Hunks are syntax-highlighted with pygments in chunks of
``CHUNK`` rows, the first time a row of the chunk is drawn: a 100,000-line diff
costs what its visible part costs.

The old and new sides of a chunk are lexed separately (context on both sides),
so a removed line and its replacement are each coloured in their own context.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.styles import get_style_by_name
from pygments.token import Token, _TokenType
from pygments.util import ClassNotFound
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from segmint_core.changes.models import Change, Hunk
from segmint_core.wording import shown
from segmint_tui.line_parts import Elsewhere

CHUNK = 96  # rows highlighted together
MAX_COLUMNS = 2000  # characters of a line that are drawn (minified files)
PYGMENTS_STYLE = "monokai"

ADDED = Style(bgcolor="#16351f")
REMOVED = Style(bgcolor="#3d1a1f")
ADDED_SIGN = Style(color="#5fd77a", bgcolor="#16351f", bold=True)
REMOVED_SIGN = Style(color="#ff6b6b", bgcolor="#3d1a1f", bold=True)
GUTTER = Style(color="#6c7080")
STAGED_MARK = Style(color="#e5c07b", bold=True)
HUNK_HEADER = Style(color="#8ab4f8", bgcolor="#1b2333")
FILE_HEADER = Style(color="#e6e6e6", bgcolor="#2c3140", bold=True)
HEADER_STATUS = Style(color="#b8bccc", bold=False)
HEADER_ADDED = Style(color="#5fd77a")
HEADER_REMOVED = Style(color="#ff6b6b")
HEADER_ID = Style(color="#a0a4b8", bold=False)
NOTE = Style(color="#8b8fa3", italic=True)
NO_NEWLINE = Style(color="#8b8fa3", italic=True)
ELSEWHERE = Style(color="#8b8fa3", italic=True)  # another part's added line, shown where it sits
ELSEWHERE_TAG = Style(color="#c678dd", italic=True)  # which group holds a line of another part

# What a file's line may hold that must not reach the terminal raw (a tab is expanded instead).
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f\udc80-\udcff]")


@dataclass(frozen=True)
class Target:
    """What a row points at, for comments and moves."""

    change: Change
    hunk: Hunk | None = None
    line: int | None = None  # line number in the new file (old file for removed lines)


class TextBlock:
    """Rows of ready-made text: titles, reasons, file headers."""

    def __init__(self, rows: list[Text], target: Target | None = None, background: Style | None = None) -> None:
        self.rows = rows
        self.target = target
        self.background = background

    def __len__(self) -> int:
        return len(self.rows)

    def width(self) -> int:
        return max((r.cell_len for r in self.rows), default=0)

    def render(self, index: int, gutter: int) -> tuple[Text, Style | None]:
        return self.rows[index], self.background

    def raw(self, index: int) -> str:
        return self.rows[index].plain

    def target_at(self, index: int) -> Target | None:
        return self.target


class HunkBlock:
    """A hunk header row followed by the hunk's lines.

    A part of a split hunk also shows the lines its sibling parts add (dimmed,
    not part of its commit) and tags the lines those parts change with where
    they went (``elsewhere``).
    """

    def __init__(self, change: Change, hunk: Hunk, elsewhere: Elsewhere | None = None) -> None:
        self.change = change
        self.hunk = hunk
        self.lines = hunk.lines
        self.elsewhere = elsewhere
        # Row -> line index, or (line, where) for a sibling's added line; None: row i is line i.
        self._rows: list[int | tuple[str, str]] | None = None
        if elsewhere is not None and elsewhere.added:
            self._rows = []
            for i in range(len(self.lines)):
                self._rows.extend(elsewhere.added.get(i, ()))
                self._rows.append(i)
            self._rows.extend(elsewhere.added.get(len(self.lines), ()))  # after the last row
        self._numbers: list[tuple[int | None, int | None]] | None = None
        self._positions: dict[int, int] | None = None
        self._chunks: dict[int, list[Text]] = {}

    def __len__(self) -> int:
        return 1 + (len(self.lines) if self._rows is None else len(self._rows))

    def width(self) -> int:
        longest = max((_columns(line) for line in self.lines), default=0)
        if self.elsewhere is not None:
            longest += 16 + max((cell_len(p) for p in self.elsewhere.places), default=0)
        return min(MAX_COLUMNS, max(longest + 3, cell_len(shown(self.hunk.header)) + len(self.hunk.id) + 12))

    def line_index(self, index: int) -> int | None:
        """The index in ``hunk.lines`` of row ``index``; None for the header and a sibling's line."""
        if index == 0:
            return None
        if self._rows is None:
            return index - 1
        row = self._rows[index - 1]
        return row if isinstance(row, int) else None

    def changed_positions(self, first: int, last: int) -> list[int]:
        """1-based places among the hunk's changed lines of the changed lines in rows ``first..last``."""
        if self._positions is None:
            changed = (i for i, line in enumerate(self.lines) if line[:1] in ("+", "-"))
            self._positions = {i: n for n, i in enumerate(changed, start=1)}
        lines = (self.line_index(row) for row in range(first, last + 1))
        found = (self._positions.get(i) for i in lines if i is not None)
        return [p for p in found if p is not None]

    def raw(self, index: int) -> str:
        """Row ``index`` as plain text without line numbers (what search looks at)."""
        if index == 0:
            return f"{self.hunk.header}  {self.hunk.id}"
        i = self.line_index(index)
        if i is None:
            return self._sibling_line(index)[0]
        return self.lines[i]

    def _sibling_line(self, index: int) -> tuple[str, str]:
        """Row ``index`` (past the header) that is no line of the hunk: a sibling's added line and where it went."""
        row = self._rows[index - 1] if self._rows is not None else None
        assert isinstance(row, tuple)
        return row

    @property
    def numbers(self) -> list[tuple[int | None, int | None]]:
        """(old, new) line number of each line; None on the side a line is not on."""
        if self._numbers is None:
            old, new = self.hunk.old_start, self.hunk.new_start
            out: list[tuple[int | None, int | None]] = []
            for line in self.lines:
                sign = line[:1]
                if sign == "-":
                    out.append((old, None))
                    old += 1
                elif sign == "+":
                    out.append((None, new))
                    new += 1
                elif sign == "\\":
                    out.append((None, None))
                else:
                    out.append((old, new))
                    old += 1
                    new += 1
            self._numbers = out
        return self._numbers

    def render(self, index: int, gutter: int) -> tuple[Text, Style | None]:
        if index == 0:
            return self._header(gutter), HUNK_HEADER
        i = self.line_index(index)
        if i is None:
            line, where = self._sibling_line(index)
            text = Text(no_wrap=True, end="")
            text.append(" " * (2 * gutter + 3))
            text.append(visible(line[:MAX_COLUMNS]), ELSEWHERE)
            text.append(f"   → {where}", ELSEWHERE_TAG)
            return text, None
        chunk = self._chunk(i // CHUNK)
        body = chunk[i % CHUNK]
        line = self.lines[i]
        sign = line[:1]
        old, new = self.numbers[i]
        mark = "●" if self.hunk.staged else " "
        text = Text(no_wrap=True, end="")
        text.append(mark, STAGED_MARK)
        text.append(f"{_num(old, gutter)} {_num(new, gutter)} ", GUTTER)
        if sign == "+":
            text.append("+", ADDED_SIGN)
            text.append_text(body)
            return text, ADDED
        if sign == "-":
            text.append("-", REMOVED_SIGN)
            text.append_text(body)
            return text, REMOVED
        text.append(" ")
        text.append_text(body)
        if self.elsewhere is not None and i in self.elsewhere.removed:
            text.append(f"   − {self.elsewhere.removed[i]}", ELSEWHERE_TAG)
        return text, None

    def target_at(self, index: int) -> Target:
        i = self.line_index(index)
        if i is None:
            return Target(self.change, self.hunk, None)
        old, new = self.numbers[i]
        return Target(self.change, self.hunk, new if new is not None else old)

    def _header(self, gutter: int) -> Text:
        text = Text(no_wrap=True, end="")
        text.append("●" if self.hunk.staged else " ", STAGED_MARK)
        text.append(" " * (2 * gutter + 2))
        text.append(shown(self.hunk.header))
        text.append(f"  {self.hunk.id}", Style(color="#a0a4b8"))
        if self.hunk.staged:
            text.append("  staged", STAGED_MARK)
        if self.elsewhere is not None and self.elsewhere.places:
            text.append(
                f"  part of {self.hunk.parent_id}; its other lines: {', '.join(self.elsewhere.places)}", ELSEWHERE_TAG
            )
        return text

    def _chunk(self, k: int) -> list[Text]:
        chunk = self._chunks.get(k)
        if chunk is None:
            lines = self.lines[k * CHUNK : (k + 1) * CHUNK]
            chunk = highlight(lexer_for(self.change.file_path), lines)
            self._chunks[k] = chunk
        return chunk


class HeaderBlock:
    """A file's header row. Its text is made when first drawn: a group of a
    thousand files has a thousand headers, and few of them are ever on screen."""

    background = FILE_HEADER

    def __init__(self, change: Change, hunks: list[Hunk]) -> None:
        self.target = Target(change)
        name = (
            shown(change.file_path)
            if not change.old_path or change.old_path == change.file_path
            else f"{shown(change.old_path)} → {shown(change.file_path)}"
        )
        added, removed = change.counts(hunks)
        self.parts: list[tuple[str, Style | None]] = [
            (f" {name} ", None),
            (f"{change.status} ", HEADER_STATUS),
            (f"+{added}", HEADER_ADDED),
            (" ", None),
            (f"−{removed}", HEADER_REMOVED),
            (f"  {change.id}", HEADER_ID),
        ]
        self._text: Text | None = None

    def __len__(self) -> int:
        return 1

    def width(self) -> int:
        return cell_len("".join(part for part, _ in self.parts))

    def render(self, index: int, gutter: int) -> tuple[Text, Style | None]:
        if self._text is None:
            self._text = Text(no_wrap=True, end="")
            for part, style in self.parts:
                self._text.append(part, style)
        return self._text, self.background

    def raw(self, index: int) -> str:
        return "".join(part for part, _ in self.parts)

    def target_at(self, index: int) -> Target:
        return self.target


Block = TextBlock | HunkBlock | HeaderBlock


class DiffDocument:
    """The rows shown in the diff pane for one selection.

    ``live``: its rows are the working tree's changes, which comments and moves act on
    (an applied commit's diff is not).
    """

    def __init__(self, blocks: list[Block], key: object = None, *, live: bool = True) -> None:
        self.blocks = blocks
        self.key = key
        self.live = live
        self.starts: list[int] = []
        total = 0
        biggest = 0
        for block in blocks:
            self.starts.append(total)
            total += len(block)
            if isinstance(block, HunkBlock):
                biggest = max(
                    biggest, block.hunk.old_start + block.hunk.old_lines, block.hunk.new_start + block.hunk.new_lines
                )
        self.line_count = total
        self.gutter = max(3, len(str(biggest)))
        self._width: int | None = None

    @property
    def width(self) -> int:
        """Widest row in cells (computed on first use: it reads every line's length)."""
        if self._width is None:
            gutter = 2 * self.gutter + 3
            self._width = max((b.width() + (gutter if isinstance(b, HunkBlock) else 0) for b in self.blocks), default=0)
        return self._width

    def locate(self, y: int) -> tuple[Block, int] | None:
        if y < 0 or y >= self.line_count:
            return None
        k = bisect.bisect_right(self.starts, y) - 1
        return self.blocks[k], y - self.starts[k]

    def render(self, y: int) -> tuple[Text, Style | None]:
        found = self.locate(y)
        if found is None:
            return Text(""), None
        block, index = found
        return block.render(index, self.gutter)

    def plain(self, y: int) -> str:
        return self.render(y)[0].plain

    def target(self, y: int) -> Target | None:
        found = self.locate(y)
        return None if found is None else found[0].target_at(found[1])

    def hunk_rows(self) -> list[int]:
        return [start for start, block in zip(self.starts, self.blocks) if isinstance(block, HunkBlock)]

    def same_hunk(self, other: HunkBlock) -> int | None:
        """The header row of the block showing the same hunk as ``other`` (of another document):
        the same file and lines, drawn as the same rows, whatever its id became on a refresh."""
        for start, block in zip(self.starts, self.blocks):
            if (
                isinstance(block, HunkBlock)
                and block.change.file_path == other.change.file_path
                and block.lines == other.lines
                and len(block) == len(other)
            ):
                return start
        return None

    def hunk_span(self, y: int) -> tuple[HunkBlock, int, int] | None:
        """The hunk row ``y`` is in, with its first and last line rows (after its header)."""
        found = self.locate(y)
        if found is None or not isinstance(found[0], HunkBlock):
            return None
        block, index = found
        start = y - index
        return found[0], start + 1, start + len(block) - 1

    def find(self, term: str, start: int, step: int = 1) -> int | None:
        """The next row after ``start`` (``step`` -1: before it) whose text holds ``term``
        (case-insensitive), going round the end; None when no row does."""
        term = term.lower()
        if not term or not self.line_count:
            return None
        y = start
        for _ in range(self.line_count):
            y = (y + step) % self.line_count
            found = self.locate(y)
            assert found is not None  # y is a row of the document
            block, index = found
            if term in block.raw(index).lower():
                return y
        return None


# -- building documents ------------------------------------------------------------


def file_header(change: Change, hunks: list[Hunk]) -> HeaderBlock:
    return HeaderBlock(change, hunks)


def change_blocks(change: Change, hunks: list[Hunk], elsewhere: dict[str, Elsewhere] | None = None) -> list[Block]:
    blocks: list[Block] = [file_header(change, hunks)]
    if change.binary:
        blocks.append(TextBlock([Text("  binary file: contents not shown", NOTE)], Target(change)))
    elif not hunks and change.kept_whole is not None:
        blocks.append(
            TextBlock([Text("  kept whole (a generated file): its lines are not shown", NOTE)], Target(change))
        )
    elif not hunks:
        blocks.append(TextBlock([Text("  no line changes (mode, rename or empty file)", NOTE)], Target(change)))
    blocks.extend(HunkBlock(change, h, (elsewhere or {}).get(h.id)) for h in hunks)
    blocks.append(TextBlock([Text("")]))
    return blocks


def build_document(
    parts: list[tuple[Change, list[Hunk]]],
    title: list[Text] | None = None,
    key: object = None,
    *,
    live: bool = True,
    elsewhere: dict[str, Elsewhere] | None = None,
) -> DiffDocument:
    """``elsewhere``: for parts of split hunks, where their sibling parts' lines went."""
    blocks: list[Block] = []
    if title:
        blocks.append(TextBlock(title + [Text("")]))
    for change, hunks in parts:
        blocks.extend(change_blocks(change, hunks, elsewhere))
    return DiffDocument(blocks, key, live=live)


def message_document(message: str) -> DiffDocument:
    return DiffDocument([TextBlock([Text(f" {message}", NOTE)])], key=("message", message))


# -- highlighting -------------------------------------------------------------------


def _num(n: int | None, width: int) -> str:
    return " " * width if n is None else str(n).rjust(width)


@lru_cache(maxsize=256)
def lexer_for(path: str) -> Lexer:
    try:
        return get_lexer_for_filename(path, stripnl=False, ensurenl=False, stripall=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


@lru_cache(maxsize=512)
def token_style(token: _TokenType) -> Style:
    style = get_style_by_name(PYGMENTS_STYLE)
    while token not in style._styles and token.parent is not None:
        token = token.parent
    spec = style.style_for_token(token)
    return Style(
        color=f"#{spec['color']}" if spec["color"] else None, bold=spec["bold"] or None, italic=spec["italic"] or None
    )


def highlight(lexer: Lexer, lines: list[str]) -> list[Text]:
    """Each diff line's body (sign removed) as highlighted text."""
    old: list[str] = []
    new: list[str] = []
    where: list[tuple[str, int]] = []  # (side, index within that side)
    for line in lines:
        sign, body = line[:1], visible(line[1 : MAX_COLUMNS + 1])
        if sign == "-":
            where.append(("old", len(old)))
            old.append(body)
        elif sign == "+":
            where.append(("new", len(new)))
            new.append(body)
        elif sign == "\\":
            where.append(("note", 0))
        else:
            where.append(("new", len(new)))
            old.append(body)
            new.append(body)
    sides = {
        "old": _lex(lexer, old) if any(w[0] == "old" for w in where) else [],
        "new": _lex(lexer, new) if new else [],
    }
    out: list[Text] = []
    for (side, index), line in zip(where, lines):
        if side == "note":
            out.append(Text(line, NO_NEWLINE, no_wrap=True, end=""))
        else:
            out.append(sides[side][index])
    return out


def visible(body: str) -> str:
    """A line of a file as one row of the screen: tabs expanded; other control characters and
    bytes that are not UTF-8 escaped (``\\r``, ``\\x1b``). Raw, a carriage return would cut
    the row in two (and shift the rows after it), and an escape sequence would reach the terminal."""
    if _UNSAFE.search(body) is not None:
        body = "\t".join(shown(part) for part in body.split("\t"))
    return body.expandtabs(4)


def _columns(line: str) -> int:
    """The columns a diff line (its sign, then its body) takes as drawn: a wide character
    takes two, a tab four, an escaped control character its escape."""
    if line.isascii() and line.isprintable():  # most lines: no need to draw them to know
        return len(line)
    return 1 + cell_len(visible(line[1 : MAX_COLUMNS + 1]))


def _lex(lexer: Lexer, lines: list[str]) -> list[Text]:
    if isinstance(lexer, TextLexer):
        return [Text(line, no_wrap=True, end="") for line in lines]
    texts = [Text(no_wrap=True, end="")]
    for token, value in lexer.get_tokens("\n".join(lines) + "\n"):
        style = token_style(token) if token is not Token.Text else None
        pieces = value.split("\n")
        for n, piece in enumerate(pieces):
            if n:
                texts.append(Text(no_wrap=True, end=""))
            if piece:
                texts[-1].append(piece, style)
    return (texts + [Text(no_wrap=True, end="")] * len(lines))[: len(lines)]
