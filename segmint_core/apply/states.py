"""What each file becomes: in the new commit, and in the index after it.

For one changed file and a selection of its changed lines:

- the commit gets HEAD's version plus exactly the selected lines; the file's
  own operations (creation, deletion, rename, mode change) go with the first
  commit that touches the file at all;
- the index afterwards is the commit's version plus every still-staged line,
  so staged work the plan did not cover stays staged, and nothing the commit
  took shows up as a staged reversal.

A deletion takes the file away only when all of its removed lines are
selected and no line is left (a line a staged change removes stays until that
change is selected too); part of a deletion is a change to the file's content.
"""

from __future__ import annotations

from dataclasses import dataclass

from segmint_core.apply.lines import FileLines, LineRef, MissingDependency
from segmint_core.changes.models import COPIED, RENAMED, Change, FilePatch
from segmint_core.errors import RefusedError
from segmint_core.git_modes import REGULAR, SYMLINK
from segmint_core.wording import shown


@dataclass(frozen=True)
class FileState:
    """One index entry: ``content`` None means the path is absent.

    ``oid`` is set when the content is an existing object (binary files,
    gitlinks); otherwise the blob is ``content``: stored as it is, or, with
    ``worktree``, as ``git add`` would store a file holding it (the path's
    clean filter and eol conversion; for lines of an untracked file).
    """

    path: str
    mode: str | None
    content: bytes | None
    oid: str | None = None
    worktree: bool = False

    @property
    def absent(self) -> bool:
        return self.content is None and self.oid is None


@dataclass(frozen=True)
class FileTargets:
    commit: list[FileState]  # entries to write into the commit's tree
    index: list[FileState]  # entries to write into the index afterwards


def renamed_away(changes: list[Change]) -> dict[str, Change]:
    """Paths a staged rename moves away from -> that rename's change.

    HEAD's file at such a path belongs to the rename; another change at the
    same path (a new file put there since) starts from nothing and needs the
    rename committed first.
    """
    return {
        c.old_path: c for c in changes if c.old_path and c.staged_patch is not None and c.staged_patch.status == RENAMED
    }


def start_path(change: Change, away: dict[str, Change]) -> str | None:
    """The path of HEAD's file the change's lines start from: the old path of a rename, else its
    own; None where a staged rename takes HEAD's file away (``renamed_away``): a file put there
    since starts from nothing. The commit and the plans' line models both read it here."""
    if change.old_path:
        return change.old_path
    rename = away.get(change.file_path)
    return None if rename is not None and rename is not change else change.file_path


def change_dependencies(changes: list[Change]) -> dict[str, set[str]]:
    """change id -> change ids it needs committed first: files moved away, and files removed
    where a folder stood or where a file's folder goes (git keeps a path a file or a folder,
    never both, so the one could not go in without taking the other out)."""
    away = renamed_away(changes)
    needs = {c.id: {away[c.file_path].id} for c in changes if c.file_path in away and away[c.file_path] is not c}
    for needer, needed in folder_clashes(changes).items():
        needs.setdefault(needer, set()).update(needed)
    return needs


def folder_clashes(changes: list[Change]) -> dict[str, set[str]]:
    """change id of a file that is there in the end -> ids of the removed files at a path it
    needs free: files inside the folder it replaces, or a file where one of its folders goes."""
    gone: dict[str, str] = {}
    for c in changes:
        last = c.unstaged_patch or c.staged_patch
        if last is not None and last.new_path is None:
            gone[c.file_path] = c.id
    if not gone:
        return {}
    inside: dict[str, set[str]] = {}  # folder -> removed files under it
    for path, cid in gone.items():
        for cut in range(len(path)):
            if path[cut] == "/":
                inside.setdefault(path[:cut], set()).add(cid)
    needs: dict[str, set[str]] = {}
    for c in changes:
        if c.file_path in gone:
            continue
        path = c.file_path
        found = set(inside.get(path, ()))
        found.update(gone[path[:cut]] for cut in range(len(path)) if path[cut] == "/" and path[:cut] in gone)
        if found:
            needs[c.id] = found
    return needs


def file_lines(change: Change, base: bytes) -> FileLines:
    """The line model of a change over its base content."""
    staged, unstaged = change.staged_patch, change.unstaged_patch
    return FileLines(
        change.file_path,
        base,
        staged.hunks if staged else [],
        unstaged.hunks if unstaged else [],
        new_file=_new_file_hunks(staged, unstaged),
    )


def _new_file_hunks(staged: FilePatch | None, unstaged: FilePatch | None) -> set[str]:
    """Hunks that write a new file over the old one: the addition of the last
    type change, or a re-creation after a staged deletion; and any later edit."""
    ids: set[str] = set()
    for fp in (staged, unstaged):
        if fp is None:
            continue
        if fp.typechange or (fp is unstaged and _deletes(staged) and _creates(fp)):
            ids = {h.id for h in fp.hunks if not h.old_lines}
        elif ids:
            ids |= {h.id for h in fp.hunks}
    return ids


def layer_refs(fp: FilePatch | None) -> set[LineRef]:
    if fp is None:
        return set()
    return {(h.id, i) for h in fp.hunks for i, line in enumerate(h.lines) if line[:1] in ("+", "-")}


def _deletes(fp: FilePatch | None) -> bool:
    return fp is not None and fp.new_path is None


def _creates(fp: FilePatch | None) -> bool:
    return fp is not None and fp.old_path is None


def text_targets(
    change: Change, model: FileLines, selected: set[LineRef], base_mode: str | None, base_path: str
) -> FileTargets:
    """Targets for a text file (regular file or symlink) the plan touches."""
    commit = _state(change, model, selected, base_mode, base_path)
    if change.unstaged_patch is None:
        # A staged-only file's index entry already holds every staged line.
        return FileTargets(commit, [])
    index = _state(change, model, selected | layer_refs(change.staged_patch), base_mode, base_path)
    return FileTargets(commit, index)


