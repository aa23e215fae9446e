"""Taking back a commit Segmint made: HEAD to its parent, the index entries it rewrote as they were.

The index entries are restored from the copy of the index saved before the
commit, exactly: mode, object and flags (an intent-to-add entry stays one).
Like an apply, an undo is journaled (``journal``): the restored index is
prepared first, so a process killed after HEAD moved is finished by the next.
Work-tree files are never written.
"""

from __future__ import annotations

import bisect
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass

from segmint_core.apply import journal
from segmint_core.apply.gitops import LITERAL, index_lock, move_head, scratch_root
from segmint_core.errors import RefusedError, SegmintError
from segmint_core.git import Git
from segmint_core.git_modes import EXECUTABLE, GITLINK, SYMLINK
from segmint_core.wording import shown


def undo_commit(
    git: Git,
    sha: str,
    parent: str | None,
    *,
    saved_index: str | None,
    paths: list[str],
    label: str,
    record: Callable[[], None],
    after: dict[str, str] | None = None,
    undoes: list[str] | None = None,
) -> None:
    """Move HEAD from ``sha`` back to ``parent`` and restore ``paths`` in the index from ``saved_index``;
    ``record`` (the session's) runs before the journal goes. ``after``: each path's entry as the
    apply left it (``mode oid``, "" for none); a path staged otherwise since keeps what is staged.
    ``sha`` may be several commits on from ``parent`` (the last of an ``apply --all``): one move takes
    them all back; ``undoes`` names their operations in the journal."""
    saved_index = saved_copy(git, saved_index)
    if paths and saved_index is not None and not os.path.exists(saved_index):
        raise RefusedError(_missing_copy(label, saved_index, parent))
    with journal.flight(git, journal.UNDO, label, sha) as flight:
        with index_lock(git, token=flight.journal.token) as held:
            if after:
                paths = unchanged_since(git, str(held.index), paths, after)
            paths = clear_of_staged(git, str(held.index), paths)
            gone = _pruned(git, saved_index, paths)
            if gone:
                raise RefusedError(_pruned_sentence(label, gone, parent))
            prepared = _restored_index(git, str(held.index), flight.prepared, saved_index, paths)
            flight.ready(
                target=parent, index=flight.prepared if prepared else None, undone=sha, undoes=list(undoes or [])
            )
            move_head(git, sha, parent, "segmint: undo")
            flight.moved = True
            try:
                if prepared:
                    os.replace(flight.prepared, held.index)
            except BaseException:
                try:
                    move_head(git, parent, sha, "segmint: roll back a failed undo")
                    flight.moved = False
                except SegmintError:
                    pass  # HEAD stays on the parent; the journal lets the next run finish the undo
                raise
        record()


def saved_copy(git: Git, recorded: str | None) -> str | None:
    """The copy of the index an apply saved for undo, by its name in this repository's
    ``.git/segmint/undo/``: the session recorded it with the folder's path then, and the
    repository may have been moved since. None when there was no index to save."""
    if not recorded:
        return None
    return os.path.join(git.git_dir, "segmint", journal.UNDO_FOLDER, os.path.basename(recorded))


def forget_saved_index(git: Git, recorded: str | None) -> None:
    """Remove the copy of the index an apply saved, once no undo can reach its commit."""
    copy = saved_copy(git, recorded)
    if copy is not None:
        try:
            os.unlink(copy)
        except FileNotFoundError:
            pass


def _missing_copy(label: str, saved_index: str, parent: str | None) -> str:
    return (
        f"The copy of the index saved before {label} was committed is missing ({saved_index}), so undo "
        f"cannot put the index back as it was; nothing was undone {_by_hand(parent)}"
    )


def _pruned(git: Git, saved_index: str | None, paths: list[str]) -> list[str]:
    """Those of ``paths`` whose saved entry names a blob the repository no longer has: only the
    saved copy of the index held it, and ``git gc`` took it. (A submodule's commit is the
    submodule's; an intent-to-add entry is made again by ``git add -N``.)"""
    if not paths or not saved_index:
        return []
    rows = []
    for entry in read_entries(git, saved_index, paths):
        mode, oid, _ = entry.row.split(b" ", 2)
        if not entry.intent_to_add and mode != GITLINK.encode():
            rows.append((entry.path, oid))
    if not rows:
        return []
    found = git.run("cat-file", "--batch-check", input=b"".join(oid + b"\n" for _, oid in rows)).stdout.splitlines()
    return [path for (path, _), line in zip(rows, found) if line.endswith(b" missing")]


def _pruned_sentence(label: str, paths: list[str], parent: str | None) -> str:
    names = ", ".join(shown(p) for p in paths)
    return (
        f"Undo cannot put the index back as it was before {label}: the staged version of {names} it saved "
        f"is no longer in the repository (git gc removed it); nothing was undone {_by_hand(parent)}"
    )


def _by_hand(parent: str | None) -> str:
    back = "git reset --soft HEAD~1" if parent else "git update-ref -d HEAD"
    return f"(`{back}` takes the commit back and leaves its changes staged)"


