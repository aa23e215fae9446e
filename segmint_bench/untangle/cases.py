"""Picking untangling cases from a repository's history.

A case is k consecutive non-merge commits by one author within 14 days, each
touching at most 12 files and 2-250 changed lines of text. Tangling them
(their parent checked out, the last one's tree in the work tree) gives a dirty
tree whose true intents are the commits.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from segmint_core.git import Git

MAX_FILES = 12
MIN_LINES = 2
MAX_LINES = 250
MAX_SPAN_SECONDS = 14 * 24 * 3600

_RECORD = "\x01"
_FIELD = "\x02"


@dataclass(frozen=True)
class Commit:
    sha: str
    parents: tuple[str, ...]
    author: str
    time: int
    files: int
    lines: int
    binary: bool

    @property
    def eligible(self) -> bool:
        return (
            len(self.parents) == 1
            and not self.binary
            and 1 <= self.files <= MAX_FILES
            and MIN_LINES <= self.lines <= MAX_LINES
        )


@dataclass(frozen=True)
class Case:
    base: str
    commits: tuple[str, ...]  # oldest first; the last one is the tip
    time: int  # the tip's author time

    @property
    def tip(self) -> str:
        return self.commits[-1]

    @property
    def name(self) -> str:
        return f"{self.base[:8]}..{self.tip[:8]}"


def read_history(git: Git, rev: str = "HEAD", *, first_parent: bool = False) -> dict[str, Commit]:
    """Every commit reachable from ``rev`` with its parents, author and diff size.

    ``first_parent``: only the mainline (``git log --first-parent``), so a
    chain never walks into a merged branch: the cases an independent harness
    picks, and the commits a person sees in ``git log --first-parent``.
    """
    out = git.run(
        "log",
        "--no-renames",
        "--numstat",
        "--no-color",
        *(("--first-parent",) if first_parent else ()),
        f"--format={_RECORD}%H %P{_FIELD}%ae{_FIELD}%at",
        rev,
        "--",
    ).text
    commits: dict[str, Commit] = {}
    for record in out.split(_RECORD)[1:]:
        head, _, stats = record.partition("\n")
        ids, author, when = head.split(_FIELD)
        sha, *parents = ids.split()
        files = lines = 0
        binary = False
        for row in stats.splitlines():
            cells = row.split("\t", 2)
            if len(cells) != 3:
                continue
            files += 1
            if cells[0] == "-" or cells[1] == "-":
                binary = True
            else:
                lines += int(cells[0]) + int(cells[1])
        commits[sha] = Commit(sha, tuple(parents), author.lower(), int(when), files, lines, binary)
    return commits


def candidate_cases(
    commits: dict[str, Commit],
    k: int,
    *,
    since: int | None = None,
    until: int | None = None,
) -> list[Case]:
    """Every chain of ``k`` eligible commits, each the only parent of the next."""
    cases: list[Case] = []
    for tip in commits.values():
        chain = [tip]
        while len(chain) < k:
            parent = commits.get(chain[-1].parents[0]) if chain[-1].eligible else None
            if parent is None or not parent.eligible or parent.author != tip.author:
                break
            chain.append(parent)
        if len(chain) < k or not chain[0].eligible or not chain[-1].eligible:
            continue
        if tip.time - min(c.time for c in chain) > MAX_SPAN_SECONDS:
            continue
        if (since is not None and tip.time < since) or (until is not None and tip.time >= until):
            continue
        chain.reverse()
        cases.append(Case(chain[0].parents[0], tuple(c.sha for c in chain), tip.time))
    cases.sort(key=lambda c: (c.time, c.tip))
    return cases


def shuffled(cases: list[Case], seed: int) -> list[Case]:
    """The candidates in a random order fixed by ``seed``."""
    order = list(cases)
    random.Random(seed).shuffle(order)
    return order
