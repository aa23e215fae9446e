"""Committing exactly a selection of changed lines on top of HEAD.

The order of work, and why:

1. Refuse early, changing nothing: a merge/rebase/cherry-pick under way, HEAD
   moved, or any touched file different from when the selection was made.
2. Compute every target (see ``states``) before writing anything; a selection
   that needs a line it lacks is refused here, naming the missing hunk.
3. Write the journal (``journal``), then take ``index.lock`` (git's own
   protocol) and save the index for ``undo``.
4. Prepare the real index as it must be after the commit (the commit plus
   the still-staged lines) beside the real one, and the commit's tree in a
   scratch index; say in the journal that both are ready.
5. Run ``git commit`` on the scratch index, so the user's pre-commit,
   commit-msg and post-commit hooks run and ``commit.gpgsign`` is honoured;
   a commit whose tree is not the planned one (a hook staged files) is taken back.
6. Rename the prepared index into place. If that fails, HEAD is moved back.
   A process killed anywhere from 3 on is finished or rolled back by the
   next one (``journal.finish``): the index never stays behind HEAD.

Work-tree files are never written.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from pathlib import Path

from segmint_core.apply import journal
from segmint_core.apply.gitops import (
    hash_as_added,
    hash_worktree_file,
    head_entries,
    index_lock,
    move_head,
    scratch_index,
    update_index,
    write_blobs,
)
from segmint_core.apply.lines import LineRef
from segmint_core.apply.lines import MissingDependency
from segmint_core.apply.states import (
    FileState,
    FileTargets,
    file_lines,
    folder_clashes,
    line_counts,
    renamed_away,
    start_path,
    text_targets,
    whole_file_targets,
)
from segmint_core.changes import ChangeSet, capture
from segmint_core.changes.models import CONFLICTED, Change, FilePatch
from segmint_core.changes.untracked import blob_oid
from segmint_core.errors import (
    GitCommandError,
    RefusedError,
    SegmintError,
    StaleReferenceError,
    UnfinishedOperationError,
)
from segmint_core.git import Git, read_blobs
from segmint_core.git_modes import GITLINK, SYMLINK
from segmint_core.wording import shown

SUBPROJECT = "Subproject commit "
DIRTY = "-dirty"


class NothingToCommit(RefusedError):
    """The selection does not change any file of HEAD."""


@dataclass
class Selection:
    """Changed lines to commit, by change id; ``whole`` changes go in entire
    (binary files, submodule pointers, and changes with no hunks at all)."""

    refs: dict[str, set[LineRef]] = field(default_factory=dict)
    whole: set[str] = field(default_factory=set)

    def change_ids(self) -> list[str]:
        return sorted(set(self.refs) | self.whole, key=_change_number)


@dataclass
class FileStat:
    path: str
    added: int
    removed: int


@dataclass
class ApplyResult:
    sha: str | None  # None for a dry run
    parent: str | None
    files: list[FileStat]
    index_paths: list[str]  # index entries rewritten
    saved_index: str | None  # copy of the index before, for undo
    dry_run: bool = False
    index_after: dict[str, str] = field(default_factory=dict)  # path -> "mode oid" written ("" removed)


def apply_selection(
    git: Git,
    changes: ChangeSet,
    selection: Selection,
    message: str,
    *,
    dry_run: bool = False,
    label: str = "a commit",
    record: Callable[[ApplyResult], None] | None = None,
    operation: str = "",
    rewrite: Callable[[str], str] | None = None,
) -> ApplyResult:
    """Commit the selection; ``record`` (the session's) runs before the journal goes.

    ``label`` names the work in the sentence a later run says if this one is
    interrupted (``journal.finish``); ``operation``, the operation it belongs to, so that run logs it there.
    ``rewrite`` (absorb) makes, from the tree HEAD would have with the selection, the new tip of a
    rewritten branch: HEAD moves there instead of to a new commit on top (no hooks run).
    """
    by_id = changes.by_id
    touched = [by_id[cid] for cid in selection.change_ids()]
    if not touched:
        raise RefusedError("Nothing to commit: the plan selects no changes")
    _check_repository(git, changes, touched)
    away = renamed_away(changes.changes)
    _check_moved_paths(away, touched, changes.changes)
    targets, stats = _targets(git, changes.head, touched, selection, away)
    if dry_run:
        return ApplyResult(None, changes.head, stats, [], None, dry_run=True)
    with journal.flight(git, journal.APPLY, label, changes.head) as flight:
        with index_lock(git, token=flight.journal.token) as held:
            saved = _save_index(held.index, flight.journal.saved_index)
            paths, after = _prepare_index(git, held.index, targets, flight.prepared)
            tree = _commit_tree(git, changes.head, targets, flight.scratch, label)
            tip = rewrite(tree) if rewrite is not None else None
            flight.ready(
                target=tree,
                paths=paths,
                index_after=after,
                saved_index=saved,
                index=flight.prepared if paths else None,
                operation=operation,
                tip=tip,
            )
            if tip is not None:
                sha = _move_to_rewritten(git, flight, changes.head, tip)
            else:
                sha = _commit_in_flight(git, flight, held, changes.head, message, tree, paths)
            flight.moved = True
            try:
                _check_committed_tree(git, sha, tree)
                if paths:
                    os.replace(flight.prepared, held.index)
            except BaseException:
                try:
                    move_head(git, sha, changes.head, "segmint: roll back a failed apply")
                    flight.moved = False
                except SegmintError:
                    pass  # HEAD stays on the commit; the journal lets the next run finish it
                raise
        result = ApplyResult(sha, changes.head, stats, paths, saved, index_after=after)
        if record is not None:
            record(result)
    return result


def planned_tree(git: Git, changes: ChangeSet, selection: Selection, scratch: str) -> str:
    """The tree HEAD would have with ``selection`` committed on it, built in the index file at
    ``scratch`` by the rules ``apply_selection`` commits with; nothing else is written but blobs.
    A selection that cannot be committed on its own is refused (``MissingDependency``)."""
    by_id = changes.by_id
    touched = [by_id[cid] for cid in selection.change_ids()]
    away = renamed_away(changes.changes)
    _check_moved_paths(away, touched, changes.changes)
    targets, _ = _targets(git, changes.head, touched, selection, away)
    scratch_index(git, changes.head, scratch)
    update_index(git, scratch, _with_blobs(git, [s for t in targets for s in t.commit]))
    return git.run("write-tree", env={"GIT_INDEX_FILE": scratch}).text.strip()


def _move_to_rewritten(git: Git, flight: journal.Flight, head: str | None, tip: str) -> str:
    """The branch to the rewritten tip (its commits are made already, by plumbing): one ref update."""
    move_head(git, head, tip, "segmint: absorb")
    return tip


def _commit_in_flight(
    git: Git, flight: journal.Flight, held: Any, head: str | None, message: str, tree: str, paths: list[str]
) -> str:
    """``git commit`` of the scratch index, its hooks holding the keep-alive lock."""
    try:
        with flight.inherited():
            return _run_git_commit(git, flight.scratch, head, message)
    except BaseException:
        if _committed_anyway(git, head, tree):
            # Interrupted once git had made the commit (a Ctrl-C in a slow post-commit hook):
            # the index follows HEAD now, under the lock; the next command records the commit.
            flight.moved = True
            if paths:
                os.replace(flight.prepared, held.index)
        raise


# -- 1. refusals ----------------------------------------------------------------


def refuse_unfinished(git: Git, doing: str) -> None:
    """Refuse ``doing`` (commit, undo) while a merge or the like is under way or the index
    holds conflicts: a commit now would record a half-finished state, or lose the conflict."""
    operation, unmerged = git.operation_in_progress(), git.unmerged_paths()
    if operation or unmerged:
        raise UnfinishedOperationError(doing, operation, unmerged)


def _check_repository(git: Git, changes: ChangeSet, touched: list[Change]) -> None:
    refuse_unfinished(git, "commit")
    conflicted = [c.file_path for c in touched if c.status == CONFLICTED]
    if conflicted:
        raise RefusedError(
            f"Cannot commit conflicted files: {', '.join(shown(p) for p in conflicted)}; resolve "
            "the conflicts and stage the result (git add), then plan again (segmint plan --new)"
        )
    head = git.head()
    if head != changes.head:
        raise StaleReferenceError(
            f"HEAD moved since the changes were listed (was {_short(changes.head)}, now {_short(head)}); refresh first"
        )
    whole = [c for c in touched if c.file_path in changes.generated and _tracked(c)]
    rest = [c for c in touched if c not in whole]
    paths = sorted(related_paths(changes, {p for c in rest for p in (c.file_path, c.old_path) if p}))
    now = {c.file_path: c for c in capture(git, paths=paths).changes} if paths else {}
    moved = [c.file_path for c in rest if _signature(now.get(c.file_path)) != _signature(c)]
    moved += [c.file_path for c in whole if not _same_blobs(git, c)]
    if moved:
        raise StaleReferenceError(
            f"Files changed since the plan was made: {', '.join(shown(p) for p in sorted(moved))}; refresh first"
        )


def related_paths(changes: ChangeSet, paths: set[str]) -> set[str]:
    """``paths`` and the paths paired with them in a rename: git sees a rename only when a diff
    limited to some paths holds both of its sides."""
    out = set(paths)
    for change in changes.changes:
        if change.old_path and (change.old_path in paths or change.file_path in paths):
            out.update((change.old_path, change.file_path))
    return out


def _tracked(change: Change) -> bool:
    return not change.untracked and all(
        fp is None or not fp.unfiltered for fp in (change.staged_patch, change.unstaged_patch)
    )


def _same_blobs(git: Git, change: Change) -> bool:
    """Whether a file kept whole (a generated one) still has the index entry and work-tree
    content its change was read with: compared by object id, never diffed again."""
    staged, unstaged = change.staged_patch, change.unstaged_patch
    path = change.file_path
    if staged is not None:
        index = (staged.new_mode, staged.new_oid)
    else:
        assert unstaged is not None  # a change has a staged layer, an unstaged one, or both
        index = (unstaged.old_mode, unstaged.old_oid)
    listed = git.run("ls-files", "-s", "-z", "--", ":(literal)" + path).stdout.split(b"\0")[0]
    zero = git.zero_oid
    now = tuple(listed.split(b"\t", 1)[0].decode().split()[:2]) if listed else (None, zero)
    if now != (index[0], index[1] or zero) and not _intent_to_add(git, change, now):
        return False
    work = unstaged.new_oid if unstaged is not None else index[1]
    full = os.path.join(git.root, path)
    if not os.path.lexists(full) or os.path.isdir(full) and not os.path.islink(full):
        return (work or zero) == zero  # (a folder there now: to git the file is gone)
    if os.path.islink(full) != ((unstaged.new_mode if unstaged is not None else index[0]) == SYMLINK):
        return False  # a file made a link since, or the reverse
    if os.path.islink(full):  # a link's blob is its target's text, never filtered
        target = os.fsencode(os.readlink(full))
        return git.run("hash-object", "--no-filters", "--stdin", input=target).text.strip() == work
    return git.run("hash-object", "--path", path, "--", full).text.strip() == work  # (not stored: no -w)


def _intent_to_add(git: Git, change: Change, entry: tuple) -> bool:
    """Whether ``entry`` (the index's ``mode oid``) is the intent-to-add entry of a file the work
    tree creates: git diffs it as a new file, yet the index holds the empty blob for it."""
    unstaged = change.unstaged_patch
    return (
        change.staged_patch is None
        and unstaged is not None
        and unstaged.old_path is None
        and not change.untracked
        and entry[1] == blob_oid(b"", git.object_format)
    )


def _signature(change: Change | None) -> tuple | None:
    if change is None:
        return None
    return tuple(_layer_signature(fp) for fp in (change.staged_patch, change.unstaged_patch))


def _layer_signature(fp: FilePatch | None) -> tuple | None:
    if fp is None:
        return None
    return (tuple(fp.header_lines), tuple((h.header, tuple(h.lines)) for h in fp.hunks))


def _short(oid: str | None) -> str:
    return oid[:10] if oid else "no commit"


# -- 2. targets -------------------------------------------------------------------


def _check_moved_paths(away: dict[str, Change], touched: list[Change], changes: list[Change]) -> None:
    """Refuse a change at a path whose HEAD file a staged rename takes away, without that rename;
    and a file at a path a folder holds (or in a folder where a file is), without its removal."""
    ids = {c.id for c in touched}
    for change in touched:
        rename = away.get(change.file_path)
        if rename is not None and rename is not change and rename.id not in ids:
            raise MissingDependency(rename.id, change.id)
    clashes = folder_clashes(changes)
    for change in touched:
        missing = sorted(clashes.get(change.id, set()) - ids, key=_change_number)
        if missing:
            raise MissingDependency(missing[0], change.id)


def _targets(
    git: Git, head: str | None, touched: list[Change], selection: Selection, away: dict[str, Change]
) -> tuple[list[FileTargets], list[FileStat]]:
    starts = {c.id: start_path(c, away) for c in touched}
    entries = head_entries(git, head, sorted({p for p in starts.values() if p}))
    whole = {c.id for c in touched if _whole(c) or c.id in selection.whole and c.hunks}  # (a generated file)
    contents = read_blobs(git, [entries[p][1] for c in touched if c.id not in whole and (p := starts[c.id]) in entries])
    targets: list[FileTargets] = []
    stats: list[FileStat] = []
    for change in touched:
        base_path = change.old_path or change.file_path
        mode, oid = entries.get(starts[change.id] or "", (None, None))
        if change.id in whole:
            targets.append(whole_file_targets(change, _final_oid(git, change), base_path))
            stats.append(FileStat(change.file_path, *(line_counts(change) if change.hunks else (0, 0))))
            continue
        refs = selection.refs.get(change.id, set())
        model = file_lines(change, contents.get(oid, b"") if oid else b"")
        targets.append(text_targets(change, model, refs, mode, base_path))
        stats.append(FileStat(change.file_path, *model.net_counts(refs)))
    return targets, stats


def _whole(change: Change) -> bool:
    return change.binary or GITLINK in (change.old_mode, change.new_mode)


def _final_oid(git: Git, change: Change) -> str | None:
    """The object the file ends up as, for a file taken whole."""
    last = change.unstaged_patch or change.staged_patch
    if last is None or last.new_path is None:
        return None
    if GITLINK == last.new_mode or GITLINK == change.new_mode:
        for hunk in last.hunks:
            for line in hunk.lines:
                if line.startswith("+" + SUBPROJECT):
                    # "<sha>-dirty": the checkout has local edits; like git, commit its HEAD.
                    return line[len(SUBPROJECT) + 1 :].strip().removesuffix(DIRTY)
        # A nested repository seen as untracked: its checked-out commit.
        found = git.run("-C", change.file_path, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False)
        if found.returncode != 0:
            raise RefusedError(
                f"{shown(change.file_path)} is a repository with no commit checked out: "
                "make a commit in it, or ignore it, to commit the rest"
            )
        return found.text.strip()
    if change.unstaged_patch is None:
        return last.new_oid  # the staged layer's, already an object: it is in the index
    if last.new_mode == SYMLINK:  # its blob is the link's target, not what it points to
        return write_blobs(git, [os.fsencode(os.readlink(os.path.join(git.root, change.file_path)))])[0]
    return hash_worktree_file(git, change.file_path)


# -- 3-5. writing -----------------------------------------------------------------


def _save_index(index_path: Path, saved: str | None) -> str | None:
    """A copy of the index at ``saved``, for undo; None when there is no index."""
    if not index_path.exists() or saved is None:
        return None
    os.makedirs(os.path.dirname(saved), exist_ok=True)
    shutil.copy2(index_path, saved)  # (half a copy, on a full disk, goes with the journal's files)
    return saved


def _with_blobs(git: Git, states: list[FileState]) -> list[tuple[FileState, str | None]]:
    # Removals first: a rename may take a path away that another change fills.
    states = sorted(states, key=lambda s: not s.absent)
    fresh = [s for s in states if s.content is not None and s.oid is None and not s.worktree]
    oids = dict(zip((id(s) for s in fresh), write_blobs(git, [s.content for s in fresh if s.content is not None])))
    for s in states:
        if s.worktree and s.content is not None:
            oids[id(s)] = hash_as_added(git, s.path, s.content)
    return [(s, s.oid or oids.get(id(s))) for s in states]


def _commit_tree(git: Git, head: str | None, targets: list[FileTargets], scratch: str, label: str) -> str:
    """The commit's tree, built in the scratch index at ``scratch`` (left there for ``git commit``)."""
    scratch_index(git, head, scratch)
    update_index(git, scratch, _with_blobs(git, [s for t in targets for s in t.commit]))
    tree = git.run("write-tree", env={"GIT_INDEX_FILE": scratch}).text.strip()
    head_tree = git.run("rev-parse", f"{head}^{{tree}}").text.strip() if head else None
    if tree == head_tree:
        paths = sorted({s.path for t in targets for s in t.commit})
        names = ", ".join(shown(p) for p in paths[:5]) + (", …" if len(paths) > 5 else "")
        raise NothingToCommit(
            f"Nothing to commit: {label} leaves HEAD's files as they are ({names}: staged, then put back "
            "or deleted, say); nothing was committed"
        )
    return tree


def _run_git_commit(git: Git, scratch: str, head: str | None, message: str) -> str:
    # The message goes in on stdin: a file for it would outlive a kill in the temporary folder.
    result = git.run(
        "commit",
        "-q",
        "-F",
        "-",
        input=message.encode("utf-8", "surrogateescape"),
        env={"GIT_INDEX_FILE": scratch, "GIT_EDITOR": ":"},
        check=False,
    )
    if result.returncode != 0:
        raise _commit_refused(result.stderr or result.stdout, result.returncode)
    sha = git.run("rev-parse", "HEAD").text.strip()
    parent = git.run("rev-parse", "--verify", "--quiet", f"{sha}^", check=False).text.strip() or None
    if parent != head:
        raise GitCommandError(f"HEAD moved while committing (expected parent {_short(head)})")
    return sha


def _commit_refused(output: bytes, returncode: int) -> RefusedError:
    """Why ``git commit`` failed, in one sentence: the disk, a missing identity, a lock another
    process holds, signing; else a hook, with git's last line."""
    detail = output.decode("utf-8", "replace").strip().splitlines()
    reason = detail[-1] if detail else f"exit status {returncode}"
    locked = next((found for line in detail if (found := _REF_LOCKED.search(line))), None)
    if locked is not None:
        return RefusedError(
            f"Another git process holds {locked.group(1)}, so git commit could not move the branch "
            "and nothing was committed; try again, or remove the file if no git process is running"
        )
    signing = next((line for line in detail if any(words in line for words in _SIGNING)), None)
    if signing is not None:  # git's last line says only "fatal: failed to write commit object"
        return RefusedError(
            f"git commit could not sign the commit (commit.gpgsign is on), so nothing was committed: "
            f"{signing.strip()}; set up the key git signs with, then apply again"
        )
    if any(words in reason for words in _DISK_FULL):
        return RefusedError(f"git commit could not write the commit, the disk is full: {reason}")
    if any(words in line for line in detail for words in _NO_IDENTITY):
        return RefusedError(
            "git commit needs to know who you are: set your name and email with "
            'git config --global user.name "Your Name" and git config --global user.email '
            f"you@example.com, then apply again ({reason})"
        )
    return RefusedError(f"git commit refused the commit (a hook or signing failed): {reason}")


# As git commit says it of a branch's lock (a hook's own git commands may say "Unable to create" of others).
_REF_LOCKED = re.compile(r"^fatal: cannot lock ref '[^']*': Unable to create '(.+\.lock)': File exists")
_DISK_FULL = ("Out of diskspace", "No space left on device", "Disk quota exceeded")  # as git says it
_SIGNING = ("failed to sign", "Couldn't load public key", "needs to be configured")  # gpg, ssh: as git says it
_NO_IDENTITY = ("Author identity unknown", "Committer identity unknown", "Please tell me who you are")


def _committed_anyway(git: Git, head: str | None, tree: str) -> bool:
    """Whether HEAD is a commit of the planned ``tree`` on ``head``: ``git commit`` made it, whatever
    stopped this process from hearing so."""
    now = git.head()
    if now is None or now == head:
        return False
    parent = git.commit_id(f"{now}^")
    return parent == head and git.run("rev-parse", f"{now}^{{tree}}").text.strip() == tree


def _check_committed_tree(git: Git, sha: str, planned: str) -> None:
    """Refuse a commit that is not the planned tree: a hook staged files of its own (``git add -u``
    after a formatter, as lint-staged does), which would commit other intents' lines under this
    message and leave the index undoing them. The caller takes the commit back."""
    committed = git.run("rev-parse", f"{sha}^{{tree}}").text.strip()
    if committed == planned:
        return
    changed = git.run("diff-tree", "-r", "--name-only", "-z", planned, committed).text.split("\0")
    names = ", ".join(shown(name) for name in changed if name)
    raise RefusedError(
        f"A hook changed what the commit holds (it staged {names or 'files'} itself), so the commit was taken "
        "back and nothing was committed: Segmint commits exactly the planned lines. Run what the hook changes "
        "(a formatter, say) on the working tree first, then plan again"
    )


def _prepare_index(
    git: Git, index_path: Path, targets: list[FileTargets], prepared: str
) -> tuple[list[str], dict[str, str]]:
    """The real index as it must be after the commit (the commit, plus what stays staged),
    written to ``prepared`` for renaming into place; the paths it rewrites, and each one's
    entry as written (``mode oid``, "" for none), for undo to tell what was staged since."""
    states = [s for t in targets for s in t.index]
    if not states:
        return [], {}
    if index_path.exists():
        # copy2 keeps the index mtime: git smudges entries racily clean against
        # it, so same-second, same-size edits stay visible after our write.
        shutil.copy2(index_path, prepared)
    entries = _with_blobs(git, states)
    update_index(git, prepared, entries)
    after = {s.path: "" if s.absent else f"{s.mode} {oid}" for s, oid in entries}  # (removals come first)
    return sorted({s.path for s in states}), after


def _change_number(change_id: str) -> tuple[int, str]:
    tail = change_id.rsplit("-", 1)[-1]
    return (int(tail), change_id) if tail.isdigit() else (1 << 30, change_id)
