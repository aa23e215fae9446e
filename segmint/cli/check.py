"""``segmint check``: every planned commit checked on its own, before any is made.

Exit status: 0 when no commit fails (passed, or not checked), 1 when one
fails, 2 on bad input (and a check command from the repository not allowed).
"""

from __future__ import annotations

import argparse
import signal
import sys

from segmint_core.checking.command import CheckCommand, allow, allowed, configured, refuse_unallowed
from segmint_core.checking.models import FAILED, NOT_CHECKED, CheckReport, CheckResult
from segmint.cli.session_cli import open_session
from segmint_core.jsonio import write_json
from segmint_core.session.models import APPLIED
from segmint_core.session.session import Session
from segmint_core.wording import shown

EXIT_FAILED = 1


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "check",
        parents=[common],
        help="check every planned commit on its own (does each one build?)",
        description="Build HEAD plus the open plans up to each one in a scratch tree under .git/segmint/ and check "
        "it: with the command given or configured ([tool.segmint] check in pyproject.toml, or check in "
        "Segmint's config.toml), else the zero-config check (Python compiles, no name used before the "
        "commit defining it, gofmt -e, node --check). The work tree, index and HEAD are never touched. "
        "Exit status: 0 none fails, 1 one fails, 2 bad input.",
    )
    add_options(p)
    p.add_argument(
        "--fix",
        action="store_true",
        help="apply the fixes found (merge, move lines, reorder), each checked again first; one edit",
    )
    p.add_argument("--undo", action="store_true", help="take back the last fix (or move), as the TUI's z does")
    p.add_argument("--json", action="store_true", help="print the check (and the fix) as JSON")
    p.set_defaults(func=run)


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--command", metavar="CMD", help="the check to run in each commit's tree (a shell command)")
    p.add_argument("--timeout", metavar="SECONDS", type=_seconds, help="stop a commit's check after this long")
    p.add_argument("--jobs", metavar="N", type=_positive, help="commits checked at once (default: the cores)")
    p.add_argument(
        "--allow",
        action="store_true",
        help="allow the check command the repository's pyproject.toml names, for this repository",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 24 * 3600:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, not {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    if args.undo:
        if args.fix:
            from segmint_core.errors import SegmintError

            raise SegmintError("Give --fix or --undo, not both")
        print(session.undo_move())
        return 0
    report = check(session, args, quiet=args.json)
    if not args.fix:
        if args.json:
            write_json(report.to_dict())
        else:
            sys.stdout.write(report_text(session, report))
        return EXIT_FAILED if report.failed else 0
    command = command_of(session, args, quiet=True)
    fix = session.propose_fixes(report, command) if report.failed else None
    applied = fix if fix is not None and fix.steps else None
    if applied is not None:
        session.fix_commits(applied)
    after = applied.report if applied is not None else report
    if args.json:
        write_json(
            {
                **report.to_dict(),
                "fix": fix.to_dict() if fix is not None else None,
                "after": after.to_dict() if applied is not None else None,
            }
        )
    else:
        sys.stdout.write(report_text(session, report))
        if applied is not None:
            print(f"\nFixed: {applied.sentence}. (`segmint check --undo` takes it back.)\n")
            sys.stdout.write(report_text(session, after))
        elif report.failed:
            print("\nNo fix was found that passes the check.")
    return EXIT_FAILED if after.failed else 0


def command_of(session: Session, args: argparse.Namespace, *, quiet: bool) -> CheckCommand | None:
    """The command to check with (None: zero-config); one from the repository runs only once allowed."""
    command = configured(session.git.root, given=getattr(args, "command", None), timeout=getattr(args, "timeout", None))
    if command is None or allowed(session.git.root, command):
        return command
    if getattr(args, "allow", False) or (not quiet and _asked(command)):
        allow(session.git.root, command)
        return command
    refuse_unallowed(session.git.root, command)
    return None


def _asked(command: CheckCommand) -> bool:
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    sys.stderr.write(
        f"This repository's pyproject.toml asks Segmint to run `{command.text}` to check each commit.\n"
        "It runs with your permissions. Allow it for this repository? [y/N] "
    )
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in ("y", "yes")


def check(session: Session, args: argparse.Namespace, *, quiet: bool) -> CheckReport:
    """Check the open plans (proposing them first when there are none), with progress on stderr."""
    command = command_of(session, args, quiet=quiet)
    if not any(p.status != APPLIED for p in session.plans):
        session.propose_commits()
    with _signals_end_the_check():
        return session.check_commits(command, progress=_progress, jobs=getattr(args, "jobs", None))


def _progress(done: int, total: int, result: CheckResult) -> None:
    sys.stderr.write(f"[{done}/{total}] {result.commit_id} {result.mark} {_status(result)}\n")
    sys.stderr.flush()


class _signals_end_the_check:
    """SIGTERM and SIGHUP end the check as Ctrl-C does: its scratch trees are removed on the way out."""

    def __enter__(self) -> None:
        self.before = {}
        for sig in (signal.SIGTERM, signal.SIGHUP):
            try:
                self.before[sig] = signal.signal(sig, _interrupt)
            except ValueError:  # not the main thread
                pass

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self.before.items():
            signal.signal(sig, handler)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _status(result: CheckResult) -> str:
    return {FAILED: "failed", NOT_CHECKED: "not checked"}.get(result.status, "passed")


def report_text(session: Session, report: CheckReport) -> str:
    titles = {p.id: shown(p.title) for p in session.plans}
    lines = [
        f"Checked with {report.check if report.check == 'zero-config' else '`' + report.check + '`'} "
        f"in {report.seconds:.2f} s:"
    ]
    for result in report.results:
        title = titles.get(result.commit_id, "")
        lines.append(f"{result.mark} {result.commit_id}  {_status(result)}  {title}".rstrip())
        if result.output:
            lines += [f"    {line}" for line in result.output.splitlines()]
    failed = len(report.failed)
    lines.append(f"{failed} of {len(report.results)} commits fail." if failed else "No commit fails.")
    return "\n".join(lines) + "\n"
