"""``segmint bench ...``: benchmarks that print our figures beside a reference."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from importlib import import_module

from segmint_core.bench import BenchReport
from segmint_core.jsonio import write_json

# Benchmark modules, each with register(subparsers, common). The TUI's own lives
# with the TUI: the core's layers point down, and only the command line knows both.
BENCHES = ["segmint_core.bench.parse", "segmint_core.bench.changes", "segmint_core.bench.chunks",
           "segmint_core.bench.untangle", "segmint_core.bench.untangle.fit", "segmint_core.bench.messages",
           "segmint_core.bench.mcp",
           "segmint_tui.bench_command", "segmint_core.bench.large"]


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "bench", help="run a benchmark (parse, changes, ...)",
        description="Benchmarks: each prints Segmint's time beside a reference measured in the same run.",
    )
    inner = p.add_subparsers(dest="bench", metavar="BENCH", required=True)
    for name in BENCHES:
        import_module(name).register(inner, common)
    for parser in inner.choices.values():
        parser.set_defaults(func=_printed(parser.get_default("func")))


def _printed(run: Callable[[argparse.Namespace], BenchReport]) -> Callable[[argparse.Namespace], int]:
    """The command for a benchmark: run it, print its table (or, with --json, its figures)."""
    def command(args: argparse.Namespace) -> int:
        report = run(args)
        if args.json:
            write_json(report.figures)
        else:
            print(report.text)
        return 0
    return command