def _restored_index(git: Git, index_path: str, prepared: str, saved_index: str | None, paths: list[str]) -> bool:
    """The real index with ``paths`` as they were in ``saved_index`` (absent where they were not
    there), written to ``prepared``; False when there is nothing to restore."""
    if not paths:
        return False
    shutil.copy2(index_path, prepared)  # keep the mtime: see commit._prepare_index
    into = {"GIT_INDEX_FILE": prepared}
    git.run("update-index", "-z", "--force-remove", "--stdin", input=_nul(paths), env=into)
    if not saved_index:  # the apply found no index: these entries were not there
        return True
    entries = read_entries(git, saved_index, paths)
    plain = [e.row for e in entries if not e.intent_to_add]
    if plain:
        git.run("update-index", "-z", "--index-info", input=b"\0".join(plain) + b"\0", env=into)
    intent = [e for e in entries if e.intent_to_add]
    if intent:
        _add_intent(git, prepared, intent)
    for flag, option in ((SKIP_WORKTREE, "--skip-worktree"), (ASSUME_VALID, "--assume-unchanged")):
        flagged = [e.path for e in entries if e.flags & flag]
        if flagged:
            git.run("update-index", "-z", option, "--stdin", input=_nul(flagged), env=into)
    return True


def _add_intent(git: Git, index_path: str, entries: list[Entry]) -> None:
    """Intent-to-add entries as they were, mode included, into the index at ``index_path``. No plumbing
    writes the flag, only ``git add -N`` of a file in a work tree; the real one may hold another kind
    of file there by now (a symlink, a folder) or none, so it adds stand-ins of the saved modes from a
    scratch work tree: the entry's object is the empty blob whatever the file holds."""
    with tempfile.TemporaryDirectory(prefix="segmint-intent-", dir=scratch_root(git)) as tree:
        for entry in entries:
            full = os.path.join(tree, entry.path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            mode = entry.row.split(b" ", 1)[0]
            if mode == SYMLINK.encode():
                os.symlink("stand-in", full)
            else:
                with open(full, "wb"):
                    pass
                os.chmod(full, 0o755 if mode == EXECUTABLE.encode() else 0o644)
        git.run(
            "-c",
            "core.fileMode=true",
            "-c",
            "core.symlinks=true",
            "--work-tree",
            tree,
            "-C",
            tree,
            "add",
            "--intent-to-add",
            "--force",
            "--",
            *(e.path for e in entries),
            env={"GIT_INDEX_FILE": index_path, "GIT_DIR": git.git_dir, **LITERAL},
        )


def unchanged_since(git: Git, index_path: str, paths: list[str], after: dict[str, str]) -> list[str]:
    """Those of ``paths`` whose entry in the index is still the one the apply wrote: the person
    staged the others since (maybe a version that is nowhere else), and undo leaves them be."""
    now: dict[str, str] = {}
    for entry in read_entries(git, index_path, paths) if os.path.exists(index_path) else []:
        mode, oid, stage = entry.row.split(b"\t", 1)[0].decode().split()
        now[entry.path] = f"{mode} {oid}" if stage == "0" and entry.path not in now else "conflicted"
    return [p for p in paths if p not in after or now.get(p, "") == after[p]]


def clear_of_staged(git: Git, index_path: str, paths: list[str]) -> list[str]:
    """Those of ``paths`` that can go back without displacing an entry staged since where a file and
    a folder meet (a file ``x`` put back would drop a staged ``x/y``: git keeps a path one or the
    other); undo leaves the others be, as it leaves any path staged since."""
    if not paths or not os.path.exists(index_path):
        return paths
    restoring = set(paths)
    listed = git.run("ls-files", "-z", env={"GIT_INDEX_FILE": index_path}).stdout.split(b"\0")
    others = sorted(
        {name for raw in listed if raw and (name := raw.decode("utf-8", "surrogateescape")) not in restoring}
    )
    return [p for p in paths if not _meets(p, others)]


def _meets(path: str, others: list[str]) -> bool:
    """Whether the sorted index paths ``others`` hold one inside ``path`` or a file at one of its folders."""
    inside = path + "/"
    at = bisect.bisect_left(others, inside)
    if at < len(others) and others[at].startswith(inside):
        return True
    for cut in range(len(path)):
        if path[cut] == "/":
            at = bisect.bisect_left(others, path[:cut])
            if at < len(others) and others[at] == path[:cut]:
                return True
    return False


INTENT_TO_ADD = 1 << 29  # git's CE_INTENT_TO_ADD, as ``ls-files --debug`` shows it
SKIP_WORKTREE = 1 << 30  # CE_SKIP_WORKTREE
ASSUME_VALID = 0x8000  # CE_VALID: --assume-unchanged


@dataclass
class Entry:
    path: str
    row: bytes  # "mode oid stage\tpath", as --index-info takes it
    flags: int

    @property
    def intent_to_add(self) -> bool:
        return bool(self.flags & INTENT_TO_ADD)


def read_entries(git: Git, index_file: str, paths: list[str]) -> list[Entry]:
    """The entries of ``paths`` in ``index_file``, with their flags."""
    out = git.run(
        "ls-files", "--stage", "--debug", "-z", "--", *paths, env={"GIT_INDEX_FILE": index_file, **LITERAL}
    ).stdout  # `[a].txt` names itself, not a.txt
    # Each entry: "mode oid stage\tpath", NUL, then five debug lines, the last "  size: N\tflags: HEX".
    chunks = out.split(b"\0")
    entries = []
    row = chunks[0]
    for chunk in chunks[1:]:
        lines = chunk.split(b"\n", 5)
        flags = lines[4].rpartition(b"flags: ")[2]
        path = row.split(b"\t", 1)[1].decode("utf-8", "surrogateescape")
        entries.append(Entry(path, row, int(flags, 16)))
        row = lines[5] if len(lines) > 5 else b""
    return entries


def _nul(paths: list[str]) -> bytes:
    return b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
