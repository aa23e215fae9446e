"""Tangled cases of one repository, made once and kept in the benchmark's cache.

A ``Selection`` names which cases (k, how many, the random order, the span of
history, first-parent or all); ``load_tangles`` returns them, tangling only
what the cache lacks. Cases come in a fixed order for a given selection, so a
run with ``--n 30`` reuses the first 30 of an earlier ``--n 100``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from segmint_bench.untangle.cache import Cache, source_hash
from segmint_bench.untangle.cases import Case, candidate_cases, read_history, shuffled
from segmint_bench.untangle.truth import LineKey, line_truth
from segmint_bench.untangle.workspace import Workspace, find_head
from segmint_core.changes import ChangeSet, capture
from segmint_core.errors import SegmintError
from segmint_core.git import Git
from segmint_core.wording import counted

# The code a tangled case depends on: change capture and case picking.
TANGLE_SOURCES = (
    "segmint_core/changes",
    "segmint_core/git.py",
    "segmint_bench/untangle/cases.py",
    "segmint_bench/untangle/truth.py",
    "segmint_bench/untangle/workspace.py",
    "segmint_bench/untangle/corpus.py",
)


@dataclass(frozen=True)
class Selection:
    """Which cases of a history: ``n`` chains of ``k`` commits in ``seed`` order."""

    k: int
    n: int
    seed: int = 0
    first_parent: bool = False
    since: int | None = None
    until: int | None = None

    def key(self) -> str:
        """Everything but ``n``: selections that differ only in ``n`` share their cases."""
        return f"k{self.k}-s{self.seed}-{'fp' if self.first_parent else 'all'}-{self.since or ''}-{self.until or ''}"


@dataclass
class Tangle:
    """One materialised case: the captured changes and the true commit of each scored line."""

    case: Case
    changes: ChangeSet
    truth: dict[LineKey, int]

    @property
    def keys(self) -> list[LineKey]:
        return sorted(self.truth)


def tangles(workspace: Workspace, selection: Selection, *, skip: int = 0) -> Iterator[tuple[int, Tangle]]:
    """Cases in ``selection`` order from the ``skip``-th candidate on, each with
    the number of candidates gone through so far. A case where some commit owns
    no scorable line of the tangled diff (reverted, or only moved lines) is
    passed over."""
    history = read_history(workspace.git, workspace.head(), first_parent=selection.first_parent)
    candidates = shuffled(
        candidate_cases(history, selection.k, since=selection.since, until=selection.until), selection.seed
    )
    for position in range(skip, len(candidates)):
        case = candidates[position]
        workspace.tangle(case)
        changes = capture(workspace.git)
        truth = line_truth(workspace.git, case, changes)
        if len(set(truth.values())) < selection.k:
            continue
        yield position + 1, Tangle(case, changes, truth)


@dataclass
class _Entry:
    """What the cache keeps for a selection: cases so far, and how far the candidates were read."""

    tangles: list[Tangle]
    consumed: int
    exhausted: bool


Log = Callable[[str], None]
SAVE_EVERY = 25


def load_tangles(repo: str, selection: Selection, cache: Cache, log: Log | None = None) -> list[Tangle]:
    """Up to ``selection.n`` cases of ``repo``, from the cache where it has them."""
    key = f"{source_head(repo)}-{selection.key()}-{source_hash(TANGLE_SOURCES)}"
    entry = cache.get("tangles", key) or _Entry([], 0, False)
    if len(entry.tangles) < selection.n and not entry.exhausted:
        entry = _extend(repo, selection, entry, lambda e: cache.put("tangles", key, e), log)
    return entry.tangles[: selection.n]


def _extend(repo: str, selection: Selection, entry: _Entry, keep: Callable[[_Entry], None], log: Log | None) -> _Entry:
    """More cases, kept every ``SAVE_EVERY`` so an interrupted run resumes where it stopped."""
    name = repo_name(repo)
    had = len(entry.tangles)
    found, consumed = list(entry.tangles), entry.consumed
    with Workspace(repo) as workspace:
        for consumed, tangle in tangles(workspace, selection, skip=entry.consumed):
            found.append(tangle)
            if len(found) >= selection.n:
                keep(entry := _Entry(found, consumed, False))
                if log:
                    log(f"{name} k={selection.k}: tangled {len(found)}/{selection.n} cases")
                return entry
            if len(found) % SAVE_EVERY == 0:
                keep(_Entry(found, consumed, False))
                if log:
                    log(f"{name} k={selection.k}: tangled {len(found)}/{selection.n} cases")
    keep(entry := _Entry(found, consumed, True))
    if log and len(found) > had:
        log(f"{name} k={selection.k}: {counted(len(found), 'case')}, all its history holds")
    return entry


def source_head(repo: str) -> str:
    """The commit a repository (or bundle) would be benchmarked from."""
    if not os.path.exists(repo):
        raise SegmintError(f"No such repository: {repo}")
    if os.path.isdir(repo):
        head = find_head(Git.discover(repo))
    else:
        heads = (
            Git(os.path.dirname(os.path.abspath(repo)))
            .run("bundle", "list-heads", os.path.abspath(repo), check=False)
            .text.split("\n")
        )
        rows = [line.split() for line in heads if line.strip()]
        head = next((sha for sha, ref in rows if ref == "HEAD"), rows[0][0] if rows else None)
    if not head:
        raise SegmintError(f"The repository has no commits to benchmark on: {repo}")
    return head


def repo_name(repo: str) -> str:
    """A short name for tables: the folder or bundle name, without ``untangle-`` or ``.bundle``."""
    base = os.path.basename(os.path.normpath(repo))
    base = base.removesuffix(".bundle")
    for prefix in ("untangle-", "segmint-"):
        base = base.removeprefix(prefix)
    return base


def with_n(selection: Selection, n: int) -> Selection:
    return replace(selection, n=n)
