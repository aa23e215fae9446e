"""What grouping reads from the repository besides the diff.

The diff alone is fragments. With the repository at hand, grouping also
knows which changed files are generated (``.gitattributes``), the whole text
of each changed file to parse (its blobs, by the ids the diff names), and
which files its recent history changed together (up to ``rev``: HEAD, or a
benchmark case's base). Without it (no work tree, or a change set made up in
memory) each falls back to what the diff says.
"""

from __future__ import annotations

from dataclasses import dataclass

from segmint_core.changes.generated import generated_paths, too_large
from segmint_core.changes.models import Change
from segmint_core.git import Git
from segmint_core.grouping.history import History, history_at
from segmint_core.grouping.syntax import SyntaxIndex
from segmint_core.grouping.units import Unit, build_units


@dataclass(frozen=True)
class Repository:
    git: Git | None = None
    rev: str = "HEAD"

    def units(self, changes: list[Change], cuts: dict[str, list[int]] | None = None) -> list[Unit]:
        """The changes' units: generated files whole, parsed files read from their parse;
        ``cuts``: more places to cut hunks into atoms (``build_units``)."""
        generated = generated_paths(self.git, [c.file_path for c in changes]) | too_large(changes)
        return build_units(changes, generated, SyntaxIndex(changes, self.git, skip=generated), cuts)

    def history(self) -> History:
        """Which files the first-parent history up to ``rev`` changed together."""
        return history_at(self.git, self.rev)
