"""Benchmarks behind ``segmint bench``. Timings are medians of repeated runs.

Each benchmark's ``run`` returns a ``BenchReport``; the command line
(``segmint.cli.bench``) prints it, as JSON with ``--json``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BenchReport:
    figures: dict[str, Any]  # what --json prints
    text: str  # the table a person reads
