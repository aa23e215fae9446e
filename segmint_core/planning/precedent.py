"""Which past commits look like this one, and what their authors called them.

A commit is described by features of the files it touches (their kind, folders,
names, extensions, whether they are new or deleted) and of its size, and by
what its diff does (``content_features``: definitions added, conditions
changed, only reformatted, the type the offline rules would give it...). The
past commits sharing the most informative features (cosine similarity, each
feature weighted by how rare it is in the history) vote for the type; those
sharing the most file features vote for the scope. So a house that calls a new
helper ``fix`` and a changed condition ``refactor`` is followed.
"""

from __future__ import annotations

import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from segmint_core.changes.generated import is_lock_file, is_manifest
from segmint_core.changes.kinds import is_build_path, is_ci_path, is_doc_path, is_test_path
from segmint_core.planning.facts import Facts


@dataclass(frozen=True)
class Touched:
    path: str
    status: str = "M"  # A, D, R or M
    added: int = 0
    removed: int = 0


@dataclass(frozen=True)
class Precedent:
    features: tuple[str, ...]
    type: str | None
    scope: str | None
    words: tuple[str, ...] = ()  # path words the subject's scope or text repeats
    intent: str | None = None  # "deps" or "release" when the subject words one


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


def content_features(facts: Facts, rule: str) -> tuple[str, ...]:
    """What the diff does, as features: ``r:`` the offline rules' type, ``c:`` the rest."""
    found = {f"r:{rule}"}
    public = [d for d in facts.code_added_defs if not d.startswith("_")]
    flags = {
        "def+": bool(public),
        "private+": len(public) < len(facts.code_added_defs),
        "def-": bool(facts.removed_defs),
        "option": bool(facts.options),
        "field": bool(facts.fields),
        "handles": bool(facts.handles),
        "raises": bool(facts.raises),
        "rename": bool(facts.renames or facts.renamed_files),
        "format": facts.format_only or facts.whitespace_only,
        "comments": facts.comment_only,
        "condition": facts.conditions > 0,
        "imports": bool(facts.imports),
        "grows": facts.added > 2 * facts.removed + 2,
        "shrinks": facts.removed > 2 * facts.added + 2,
        "new-file": bool(facts.new_files),
        "deleted-file": bool(facts.deleted_files),
        "bump": bool(facts.bumps),
        "version": facts.own_version is not None,
    }
    found.update(f"c:{name}" for name, on in flags.items() if on)
    for bump in facts.bumps[:5]:  # the house may type bumps of one package (or npm scope) alike
        name = bump.name.lower()
        found.add(f"c:dep:{name}")
        if name.startswith("@") and "/" in name:
            found.add(f"c:dep:{name.split('/', 1)[0]}")
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


class Weights(dict[Any, float]):
    """Summed weights by value: a value not there weighs 0, as in a ``Counter`` (whose counts are whole)."""

    def __missing__(self, key: Any) -> float:
        return 0.0


@dataclass
class Votes:
    counts: Weights  # value -> summed similarity of the neighbours holding it (None: "no scope")
    weight: float  # total similarity of the neighbours

    def shares(self) -> Weights:
        return Weights({v: w / self.weight for v, w in self.counts.items()}) if self.weight else Weights()


def vote(precedents: list[Precedent], wanted: tuple[str, ...], of, *, k: int, files_only: bool = False) -> Votes:
    """The ``k`` past commits most like ``wanted`` vote with ``of(past)`` (its type, its scope).
    ``files_only``: compared by the files they touch, not by what their diffs do."""
    counts = Weights()
    total = 0.0
    for sim, past in nearest(precedents, wanted, files_only)[:k]:
        counts[of(past)] += sim
        total += sim
    return Votes(counts, total)


KEPT_RANKINGS = 8
_rankings: OrderedDict[tuple[int, tuple[str, ...], bool], tuple[list[Precedent], list[tuple[float, Precedent]]]] = (
    OrderedDict()
)
_rankings_lock = threading.Lock()


def nearest(
    precedents: list[Precedent], wanted: tuple[str, ...], files_only: bool = False
) -> list[tuple[float, Precedent]]:
    """The past commits sharing a feature with ``wanted`` and their similarity, most alike (then
    newest) first. The last few rankings are kept: a change's type is voted by its 1, 3 and 8
    nearest, and ``segmint bench messages`` titles each change under many votings."""
    key = (id(precedents), wanted, files_only)
    with _rankings_lock:  # the MCP server runs its tools on worker threads
        kept = _rankings.get(key)
        if kept is not None and kept[0] is precedents:
            _rankings.move_to_end(key)
            return kept[1]
    found = _ranked(precedents, wanted, files_only)
    with _rankings_lock:
        _rankings[key] = (precedents, found)
        while len(_rankings) > KEPT_RANKINGS:
            _rankings.popitem(last=False)
    return found


def _ranked(precedents: list[Precedent], wanted: tuple[str, ...], files_only: bool) -> list[tuple[float, Precedent]]:
    def kept(fs):
        return tuple(f for f in fs if not f.startswith(CONTENT_PREFIXES)) if files_only else fs

    if not precedents:
        return []
    df = Counter(f for p in precedents for f in kept(p.features))
    n = len(precedents)
    idf = {f: math.log((n + 1) / (c + 0.5)) for f, c in df.items()}
    want = set(kept(wanted))
    norm = math.sqrt(sum(idf.get(f, math.log(n + 2)) ** 2 for f in want)) or 1.0
    scored = []
    for rank, past in enumerate(precedents):
        features = kept(past.features)
        shared = want.intersection(features)
        if not shared:
            continue
        dot = sum(idf[f] ** 2 for f in shared)
        other = math.sqrt(sum(idf[f] ** 2 for f in features)) or 1.0
        scored.append((dot / (norm * other), -rank, past))
    scored.sort(key=lambda s: s[:2], reverse=True)
    return [(sim, past) for sim, _, past in scored]


CONTENT_PREFIXES = ("r:", "c:")
