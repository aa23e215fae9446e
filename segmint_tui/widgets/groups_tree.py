"""The groups pane: groups (summary, reasons, +/- counts) expandable to files and hunks.

The tree is rebuilt from ``GroupRow``s whenever the session changes; expanded
nodes and the cursor are carried over by key, so a live update from the agent
does not lose the person's place. Files and hunks of a group are added only
when the group is expanded (and a file's hunks when the file is), which keeps a
rebuild over a thousand files cheap.
Marks (space) select several hunks, files or groups for one move or merge.
A ``?`` marks the hunks an uncertain decision of the session's confidence
would move, and the groups such a decision involves (``show_confidence``).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from segmint_core.changes.patch import section_of
from segmint_core.wording import counted, shown
from segmint_tui.groups_model import UNGROUPED, FileRow, GroupRow

GROUP, REASON, FILE, HUNK = "group", "reason", "file", "hunk"
STATUS_LETTER = {
    "added": "A",
    "modified": "M",
    "deleted": "D",
    "renamed": "R",
    "copied": "C",
    "binary": "B",
    "conflicted": "U",
}
MARK = Style(color="#e5c07b", bold=True)
DOUBT = Style(color="#ff9e3b", bold=True)
DIM = Style(color="#8b8fa3")
PLUS = Style(color="#5fd77a")
MINUS = Style(color="#ff6b6b")


@dataclass(frozen=True)
class NodeRef:
    kind: str
    group_id: str
    change_id: str | None = None
    hunk_id: str | None = None

    @property
    def key(self) -> str:
        if self.kind == HUNK:
            return f"h:{self.hunk_id}"
        if self.kind == FILE:
            return f"f:{self.group_id}:{self.change_id}"
        return f"g:{self.group_id}" if self.kind == GROUP else f"r:{self.group_id}"


def counts(added: int, removed: int) -> Text:
    return Text.assemble(("+" + str(added), PLUS), " ", ("−" + str(removed), MINUS))


class GroupsTree(Tree[NodeRef]):
    BINDINGS = [
        Binding("space", "toggle_mark", "Mark"),
        Binding("m", "screen.move_hunks", "Move"),
        Binding("n", "screen.move_to_new_group", "New group"),
        Binding("M", "screen.merge_groups", "Merge"),
        Binding("R,f2", "screen.rename_group", "Rename"),
        Binding("c", "screen.comment", "Comment"),
        Binding("g", "screen.regroup", "Regroup"),
        Binding("G", "screen.refine", "Refine"),
        Binding("p", "screen.propose", "Propose"),
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("right,l", "expand_node", "Expand", show=False),
        Binding("left,h", "collapse_node", "Collapse", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("groups", id=id)
        self.show_root = False
        self.guide_depth = 2
        self.auto_expand = True
        self.rows: list[GroupRow] = []
        self.marked: set[str] = set()  # node keys
        self._signature: tuple[list, list[str]] | None = None  # (each row's shape, the summaries)
        self.confidence = None  # the session's Confidence, once worked out

    # -- content ------------------------------------------------------------------

    def populate(self, rows: list[GroupRow], *, waiting: bool = False) -> bool:
        """Show ``rows``; returns False when nothing visible changed (no rebuild).

        Changes not grouped yet are one group, opened when it is all there is, unless
        ``waiting`` for a grouping under way: a thousand files' rows would take the
        screen's thread from the grouping for nothing, as the groups replace them."""
        # Object ids stand for content: the old rows are still alive here, so an
        # id seen in both signatures is the very same (unchanged) hunk.
        shape = [
            (r.id, tuple(r.reasons), tuple((id(f.change), tuple(id(h) for h in f.hunks)) for f in r.files))
            for r in rows
        ]
        signature = (shape, [r.summary for r in rows])
        if signature == self._signature:
            self.rows = rows
            return False
        before = self._signature
        self.rows = rows
        self._signature = signature
        if before is not None and shape == before[0]:
            # Only summaries changed (a rename): relabel those rows, no rebuild of a thousand nodes.
            nodes = self.root.children
            for n, (old, new) in enumerate(zip(before[1], signature[1])):
                if old != new:
                    nodes[n].set_label(self._group_label(rows[n]))
            return True
        expanded = {n.data.key for n in self._all_nodes() if n.data is not None and n.is_expanded}
        cursor = self.cursor_node.data if self.cursor_node is not None else None
        old_line = self.cursor_line
        valid = {key for row in rows for key in self._keys_of(row)}
        self.marked &= valid
        self.clear()
        for row in rows:
            node = self.root.add(self._group_label(row), NodeRef(GROUP, row.id), expand=False)
            if NodeRef(GROUP, row.id).key in expanded or (row.id == UNGROUPED and len(rows) == 1 and not waiting):
                self._fill_group(node, row, expanded)
                node.expand()
        self._restore_cursor(cursor, old_line)
        return True

    def _restore_cursor(self, cursor: NodeRef | None, old_line: int) -> None:
        last = self.last_line  # builds the lines, so node.line is valid below
        if last < 0:
            return
        target = None
        if cursor is not None:
            target = next((n for n in self._all_nodes() if n.data is not None and n.data == cursor), None)
        if target is not None:
            self.move_cursor(target)
        else:
            self.move_cursor_to_line(max(0, min(old_line, last)))

    def _keys_of(self, row: GroupRow) -> list[str]:
        keys = [NodeRef(GROUP, row.id).key]
        for f in row.files:
            keys.append(NodeRef(FILE, row.id, f.change.id).key)
            keys.extend(NodeRef(HUNK, row.id, f.change.id, h.id).key for h in f.hunks)
        return keys

    def _fill_group(self, node: TreeNode[NodeRef], row: GroupRow, expanded: AbstractSet[str] = frozenset()) -> None:
        if node.children:
            return
        for reason in row.reasons:
            node.add_leaf(
                Text.assemble(("why: ", DIM), (reason, Style(color="#a0a4b8", italic=True))), NodeRef(REASON, row.id)
            )
        for f in row.files:
            ref = NodeRef(FILE, row.id, f.change.id)
            child = node.add(self._file_label(row, f), ref, allow_expand=bool(f.hunks))
            if ref.key in expanded:
                self._fill_file(child, row.id, f)
                child.expand()

    def _fill_file(self, node: TreeNode[NodeRef], group_id: str, f: FileRow) -> None:
        if node.children:
            return
        for hunk in f.hunks:
            node.add_leaf(self._hunk_label(hunk), NodeRef(HUNK, group_id, f.change.id, hunk.id))

    def _all_nodes(self):
        """Every node below the root, in display order."""

        def walk(node):
            for child in node.children:
                yield child
                yield from walk(child)

        return walk(self.root)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeRef]) -> None:
        ref = event.node.data
        row = self.row(ref.group_id) if ref is not None else None
        if ref is None or row is None:
            return
        if ref.kind == GROUP:
            self._fill_group(event.node, row)
        elif ref.kind == FILE:
            f = row.file(ref.change_id or "")
            if f is not None:
                self._fill_file(event.node, row.id, f)

    # -- labels -------------------------------------------------------------------

    def _mark(self, key: str) -> Text:
        return Text("● ", MARK) if key in self.marked else Text("")

    def _doubt(self, *, hunk_id: str | None = None, group_id: str | None = None) -> Text:
        """``? `` on a hunk an uncertain decision would move, or a group one involves."""
        sure = self.confidence
        if sure is None:
            return Text("")
        if hunk_id is not None:
            doubted = sure.doubt(hunk_id) is not None
        else:
            row = self.row(group_id or "")
            held = set(row.unit_ids) if row is not None else set()
            doubted = any(group_id in (u.group_id, u.to_group_id) or held & set(u.hunk_ids) for u in sure.uncertain)
        return Text("? ", DOUBT) if doubted else Text("")

    def _group_label(self, row: GroupRow) -> Text:
        # Counts before the summary: a long summary is clipped at the pane's edge, the counts never.
        files = len(row.files)
        return Text.assemble(
            self._mark(NodeRef(GROUP, row.id).key),
            self._doubt(group_id=row.id),
            (row.id.replace("group-", "#") + " ", DIM),
            counts(row.added, row.removed),
            "  ",
            (row.summary, Style(bold=True)),
            (f"  {counted(files, 'file')}", DIM),
        )

    def _file_label(self, row: GroupRow, f: FileRow) -> Text:
        letter = STATUS_LETTER.get(f.change.status, "?")
        return Text.assemble(
            self._mark(NodeRef(FILE, row.id, f.change.id).key),
            (letter + " ", Style(color="#61afef", bold=True)),
            counts(f.added, f.removed),
            "  ",
            shown(f.change.file_path),
        )

    def _hunk_label(self, hunk) -> Text:
        short = hunk.id.split("-", 1)[-1]
        section = section_of(hunk.header)
        where = hunk.header[: len(hunk.header) - len(section)]
        context = shown(section.strip())
        return Text.assemble(
            self._mark(NodeRef(HUNK, "", hunk_id=hunk.id).key),
            self._doubt(hunk_id=hunk.id),
            (short + " ", DIM),
            counts(hunk.added, hunk.removed),
            (" staged" if hunk.staged else "", MARK),
            "  ",
            where,
            (f" {context}" if context else "", DIM),
        )

    def _relabel(self, node: TreeNode[NodeRef]) -> None:
        """A new label for a node whose mark changed."""
        ref = node.data
        row = self.row(ref.group_id) if ref is not None else None
        if ref is None or row is None:
            return
        if ref.kind == GROUP:
            node.set_label(self._group_label(row))
        elif ref.kind == FILE:
            f = row.file(ref.change_id or "")
            if f is not None:
                node.set_label(self._file_label(row, f))
        elif ref.kind == HUNK:
            f = row.file(ref.change_id or "")
            hunk = next((h for h in (f.hunks if f else []) if h.id == ref.hunk_id), None)
            if hunk is not None:
                node.set_label(self._hunk_label(hunk))

    def show_confidence(self, confidence) -> None:
        """Mark what the session's confidence doubts (relabels only the nodes whose mark changed)."""
        before = self.confidence
        self.confidence = confidence
        if before is not None and before.uncertain == confidence.uncertain:
            return
        for node in self._all_nodes():
            if node.data is not None and node.data.kind in (GROUP, HUNK):
                self._relabel(node)

    def reveal(self, group_id: str, hunk_id: str | None) -> bool:
        """Open the group (and the hunk's file) and put the cursor on the hunk, or on the group."""
        row = self.row(group_id)
        node = next((n for n in self.root.children if n.data is not None and n.data.group_id == group_id), None)
        if row is None or node is None:
            return False
        self._fill_group(node, row)
        node.expand()
        target = node
        f = next((f for f in row.files if any(h.id == hunk_id for h in f.hunks)), None) if hunk_id else None
        if f is not None:
            file_node = next(
                n
                for n in node.children
                if n.data is not None and n.data.kind == FILE and n.data.change_id == f.change.id
            )
            self._fill_file(file_node, row.id, f)
            file_node.expand()
            target = next(n for n in file_node.children if n.data is not None and n.data.hunk_id == hunk_id)
        _ = self.last_line  # lays out the lines the expansion added
        self.move_cursor(target)
        return True

    # -- selection ----------------------------------------------------------------

    @property
    def cursor_ref(self) -> NodeRef | None:
        node = self.cursor_node
        return node.data if node is not None else None

    def row(self, group_id: str) -> GroupRow | None:
        return next((r for r in self.rows if r.id == group_id), None)

    def units_of(self, ref: NodeRef) -> list[str]:
        """The hunk ids (or change ids of hunkless files) a node stands for."""
        row = self.row(ref.group_id)
        if row is None:
            return []
        if ref.kind == HUNK:
            return [ref.hunk_id] if ref.hunk_id else []
        if ref.kind == FILE:
            f = row.file(ref.change_id or "")
            if f is None:
                return []
            return [h.id for h in f.hunks] or [f.change.id]
        return row.unit_ids

    def selected_units(self) -> list[str]:
        """Marked hunks/files/groups if any, else what the cursor is on."""
        if self.marked:
            units: list[str] = []
            for node in self._all_nodes():
                if node.data is not None and node.data.key in self.marked:
                    units.extend(u for u in self.units_of(node.data) if u not in units)
            for row in self.rows:  # a collapsed group has no child nodes
                if NodeRef(GROUP, row.id).key in self.marked:
                    units.extend(u for u in row.unit_ids if u not in units)
            return units
        ref = self.cursor_ref
        return self.units_of(ref) if ref is not None else []

    def marked_groups(self) -> list[str]:
        return [r.id for r in self.rows if NodeRef(GROUP, r.id).key in self.marked]

    def action_toggle_mark(self) -> None:
        ref = self.cursor_ref
        if ref is None or ref.kind == REASON:
            return
        # The cursor stays on what was marked: a mark the cursor left behind was easy to put on the wrong row.
        self.marked ^= {ref.key}
        if self.cursor_node is not None:  # (it holds ``ref``)
            self._relabel(self.cursor_node)

    def clear_marks(self) -> None:
        if self.marked:
            was_marked, self.marked = self.marked, set()
            for node in self._all_nodes():
                if node.data is not None and node.data.key in was_marked:
                    self._relabel(node)

    def action_expand_node(self) -> None:
        node = self.cursor_node
        if node is not None and node.allow_expand and not node.is_expanded:
            node.expand()

    def action_collapse_node(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self.move_cursor(node.parent)
