"""A changed file's old and new text, as the diff sees them, and where each hunk line sits in them.

Grouping must depend on the captured changes only (not on a file edited
since), so the work tree is never read: the old text is the blob the diff
names (``index <old>..<new>``, HEAD's or the index's), read from git's object
store in one batch, and the new text is that blob with the hunks applied. A
new file's text is its one hunk. A file staged and then edited again has two
layers (HEAD -> index, index -> work tree), each with its own texts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from segmint_core.changes.models import Change, FilePatch, Hunk
from segmint_core.errors import SegmintError
from segmint_core.git import Git, ZERO_OID, read_blobs
from segmint_core.git_modes import FILE_MODES, REGULAR


@dataclass(eq=False)
class Layer:
    """One diff of one file (staged or unstaged): its hunks and both texts, as lines."""

    path: str
    hunks: list[Hunk]
    old_oid: str | None
    old: list[str] | None = None
    new: list[str] | None = None
    rows: dict[str, tuple[list[int], list[int]]] = field(default_factory=dict)  # hunk id -> old, new row per line


def layers(changes: list[Change], wanted: set[str]) -> dict[str, Layer]:
    """Hunk id -> its layer, for the changes whose paths are in ``wanted``."""
    out: dict[str, Layer] = {}
    for change in changes:
        if change.file_path not in wanted or change.binary:
            continue
        patches: list[FilePatch | None] = [p for p in (change.staged_patch, change.unstaged_patch) if p is not None]
        for patch in patches or [None]:
            hunks = patch.hunks if patch is not None else change.hunks
            layer = Layer(change.file_path, list(hunks), _old_oid(change, patch))
            for hunk in hunks:
                out[hunk.id] = layer
    return out


def _old_oid(change: Change, patch: FilePatch | None) -> str | None:
    if patch is None:
        return None
    if patch.old_path is None or patch.old_oid == ZERO_OID:
        return ZERO_OID  # a new file: no old text
    if patch.old_oid is None:
        return None  # a diff without blob ids: the old text is unknown
    if (patch.old_mode or REGULAR) not in FILE_MODES:
        return None  # a symlink or submodule before: nothing to parse
    return patch.old_oid


def fill(layers_: list[Layer], git: Git | None) -> None:
    """Give every layer its old and new text where they can be had (one ``cat-file`` batch)."""
    oids = sorted({la.old_oid for la in layers_ if la.old_oid not in (None, ZERO_OID)})
    blobs: dict[str, bytes] = {}
    if oids and git is not None:
        try:
            blobs = read_blobs(git, oids)
        except SegmintError:
            blobs = {}  # an object git cannot read: those files are not parsed
    for layer in layers_:
        if layer.old_oid == ZERO_OID:
            old: list[str] | None = []
        elif layer.old_oid in blobs:
            old = split_lines(blobs[layer.old_oid].decode("utf-8", "surrogateescape"))
        else:
            old = None
        if old is not None:
            apply(layer, old)


def split_lines(text: str) -> list[str]:
    """Lines as git counts them: on ``\\n`` only (a ``\\r`` stays on its line)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def apply(layer: Layer, old: list[str]) -> None:
    """Apply the layer's hunks to ``old``; on any line that does not match, leave both texts unset."""
    new: list[str] = []
    at = 0
    for hunk in sorted(layer.hunks, key=lambda h: h.old_start):
        start = hunk.old_start - 1 if hunk.old_lines else hunk.old_start
        if start < at or start > len(old):
            return
        new.extend(old[at:start])
        at = start
        old_rows: list[int] = []
        new_rows: list[int] = []
        for line in hunk.lines:
            sign, text = line[:1], line[1:]
            if sign in (" ", "-"):
                if at >= len(old) or old[at] != text:
                    return  # the blob is not what the diff was made from
                old_rows.append(at)
                new_rows.append(len(new) if sign == " " else -1)
                if sign == " ":
                    new.append(text)
                at += 1
            elif sign == "+":
                old_rows.append(-1)
                new_rows.append(len(new))
                new.append(text)
            else:  # "\ No newline at end of file"
                old_rows.append(-1)
                new_rows.append(-1)
        layer.rows[hunk.id] = (old_rows, new_rows)
    new.extend(old[at:])
    layer.old, layer.new = old, new
