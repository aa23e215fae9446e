"""``segmint bench BENCH``: each benchmark's sub-command, printing its table (or, with --json, its figures)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from importlib import import_module

from segmint_bench import BenchReport
from segmint_core.jsonio import write_json

# Benchmark modules, each with register(subparsers, common), in help order.
BENCHES = [
    "segmint_bench.parse",
    "segmint_bench.changes",
    "segmint_bench.chunks",
    "segmint_bench.untangle",
    "segmint_bench.untangle.fit",
    "segmint_bench.split",
    "segmint_bench.messages",
    "segmint_bench.mcp",
    "segmint_bench.check",
    "segmint_bench.absorb",
    "segmint_bench.hook",
    "segmint_bench.provenance",
    "segmint_bench.tui",
    "segmint_bench.large",
    "segmint_bench.scale",
]


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "bench",
        help="run a benchmark (parse, changes, ...)",
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
