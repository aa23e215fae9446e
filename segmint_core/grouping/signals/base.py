"""What every signal shares: the link it emits and the context it reads."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from segmint_core.grouping.history import History
from segmint_core.grouping.model import Model
from segmint_core.grouping.units import Unit


class Link(NamedTuple):
    """Evidence that units ``a`` and ``b`` (a < b) share an intent.

    ``kind`` names the evidence (``def_use``, ``same_hunk:code``...), ``detail``
    the thing both touch (an identifier, a path); reasons are written from
    them. ``weight`` is the raw strength; the model turns it into log-odds.
    """

    a: int
    b: int
    weight: float
    kind: str
    detail: str = ""


_new_tuple = tuple.__new__


def link(i: int, j: int, weight: float, kind: str, detail: str = "") -> Link:
    # What ``Link(...)`` makes, without its Python-level ``__new__``: signals make 10^5 links.
    return _new_tuple(Link, (i, j, weight, kind, detail) if i < j else (j, i, weight, kind, detail))


@dataclass
class Context:
    units: list[Unit]
    model: Model
    timeline: dict[str, Any] | None = None
    embeddings: Any = None  # numpy array, one unit-norm row per unit, or None
    similarity_floor: float = 0.0
    history: History | None = None   # which files the repository changed together (``history.py``)
    frequency: Counter = field(default_factory=Counter)  # units whose lines (changed or context) use each name

    def __post_init__(self) -> None:
        if not self.frequency:
            for unit in self.units:
                self.frequency.update(unit.idents)
                self.frequency.update(unit.context_idents)

    def rarity(self, name: str) -> float:
        """1 for a name two units share, less the more units use it."""
        df = max(self.frequency.get(name, 0), 2)
        return (1.0 / (df - 1)) ** 0.5
