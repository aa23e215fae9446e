"""``segmint bench BENCH``: each benchmark's sub-command, printing its table (or, with --json, its figures)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from segmint.cli.chosen import chosen_only
from segmint_bench import BenchReport
from segmint_core.jsonio import write_json

# Each benchmark: its module, with register(subparsers, common), and its line in the help, in help order
# (only the chosen one is imported: ``segmint.cli.chosen``).
BENCHES = {
    "parse": ("segmint_bench.parse", "time the diff parser on diff files (concatenated; .gz accepted)"),
    "changes": ("segmint_bench.changes", "time `segmint changes --json` against `git diff` + `git diff --cached`"),
    "chunks": ("segmint_bench.chunks", "time load_diff of the chunk tools on diff files (concatenated; .gz accepted)"),
    "untangle": ("segmint_bench.untangle", "score grouping on tangled commits from a repository's history"),
    "fit": ("segmint_bench.untangle.fit", "fit the grouping model on tangled commits"),
    "split": ("segmint_bench.split", "score `segmint split HEAD` on untangle's cases squashed into one commit"),
    "messages": ("segmint_bench.messages", "score proposed commit subjects against the subjects the engineers wrote"),
    "mcp": ("segmint_bench.mcp", "time the stdio round trip of tools/call list_changes (target: median <= 30 ms)"),
    "check": ("segmint_bench.check", "commits that fail the zero-config check, before and after --fix; and its speed"),
    "absorb": ("segmint_bench.absorb", "absorb beside git-absorb on fixes taken out of real commits"),
    "hook": ("segmint_bench.hook", "time `segmint hook` per agent edit event against `git status`"),
    "provenance": (
        "segmint_bench.provenance",
        "score grouping and titles from recorded intents on replayed real histories",
    ),
    "tui": ("segmint_bench.tui", "time the terminal UI's first paint and key presses on 1,000 changed files"),
    "large": (
        "segmint_bench.large",
        "time grouping a tree holding a regenerated 10 MB generated file and a one-line fix",
    ),
    "scale": ("segmint_bench.scale", "time grouping trees of 10,000 and 50,000 files each edited on one line"),
}


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "bench",
        help="run a benchmark (parse, changes, ...)",
        description="Benchmarks: each prints Segmint's time beside a reference measured in the same run.",
    )
    chosen_only(p, common, BENCHES, _printed_by, dest="bench", metavar="BENCH", required=True)


def _printed_by(parser: argparse.ArgumentParser) -> None:
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
