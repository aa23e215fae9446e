"""What every signal reads: the units, the model and the evidence beside them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from segmint_core.grouping.history import History
from segmint_core.grouping.model import Model
from segmint_core.grouping.units import Unit


@dataclass
class Context:
    units: list[Unit]
    model: Model
    timeline: dict[str, Any] | None = None
    embeddings: Any = None  # numpy array, one unit-norm row per unit, or None
    similarity_floor: float = 0.0
    history: History | None = None  # which files the repository changed together (``history.py``)
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
