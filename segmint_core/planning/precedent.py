"""Which past commits look like this one, and what their authors called them.

A commit is described by features of the files it touches (their kind, folders,
names, extensions, whether they are new or deleted) and of its size. The past
commits sharing the most informative features (cosine similarity, each feature
weighted by how rare it is in the history) vote for the type and scope.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

from segmint_core.changes.generated import is_lock_file, is_manifest
from segmint_core.planning.facts import is_build_path, is_ci_path, is_doc_path, is_test_path

NEIGHBOURS = 12


@dataclass(frozen=True)
class Touched:
    path: str
    status: str = "M"     # A, D, R or M
    added: int = 0
    removed: int = 0


@dataclass(frozen=True)
class Precedent:
    features: tuple[str, ...]
    type: str | None
    scope: str | None
    words: tuple[str, ...] = ()    # path words the subject's scope or text repeats
    intent: str | None = None      # "deps" or "release" when the subject words one


def file_kind(path: str) -> str:
    if is_lock_file(path):
        return "lock"
    if is_ci_path(path):
        return "ci"
    if is_manifest(path):
        return "manifest"
    if is_build_path(path):
        return "build"
    if is_test_path(path):
        return "test"
    if is_doc_path(path):
        return "doc"
    return "code"


def features(files: Iterable[Touched]) -> tuple[str, ...]:
    found: set[str] = set()
    kinds: set[str] = set()
    lines = 0
    count = 0
    for f in files:
        count += 1
        lines += f.added + f.removed
        kind = file_kind(f.path)
        kinds.add(kind)
        p = PurePosixPath(f.path.lower())
        found.update((f"k:{kind}", f"s:{p.stem}", f"x:{p.suffix}"))
        for depth in range(1, len(p.parts)):
            found.add("d:" + "/".join(p.parts[:depth]))
        if f.status in "ADR":
            found.add(f"{f.status}:{kind}")
        if f.removed == 0 and f.added:
            found.add("adds-only")
    found.add("K:" + "+".join(sorted(kinds)))
    found.add("n:" + ("tiny" if lines <= 4 else "small" if lines <= 20 else "medium" if lines <= 120 else "large"))
    found.add("f:" + ("1" if count == 1 else "few" if count <= 4 else "many"))
    return tuple(sorted(found))


def path_words(paths: Iterable[str]) -> set[str]:
    """Folder and file names, lower case, with their parts split at ``_``, ``-`` and ``.``."""
    found: set[str] = set()
    for path in paths:
        for part in PurePosixPath(path.lower()).parts:
            stem = part.rsplit(".", 1)[0] if "." in part[1:] else part
            found.add(stem.lstrip("._"))
            found.update(w for w in stem.replace("-", "_").replace(".", "_").split("_") if len(w) > 1)
    found.discard("")
    return found


@dataclass
class Votes:
    types: Counter
    scopes: Counter     # None stands for "no scope"
    weight: float       # total similarity of the neighbours


def vote(precedents: list[Precedent], wanted: tuple[str, ...], k: int = NEIGHBOURS) -> Votes:
    if not precedents:
        return Votes(Counter(), Counter(), 0.0)
    df = Counter(f for p in precedents for f in p.features)
    n = len(precedents)
    idf = {f: math.log((n + 1) / (c + 0.5)) for f, c in df.items()}
    want = set(wanted)
    norm = math.sqrt(sum(idf.get(f, math.log(n + 2)) ** 2 for f in want)) or 1.0
    scored = []
    for rank, past in enumerate(precedents):
        shared = want.intersection(past.features)
        if not shared:
            continue
        dot = sum(idf[f] ** 2 for f in shared)
        other = math.sqrt(sum(idf[f] ** 2 for f in past.features)) or 1.0
        scored.append((dot / (norm * other), -rank, past))
    scored.sort(reverse=True)
    types: Counter = Counter()
    scopes: Counter = Counter()
    total = 0.0
    for sim, _, past in scored[:k]:
        types[past.type] += sim
        scopes[past.scope] += sim
        total += sim
    return Votes(types, scopes, total)
