"""Splitting committed work: a range of commits becomes a session's changes, planned and committed
again by intent, then the branch moves to the new commits with any descendants replayed on top.

The range's combined change is laid out in a scratch work tree of its own
(``.git/segmint/split/tree``, a linked worktree detached at the range's base,
its files as at the range's tip): the session there is an ordinary one, so
grouping, plans, messages and ``apply`` work as for any work tree, and the
person's work tree and index are never touched. ``finish`` then checks the new
commits' tree is the old tip's byte for byte, makes each later commit again on
top (same tree, message, author), checks the branch's final tree is unchanged,
and moves the branch once. A marker (``split.json``) says a split is under way,
so ``segmint apply --all`` in the repository applies the split's plans.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from segmint_core.atomic import write_atomic
from segmint_core.errors import RefusedError, SegmintError
from segmint_core.git import EMPTY_TREES, Git
from segmint_core.proc import pid_alive
from segmint_core.rewrite.fold import recommit
from segmint_core.rewrite.stack import Commit

MARKER = "split.json"
PLANNING = "planning"
APPLYING = "applying"
GITLINK = "160000"
TREE = "tree"


@dataclass
class SplitState:
    base: str | None  # the commit before the range (None: the range starts at the root)
    tip: str  # the range's last commit
    head: str  # the branch's tip when the split began
    ref: str  # the branch (refs/heads/x)
    originals: list[str]  # the range's commits, oldest first
    later: list[str] = field(default_factory=list)  # commits after the range, oldest first
    author: dict[str, str] = field(default_factory=dict)  # kept when every original is one author's
    awaiting: bool = False  # an agent asked to apply it: it waits for the person's approval
    busy: int = 0  # the process planning or applying it (0: none)
    doing: str = ""  # what that process was doing: PLANNING or APPLYING
    follow_commits: bool = False  # the range's commits are evidence: lines one commit wrote lean together

    @property
    def label(self) -> str:
        """The commits split, as git names them: one commit alone, or ``base..tip`` (the commits after
        base up to tip, as the person typed ``HEAD~3..HEAD``; first..last would read as one fewer)."""
        if len(self.originals) == 1:
            return self.tip[:7]
        return f"{self.base[:7]}..{self.tip[:7]}" if self.base else f"{self.tip[:7]} and every commit before it"


def folder(git: Git) -> Path:
    return Path(git.git_dir) / "segmint" / "split"


def pending(git: Git) -> SplitState | None:
    try:
        return _marked(folder(git))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError) as exc:
        raise RefusedError(
            f"Segmint's split marker {folder(git) / MARKER} is unreadable ({exc}); remove that folder to start again"
        ) from None


def scratch_tree(git: Git) -> Path:
    return folder(git) / TREE


def range_laid_out_in(root: str) -> SplitState | None:
    """The split whose scratch tree ``root`` is (its change laid out there); None for any other tree."""
    where = Path(root)
    if where.name != TREE or where.parent.name != "split":
        return None
    try:
        return _marked(where.parent)
    except (OSError, ValueError, TypeError):  # (the split's own commands say an unreadable marker is)
        return None


def _marked(split_folder: Path) -> SplitState:
    return SplitState(**json.loads((split_folder / MARKER).read_text(encoding="utf-8")))


def start(git: Git, spec: str, *, force: bool = False, follow_commits: bool = False) -> SplitState:
    """Check the range can be split, and lay its change out in the scratch work tree."""
    if pending(git) is not None:
        raise RefusedError(
            "A split is already under way: apply it with `segmint apply --all`, or drop it with `segmint split --abort`"
        )
    state = _checked(git, spec, force)
    state.follow_commits = follow_commits
    where = scratch_tree(git)
    folder(git).mkdir(parents=True, exist_ok=True)
    if where.exists():
        _remove_tree(git, where)
    quiet = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.hooksPath", "GIT_CONFIG_VALUE_0": os.devnull}
    git.run("worktree", "add", "--detach", "--no-checkout", str(where), state.base or state.tip, env=quiet)
    inner = Git(str(where))
    inner.run("read-tree", "-u", "--reset", state.tip, env=quiet)  # files as at the tip
    if state.base:
        inner.run("read-tree", state.base)  # the index as at the base
    else:
        inner.run("read-tree", "--empty")
    mark_busy(git, state, PLANNING)  # the marker: from here on a split is under way
    return state


def mark_awaiting(git: Git, state: SplitState) -> None:
    state.awaiting = True
    _write(git, state)


def mark_busy(git: Git, state: SplitState, doing: str) -> None:
    """This process is now ``doing`` the split (``""``: it is done with it); a process killed meanwhile
    leaves its mark for the next one to say it carried the split on."""
    state.busy, state.doing = (os.getpid(), doing) if doing else (0, "")
    _write(git, state)


def interrupted(git: Git) -> str | None:
    """The sentence telling that a killed process left the split under way half planned or half
    applied, said once: the mark is cleared. None when no split is under way or none was cut short."""
    try:
        state = pending(git)
    except SegmintError:
        return None  # the split's own commands say the marker is unreadable
    if state is None or not state.busy or pid_alive(state.busy):
        return None
    doing = state.doing
    mark_busy(git, state, "")
    return (
        f"Segmint found the split of {state.label} interrupted while {doing} it; it is still under way, "
        "and `segmint apply --all` carries it on from where it stopped."
    )


def _write(git: Git, state: SplitState) -> None:
    write_atomic(folder(git) / MARKER, json.dumps(asdict(state)).encode())


def abort(git: Git) -> None:
    where = scratch_tree(git)
    if where.exists():
        _remove_tree(git, where)
    shutil.rmtree(folder(git), ignore_errors=True)


def _remove_tree(git: Git, where: Path) -> None:
    git.run("worktree", "remove", "--force", str(where), check=False)
    shutil.rmtree(where, ignore_errors=True)
    git.run("worktree", "prune", check=False)


def _checked(git: Git, spec: str, force: bool) -> SplitState:
    ref = git.head_ref()
    head = git.head()
    if head is None:
        raise RefusedError("HEAD has no commit yet: there is nothing to split")
    if ref is None:
        raise RefusedError("HEAD is detached: split moves a branch, so check one out first")
    doing = git.operation_in_progress()
    if doing:
        raise RefusedError(f"{doing.capitalize()} is under way: finish or abort it before splitting")
    base_spec, dots, tip_spec = spec.partition("..")
    tip = git.commit_id(tip_spec if dots else spec)
    if tip is None:
        raise RefusedError(f"{spec} names no commit")
    if dots:
        base = git.commit_id(base_spec) if base_spec else None
        if base_spec and base is None:
            raise RefusedError(f"{base_spec} names no commit")
    else:
        base = git.commit_id(f"{tip}^")
    if git.run("merge-base", "--is-ancestor", tip, head, check=False).returncode != 0:
        raise RefusedError(f"{spec} is not on the branch HEAD is on ({ref.removeprefix('refs/heads/')})")
    originals = _line(git, base, tip, "in the range")
    if not originals:
        raise RefusedError(f"{spec} holds no commit")
    later = _line(git, tip, head, "after the range")
    if not force:
        pushed = git.run(
            "for-each-ref", "--contains", originals[0], "--format=%(refname:short)", "refs/remotes"
        ).text.split()
        if pushed:
            raise RefusedError(
                f"{originals[0][:7]} is already pushed ({pushed[0]}): splitting it rewrites shared "
                "history; add --force to do it anyway"
            )
    _refuse_overlap(git, base, head)
    authors = {git.run("log", "-1", "--format=%an%x00%ae%x00%ad", "--date=raw", c).text.strip() for c in originals}
    author = {}
    if len(authors) == 1:
        name, email, date = authors.pop().split("\0")
        author = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": date}
    return SplitState(base, tip, head, ref, originals, later, author)


def _line(git: Git, since: str | None, until: str, where: str) -> list[str]:
    """The commits from ``since`` (excluded) to ``until``, oldest first; refused if one is a merge."""
    rows = git.run("rev-list", "--reverse", "--parents", until, *([f"^{since}"] if since else [])).text.splitlines()
    commits = []
    for row in rows:
        sha, *parents = row.split()
        if len(parents) > 1:
            raise RefusedError(f"{sha[:7]}, {where}, is a merge: split works on a line of single-parent commits")
        commits.append(sha)
    return commits


def _refuse_overlap(git: Git, base: str | None, head: str) -> None:
    """Uncommitted changes are fine unless they are in a file the range or a later commit changes."""
    rewritten = set(
        git.run("diff", "--name-only", "-z", base or EMPTY_TREES[git.object_format], head).text.split("\0")
    ) - {""}
    dirty = set(git.run("diff", "--name-only", "-z", "HEAD").text.split("\0")) - {""}
    both = sorted(rewritten & dirty)
    if both:
        raise RefusedError(
            f"{both[0]} has uncommitted changes and is in the commits being split; commit or stash them first"
        )


def scratch_head(git: Git) -> str:
    return Git(str(scratch_tree(git))).run("rev-parse", "HEAD").text.strip()


def commit_submodules(git: Git, state: SplitState) -> list[str]:
    """Commit, in the scratch tree, the submodule commits the range moves: a submodule's work tree is
    not checked out there, so no plan can hold them. The paths committed (none: no commit)."""
    inner = Git(str(scratch_tree(git)))
    rows = inner.run("diff-tree", "-r", "-z", "--no-renames", "HEAD", state.tip).text.split("\0")
    moved: list[str] = []
    for meta, path in zip(rows[0::2], rows[1::2]):
        _old_mode, new_mode, _old, new, _status = meta.lstrip(":").split(" ")
        if GITLINK not in (_old_mode, new_mode):
            continue
        if new_mode == GITLINK:
            inner.run("update-index", "--add", "--cacheinfo", f"{GITLINK},{new},{path}")
        else:
            inner.run("update-index", "--force-remove", "--", path)
        moved.append(path)
    if moved:
        inner.run("commit", "-q", "-m", f"Move submodule {', '.join(moved)}")
    return moved


def finish(git: Git, state: SplitState) -> str:
    """After the split's plans are applied in the scratch tree: the branch's new tip, made and checked
    (the caller moves the branch). Refused, changing nothing, when a tree would differ."""
    inner = Git(str(scratch_tree(git)))
    new_tip = inner.head()
    if new_tip is None or new_tip == state.base:
        raise RefusedError("The split's plans are not applied yet: run `segmint apply --all`")
    if _tree(git, new_tip) != _tree(git, state.tip):
        raise RefusedError(
            "The new commits' tree differs from the split range's; nothing was moved "
            "(apply every plan of the split, then try again)"
        )
    if git.head() != state.head:
        raise RefusedError(
            f"The branch moved since the split began ({state.head[:7]} then); nothing was moved: "
            "`segmint split --abort` and split again"
        )
    parent = new_tip
    for sha in state.later:
        parent = recommit(git, Commit(sha, None, ""), _tree(git, sha), parent)
    if _tree(git, parent) != _tree(git, state.head):
        raise SegmintError("The rewritten branch's tree differs from the original's; nothing was moved")
    return parent


def _tree(git: Git, commit: str) -> str:
    return git.run("rev-parse", f"{commit}^{{tree}}").text.strip()
