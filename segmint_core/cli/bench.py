"""``segmint bench ...``: benchmarks that print our figures beside a reference."""

from __future__ import annotations

import argparse
from importlib import import_module

# Benchmark modules under segmint_core.bench, each with register(subparsers, common).
BENCHES = ["parse", "changes", "chunks", "untangle", "mcp", "tui"]


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "bench", help="run a benchmark (parse, changes, ...)",
        description="Benchmarks: each prints Segmint's time beside a reference measured in the same run.",
    )
    inner = p.add_subparsers(dest="bench", metavar="BENCH", required=True)
    for name in BENCHES:
        import_module(f"segmint_core.bench.{name}").register(inner, common)
