"""The ``segmint`` command line.

Each sub-command lives in its own module with a ``register(subparsers, common)``
function. Only the module of the command being run is imported (the others are
listed in ``--help`` from ``COMMANDS``), so ``segmint changes`` starts fast and
the headless path never loads Textual.

Errors: a ``SegmintError`` becomes one sentence on stderr and exit status 2.

A command that holds nothing to clean up may set ``quick_exit=True``: run as
the program, it then ends with ``os._exit`` once its output is flushed,
skipping the interpreter's teardown (about 8 ms of ``segmint changes``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from segmint.cli.chosen import chosen_only
from segmint_core import __version__
from segmint_core.errors import SegmintError, disk_trouble

# Sub-command modules under segmint.cli, in help order, with their help line.
COMMANDS = {
    "changes": "list uncommitted changes (staged, unstaged, untracked)",
    "group": "group uncommitted changes by intent (summaries and reasons)",
    "plan": "propose one commit per group, in dependency order",
    "check": "check every planned commit on its own (does each one build?)",
    "apply": "commit a planned commit (or all of them) exactly",
    "pr": "draft the pull request from the plans, applied commits or the branch",
    "absorb": "fold fixes into the unpushed commits they fix; plan the rest as new commits",
    "split": "re-plan committed work by intent (REV or BASE..TIP); apply --all rewrites the branch",
    "undo": "undo the last operation Segmint made (all commits of one apply --all)",
    "bench": "run a benchmark beside its reference",
    "trajectory": "record the edit timeline (every save) into .trajectory/",
    "intent": "say what you are working on now (recorded with your edits), or show it",
    "hook": "record a coding agent's hook event (install: add the hook to its settings)",
    "mcp": "serve MCP over stdio (joins the TUI's session when one runs)",
    "send": "send a review comment about a file to the agent (lazygit custom command)",
    "skill": "print the Segmint skill for agents (SKILL.md), or --install it",
}

EXIT_USAGE = 2


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter, sized with ``os`` instead of ``shutil``: argparse
    builds one for every ``add_argument``, and importing shutil costs about as
    much as parsing a thousand-line diff on the start-up path of ``segmint changes``."""

    def __init__(self, prog: str, **options) -> None:
        options.setdefault("width", _terminal_width())
        super().__init__(prog, **options)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **options) -> None:
        options.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **options)


def _terminal_width() -> int:
    try:
        columns = os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError):
        columns = int(os.environ.get("COLUMNS", "80") or 80)
    return max(columns - 2, 40)


def build_parser() -> argparse.ArgumentParser:
    """The parser; a command's own arguments are read from its module when it is chosen (``chosen``)."""
    common = _Parser(add_help=False)
    common.add_argument(
        "--repo",
        metavar="PATH",
        default=argparse.SUPPRESS,
        type=non_empty_path,
        help="repository to work on (default: the one containing the current directory)",
    )
    parser = _Parser(
        prog="segmint",
        description="Segment a dirty working tree into commits by intent.",
        parents=[common],
        allow_abbrev=False,  # a command's own short option (bench's --n) is never taken for --no-mcp or --no-record
    )
    parser.add_argument("--version", action="version", version=f"segmint {__version__}")
    parser.add_argument("--no-mcp", action="store_true", help="terminal UI: run without the embedded MCP server")
    parser.add_argument(
        "--no-record",
        action="store_true",
        help="terminal UI: do not record your saves as provenance (setting: SEGMINT_RECORD_SAVES=0)",
    )
    parser.add_argument(
        "--agent-can-commit",
        action="store_true",
        help="terminal UI: let a paired agent commit without the person's approval",
    )
    add_allow_root(parser)
    parser.set_defaults(func=None)
    modules = {name: (f"segmint.cli.{name}", help_line) for name, help_line in COMMANDS.items()}
    chosen_only(parser, common, modules, dest="command", metavar="COMMAND", parser_class=_Parser)
    return parser


def non_empty_path(text: str) -> str:
    """A path option's value; an empty one (an unset shell variable) is refused, not taken as the current folder."""
    if not text:
        raise argparse.ArgumentTypeError("expected a path, not an empty string")
    return text


def add_allow_root(parser: argparse.ArgumentParser) -> None:
    """``--allow-root``, for the TUI and ``segmint mcp``: the agent's tools keep to the repository otherwise."""
    parser.add_argument(
        "--allow-root",
        metavar="FOLDER",
        action="append",
        default=argparse.SUPPRESS,
        type=non_empty_path,
        help="let the agent's tools (load_diff, configure_project) also use this folder; repeatable",
    )


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def main(argv: Sequence[str] | None = None) -> int:
    as_program = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # named by the sub-command's parser, with its usage, not the top one's
        command = _subparsers(parser).get(getattr(args, "command", None) or "", parser)
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
    # --repo is accepted before or after the sub-command; its action is shared
    # with every sub-parser, so its absence is filled in here, not by a default.
    args.repo = getattr(args, "repo", None)
    code = _run(args)
    if as_program and getattr(args, "quick_exit", False):
        _exit_now(code)
    return code


def _exit_now(code: int) -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        pass  # a reader such as `head` stopped early, as in _run
    except OSError as exc:
        print(f"segmint: {exc.strerror or exc}", file=sys.stderr)
        code = 1
    sys.stderr.flush()
    os._exit(code)


def _run(args: argparse.Namespace) -> int:
    try:
        if args.func is None:
            from segmint.cli.tui_launcher import run_tui

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
    except Exception as exc:  # a bug (or a full disk): one line, trace only on request
        trouble = disk_trouble(exc)  # the output, or a file Segmint writes: the machine's problem
        if trouble:
            print(f"segmint: {trouble}", file=sys.stderr)
            return 1
        if os.environ.get("SEGMINT_DEBUG"):
            raise
        print(
            f"segmint: internal error: {type(exc).__name__}: {exc} (set SEGMINT_DEBUG=1 for a traceback)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
