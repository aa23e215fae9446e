"""Reading a repository's uncommitted work into a ``ChangeSet``.

Two diffs, never ``git diff HEAD``: the staged one (``--cached``, HEAD -> index)
and the unstaged one (index -> work tree), plus untracked files that git does not
ignore. They are merged per file, staged hunks first, sorted by path (byte order,
like git) and numbered ``change-1``...; hunk ids are ``change-N:k``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from segmint_core.changes.models import (
    ADDED,
    BINARY,
    CONFLICTED,
    COPIED,
    DELETED,
    MODIFIED,
    RENAMED,
    Change,
    FilePatch,
    Hunk,
)
from segmint_core.errors import UnknownIdError
from segmint_core.git import DIFF_OPTIONS, Git, decode, read_object_format
from segmint_core.git_modes import EXECUTABLE, REGULAR


class ChangeSet:
    """Every uncommitted change of a repository at one moment.

    ``fingerprint`` names the exact state (HEAD, both diffs, untracked files);
    later layers compare it to refuse references computed on another state.
    ``generated``: paths of generated files, which the session keeps whole
    (one unit, never split or read line by line); it fills them in.
    """

    def __init__(self, changes: list[Change], fingerprint: str | None, head: str | None) -> None:
        self.changes = changes
        self.fingerprint = fingerprint
        self.head = head
        self.generated: frozenset[str] = frozenset()
        # Paths whose change leaves HEAD's file as it is (``changes.unchanged``); the session fills them in.
        self.unchanged: frozenset[str] = frozenset()
        self._hunks = {h.id: (c, h) for c in changes for h in c.hunks}

    @property
    def by_id(self) -> dict[str, Change]:
        return {c.id: c for c in self.changes}

    def hunk(self, hunk_id: str) -> Hunk:
        return self._hunks[hunk_id][1]

    def change_of(self, hunk_id: str) -> Change:
        return self._hunks[hunk_id][0]

    def has_hunk(self, hunk_id: str) -> bool:
        return hunk_id in self._hunks

    def hunk_ids(self) -> list[str]:
        return [h.id for c in self.changes for h in c.hunks]

    def resolve_changes(self, ids: Iterable[str]) -> list[Change]:
        by_id = self.by_id
        ids = list(ids)
        unknown = [i for i in ids if i not in by_id]
        if unknown:
            raise UnknownIdError("change", unknown, list(by_id))
        return [by_id[i] for i in ids]

    def to_dict(self) -> dict:
        return {"changes": [c.to_dict() for c in self.changes]}


def capture(
    git: Git, *, on_patch: Callable[[FilePatch], None] | None = None, paths: list[str] | None = None
) -> ChangeSet:
    """The repository's staged, unstaged and untracked changes, merged and numbered.

    ``on_patch`` sees every file patch (staged, unstaged, untracked) once it is
    parsed, most of them while git is still writing the rest. ``paths``: only
    those files (their ids are then numbered among them alone).
    """
    only = ("--", *(":(literal)" + p for p in paths)) if paths is not None else ()
    running = git.start_many(
        ("diff", "--cached", *DIFF_OPTIONS, *only),
        # A submodule's own uncommitted edits are not the superproject's to
        # commit: list only pointer changes, without git's "-dirty" mark.
        # No renames: in the work tree git pairs only an intent-to-add file with a
        # deleted one, a rename from the index that no commit can take as one.
        ("diff", "--ignore-submodules=dirty", *DIFF_OPTIONS, "--no-renames", *only),
        ("ls-files", "-z", "--others", "--exclude-standard", *only),
        # The object format first (for untracked files' blob ids), then HEAD's id.
        ("rev-parse", "--show-object-format", "--verify", "--quiet", "HEAD^{commit}"),
        may_fail=(3,),  # an unborn branch has no HEAD yet
    )
    # Imported only now, while git works: on `segmint changes` these imports
    # (OpenSSL's hashlib above all) would otherwise delay git's start.
    import hashlib

    from segmint_core.changes.parser import DiffStream
    from segmint_core.changes.untracked import read_untracked, untracked_patch

    staged_hash, unstaged_hash = hashlib.sha256(), hashlib.sha256()
    staged_stream = DiffStream(from_git=True, hasher=staged_hash, on_patch=on_patch)
    unstaged_stream = DiffStream(from_git=True, hasher=unstaged_hash, on_patch=on_patch)
    _, _, untracked_out, head_out = running.finish([staged_stream, unstaged_stream, None, None])
    printed = head_out.text.split()
    fmt = read_object_format(printed[0] if printed else "")
    head = printed[-1] if head_out.returncode == 0 and len(printed) > 1 else None
    staged, unstaged = staged_stream.files, unstaged_stream.files
    for fp in staged:
        for h in fp.hunks:
            h.staged = True

    digest = hashlib.sha256()
    digest.update((head or "unborn").encode())
    digest.update(b"\0staged\0" + staged_hash.digest())
    digest.update(b"\0unstaged\0" + unstaged_hash.digest())

    untracked: list[FilePatch] = []
    executable_bit: list[bool] = []  # core.fileMode, read once, the first time an executable file needs it
    for raw in untracked_out.stdout.split(b"\0"):
        if not raw:
            continue
        rel = decode(raw)
        file = read_untracked(git.root, rel, fmt)
        if file is None:
            continue
        if file.mode == EXECUTABLE:
            if not executable_bit:
                executable_bit.append(trusts_executable_bit(git))
            if not executable_bit[0]:
                file.mode = REGULAR  # as `git add` stores it when git ignores the bit
        digest.update(b"\0untracked\0" + raw + b"\0" + file.mode.encode() + file.oid.encode())
        untracked.append(untracked_patch(file))
        if on_patch is not None:
            on_patch(untracked[-1])

    changes = merge_patches(staged, unstaged, untracked)
    return ChangeSet(changes, digest.hexdigest(), head)


def trusts_executable_bit(git: Git) -> bool:
    """``core.fileMode``: false (a Windows or WSL checkout, say) has git ignore the executable bit."""
    found = git.run("config", "--type=bool", "--get", "core.fileMode", check=False)
    return found.returncode != 0 or found.text.strip() != "false"


def merge_patches(staged: list[FilePatch], unstaged: list[FilePatch], untracked: list[FilePatch]) -> list[Change]:
    """One Change per file path, staged hunks first, numbered in path order."""
    slots: dict[str, list[FilePatch | None]] = {}
    untracked_paths: set[str] = set()
    for fp in _join_type_changes(staged):
        slots.setdefault(fp.path, [None, None])[0] = fp
    for fp in (*_join_type_changes(unstaged), *untracked):
        slot = slots.setdefault(fp.path, [None, None])
        if slot[1] is None:
            slot[1] = fp
    untracked_paths.update(fp.path for fp in untracked)

    ordered = sorted(slots, key=lambda p: p.encode("utf-8", "surrogateescape"))
    changes: list[Change] = []
    for n, path in enumerate(ordered, start=1):
        st, un = slots[path]
        change = _merge_one(f"change-{n}", path, st, un)
        change.untracked = path in untracked_paths and st is None
        changes.append(change)
    return changes


def _join_type_changes(patches: list[FilePatch]) -> list[FilePatch]:
    """A file replaced by a symlink (or the reverse) is, to git, the path's
    deletion followed by its creation: one layer here (``FilePatch.typechange``)."""
    out: list[FilePatch] = []
    for fp in patches:
        gone = out[-1] if out else None
        if gone is None or gone.status != DELETED or fp.status != ADDED or gone.old_path != fp.new_path:
            out.append(fp)
            continue
        binary = gone.binary or fp.binary
        out[-1] = FilePatch(
            gone.old_path,
            fp.new_path,
            BINARY if binary else MODIFIED,
            binary,
            gone.old_mode,
            fp.new_mode,
            gone.old_oid,
            fp.new_oid,
            None,
            gone.header_lines + fp.header_lines,
            gone.hunks + fp.hunks,
        )
    return out


def _merge_one(cid: str, path: str, st: FilePatch | None, un: FilePatch | None) -> Change:
    hunks: list[Hunk] = []
    for fp in (st, un):
        if fp is not None:
            hunks.extend(fp.hunks)
    for k, h in enumerate(hunks, start=1):
        h.id = f"{cid}:{k}"
    first = st or un
    last = un or st
    assert first is not None and last is not None
    binary = any(fp is not None and fp.binary for fp in (st, un))
    return Change(
        id=cid,
        file_path=path,
        old_path=first.old_path if first.status in (RENAMED, COPIED) else None,
        status=_merged_status(st, un, binary),
        binary=binary,
        hunks=hunks,
        old_mode=first.old_mode,
        new_mode=last.new_mode,
        staged_patch=st,
        unstaged_patch=un,
    )


def _merged_status(st: FilePatch | None, un: FilePatch | None, binary: bool) -> str:
    layers = [fp for fp in (st, un) if fp is not None]
    if any(fp.status == CONFLICTED for fp in layers):
        return CONFLICTED
    first, last = layers[0], layers[-1]
    if last.new_path is None:
        return DELETED
    if first.status in (RENAMED, COPIED):
        return first.status
    if first.old_path is None:
        return ADDED
    return BINARY if binary else MODIFIED
