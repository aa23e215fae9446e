"""The ``segmint`` command line.

Each sub-command lives in its own module with a ``register(subparsers, common)``
function. Modules are imported only to build the parser; heavy libraries
(Textual, numpy, mcp) are imported inside the command that needs them, so
``segmint changes`` starts fast and the headless path never loads Textual.

Errors: a ``SegmintError`` becomes one sentence on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module
from typing import Sequence

from segmint_core import __version__
from segmint_core.errors import SegmintError

# Sub-command modules under segmint_core.cli, in help order.
COMMANDS = ["changes", "bench"]

EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--repo", metavar="PATH", default=argparse.SUPPRESS,
        help="repository to work on (default: the one containing the current directory)",
    )
    parser = argparse.ArgumentParser(
        prog="segmint",
        description="Segment a dirty working tree into commits by intent.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"segmint {__version__}")
    parser.set_defaults(func=None)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        import_module(f"segmint_core.cli.{name}").register(subparsers, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # --repo is accepted before or after the sub-command; its action is shared
    # with every sub-parser, so its absence is filled in here, not by a default.
    args.repo = getattr(args, "repo", None)
    try:
        if args.func is None:
            from segmint_core.cli.tui_launcher import run_tui

            return run_tui(args)
        return int(args.func(args) or 0)
    except SegmintError as exc:
        print(f"segmint: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("segmint: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error for the user.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as exc:  # a bug: say so in one line, trace only on request
        if os.environ.get("SEGMINT_DEBUG"):
            raise
        print(
            f"segmint: internal error: {type(exc).__name__}: {exc} "
            "(set SEGMINT_DEBUG=1 for a traceback)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