def _state(
    change: Change, model: FileLines, refs: set[LineRef], base_mode: str | None, base_path: str
) -> list[FileState]:
    exists = base_mode is not None
    mode = base_mode
    path = base_path
    worktree = False  # the content is an untracked file's lines, unfiltered
    entries: list[FileState] = []
    for fp in (change.staged_patch, change.unstaged_patch):
        if fp is None:
            continue
        own = layer_refs(fp)
        if fp.typechange:
            # The new file replaces the old (selecting its lines needs the old
            # ones' removal: FileLines); the removal alone deletes the file.
            additions = {h.id for h in fp.hunks if not h.old_lines}
            added = {ref for ref in own if ref[0] in additions}
            if added & refs or not added and own <= refs:
                exists, mode = True, fp.new_mode
            elif own - added <= refs:
                exists = False
            continue
        if _deletes(fp) and own <= refs and not model.keeps_any(refs):
            # A deletion takes the file away with the lines it removes; a line another
            # layer removes stays until that removal is selected too.
            exists = False
        elif _creates(fp) and (own & refs or not fp.hunks):
            exists, worktree = True, fp.unfiltered
        if fp.new_mode and not _deletes(fp):
            mode = fp.new_mode
        if fp.status in (RENAMED, COPIED) and fp.new_path:
            if fp.status == RENAMED:
                entries.append(FileState(path, None, None))
            path = fp.new_path
    if not exists:
        _refuse_orphan_lines(change, model, refs)
        entries.append(FileState(path, None, None))
        return entries
    mode = mode or REGULAR
    entries.append(FileState(path, mode, model.materialize(refs), worktree=worktree and mode != SYMLINK))
    return entries


def leaves_as_is(change: Change, model: FileLines, refs: set[LineRef]) -> bool:
    """Whether exactly ``refs`` leave the file as HEAD has it (path, mode and bytes): a file
    deleted in the index and made again as it was, say. A commit of them alone changes nothing.
    False when they cannot be committed alone."""
    return changes_file(change, model, refs) is False


def changes_file(change: Change, model: FileLines, refs: set[LineRef]) -> bool | None:
    """Whether a commit of exactly ``refs`` changes the file from what HEAD has (path, mode or
    bytes); None when they cannot be committed alone."""
    first = change.staged_patch or change.unstaged_patch
    base_mode = first.old_mode if first is not None else None
    base_path = change.old_path or change.file_path
    try:
        after = _state(change, model, refs, base_mode, base_path)
        head = model.materialize(set())
    except RefusedError:
        return None
    if base_mode is None:
        return [(s.path, s.absent) for s in after] != [(base_path, True)]
    return [(s.path, s.mode, s.content) for s in after] != [(base_path, base_mode, head)]


def _refuse_orphan_lines(change: Change, model: FileLines, refs: set[LineRef]) -> None:
    """Selected added lines, not removed again, in a file the selection does not create."""
    for line in model.lines:
        if line.added_by in refs and not any(ref in refs for ref in line.removed_by):
            creator = _creator(change)
            needs = (
                creator.hunks[0].id
                if creator is not None and creator.hunks
                else f"the creation of {shown(change.file_path)}"
            )
            raise MissingDependency(needs, line.added_by[0])


def _creator(change: Change) -> FilePatch | None:
    return next((fp for fp in (change.staged_patch, change.unstaged_patch) if _creates(fp)), None)


def creation_needs(change: Change) -> tuple[set[LineRef], set[LineRef], LineRef | None]:
    """For a file one layer creates and the other adds lines to: the creating layer's lines, the
    other layer's added lines, and the creation's first line. An added line of the other layer is
    in a commit only with some creating line, or the file is not there (``_refuse_orphan_lines``)."""
    creator = _creator(change)
    if creator is None or not creator.hunks:
        return set(), set(), None
    other = change.unstaged_patch if creator is change.staged_patch else change.staged_patch
    if other is None:
        return set(), set(), None
    added = {(h.id, i) for h in other.hunks for i, line in enumerate(h.lines) if line[:1] == "+"}
    created = layer_refs(creator)
    first = creator.hunks[0]
    start = next((i for i, line in enumerate(first.lines) if line[:1] in ("+", "-")), None)
    return created, added, (first.id, start) if start is not None else None


def whole_file_targets(change: Change, final_oid: str | None, base_path: str) -> FileTargets:
    """Targets for a file taken whole (binary, submodule pointer): the final
    version goes into the commit; the index takes it too if it was unstaged."""
    last = change.unstaged_patch or change.staged_patch
    assert last is not None
    entries: list[FileState] = []
    path = base_path
    first = change.staged_patch or change.unstaged_patch
    if first is not None and first.status == RENAMED and first.new_path:
        entries.append(FileState(base_path, None, None))
        path = first.new_path
    if _deletes(last) or final_oid is None:
        entries.append(FileState(path, None, None))
    else:
        entries.append(FileState(path, last.new_mode or REGULAR, None, oid=final_oid))
    index = entries if change.unstaged_patch is not None else []
    return FileTargets(entries, index)


def line_counts(change: Change) -> tuple[int, int]:
    """Lines a change adds and removes, counted on git's bytes without decoding its hunks
    (a generated file of a hundred thousand hunks counts in milliseconds)."""
    added = removed = 0
    for hunk in change.hunks:
        body = hunk.body
        if body is None:
            added += hunk.added
            removed += hunk.removed
            continue
        added += body.count(b"\n+") + body.startswith(b"+")
        removed += body.count(b"\n-") + body.startswith(b"-")
    return added, removed
