"""A tangled case with the engine's evidence: its units and the links between them.

This is what fitting and scoring read, so it is cached beside the cases. Its
cache key holds a hash of the evidence code (change capture, units, signals,
lexicon, embeddings: everything under ``changes/`` and ``grouping/`` except
the files listed in ``DECISION_FILES``, which only turn evidence into
groups) and the installed versions of the parsers, so editing a signal or
installing a parser recomputes the links on the next run, and nothing else.

The links of ``HELD_BACK`` kinds are computed and cached, but left out of
what fitting and scoring read unless asked for (``keep``): the shipped model
is not fit on them (docs/experiments/untangling.md: files changed together in history, held out).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from segmint_bench.untangle.cache import Cache, packages_hash, source_hash
from segmint_bench.untangle.corpus import TANGLE_SOURCES, Log, Selection, Tangle, load_tangles, repo_name, source_head
from segmint_core.grouping.engine import evidence
from segmint_core.grouping.links import Link
from segmint_bench.untangle.house import house_sizes
from segmint_bench.untangle.workspace import Workspace
from segmint_core.git import Git
from segmint_core.grouping.repository import Repository
from segmint_core.grouping.units import Unit
from segmint_core.wording import counted

EVIDENCE_SOURCES = ("segmint_core/changes", "segmint_core/grouping", "segmint_bench/untangle/features.py")
# Installed packages the evidence depends on: a parser missing or upgraded changes the links.
EVIDENCE_PACKAGES = (
    "numpy",
    "tree-sitter",
    "tree-sitter-python",
    "tree-sitter-go",
    "tree-sitter-rust",
    "tree-sitter-javascript",
    "tree-sitter-typescript",
)
# Link kinds (or prefixes) the shipped model is not fit on; ``--add KIND`` measures them.
HELD_BACK = frozenset({"cochange"})
# Files under grouping/ that do not change the units or links (they decide and describe).
DECISION_FILES = frozenset(
    f"segmint_core/grouping/{name}"
    for name in (
        "graph.py",
        "assemble.py",
        "reasons.py",
        "summaries.py",
        "models.py",
        "probability.py",
        "confidence.py",
        "calibration.json",
        "model.json",
        "pair_evidence.py",
        "vendored.py",
        "leftovers.py",
        "companions.py",
        "siblings.py",
        "spread.py",
        "unions.py",
        "one_intent.py",
        "one_intent.json",
    )
)


@dataclass
class Sample:
    """One case ready to group: the tangle, its units and their links."""

    repo: str
    k: int
    tangle: Tangle
    units: list[Unit]
    links: list[Link]
    house: tuple[int, ...] | None = None  # ``History.sizes`` at the case's base, for the one-intent gate
    memo: dict = field(default_factory=dict, repr=False, compare=False)  # what fitting derives once

    @property
    def files(self) -> int:
        return len(self.tangle.changes.changes)

    def owners(self) -> list[tuple[int, int] | None]:
        """Per unit: the commit owning most of its scored lines, and how many lines
        it scores (None: no scored line, as for a hunkless change)."""
        truth = self.tangle.truth
        out: list[tuple[int, int] | None] = []
        for unit in self.units:
            if unit.hunk is None:
                out.append(None)
                continue
            votes = Counter(truth[(unit.hunk.id, i)] for i in range(unit.start, unit.end) if (unit.hunk.id, i) in truth)
            out.append((min(votes, key=lambda c: (-votes[c], c)), sum(votes.values())) if votes else None)
        return out


def case_evidence(tangle: Tangle, git: Git | None = None) -> tuple[list[Unit], list[Link]]:
    """The units and links the engine computes for this case (offline provider, no timeline);
    ``git``: a clone holding the case's commits, to read its files as ``group_changes`` does."""
    repository = Repository(git, rev=tangle.case.base)  # the history before the case, never its own commits
    units = repository.units(tangle.changes.changes)
    return units, evidence(units, history=repository.history())


def load_samples(
    repo: str, selection: Selection, cache: Cache, log: Log | None = None, keep: frozenset[str] = frozenset()
) -> list[Sample]:
    """The cases with their evidence, without the ``HELD_BACK`` link kinds not in ``keep``."""
    tangled = load_tangles(repo, selection, cache, log)
    key = (
        f"{source_head(repo)}-{selection.key()}-{source_hash(TANGLE_SOURCES)}"
        f"-{source_hash(EVIDENCE_SOURCES, DECISION_FILES)}-{packages_hash(EVIDENCE_PACKAGES)}"
    )
    known: list[tuple[list[Unit], list[Link]]] = cache.get("evidence", key) or []
    if len(known) < len(tangled):
        if log:
            log(f"{repo_name(repo)} k={selection.k}: evidence for {counted(len(tangled) - len(known), 'case')}")
        with Workspace(repo) as workspace:  # the cases' files, read from their commits
            known = known + [case_evidence(t, workspace.git) for t in tangled[len(known) :]]
        cache.put("evidence", key, known)
    name = repo_name(repo)
    houses = house_sizes(repo, [t.case.base for t in tangled], cache)
    samples = [
        Sample(name, selection.k, t, units, links, house) for t, (units, links), house in zip(tangled, known, houses)
    ]
    return without(samples, HELD_BACK - keep)


def without(samples: list[Sample], kinds: frozenset[str]) -> list[Sample]:
    """The samples with every link of the named kinds left out (``shared`` drops
    ``shared`` and ``shared:generic``; ``shared:generic`` only that one)."""
    if not kinds:
        return samples
    return [
        replace(s, links=[x for x in s.links if x.kind not in kinds and x.kind.split(":")[0] not in kinds], memo={})
        for s in samples
    ]
