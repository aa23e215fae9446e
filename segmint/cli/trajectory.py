"""``segmint trajectory watch``: record the edit timeline of a repository until Ctrl-C."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from segmint_core.errors import SegmintError
from segmint_core.git import Git

LOGGER = "segmint_core.trajectory"
MAX_DEBOUNCE = 3600.0  # an hour: past it a save would wait into the next session


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "trajectory",
        parents=[common],
        help="record the edit timeline (every save) into .trajectory/",
        description="The edit timeline: every save recorded into a shadow git repository in .trajectory/.",
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    watch = actions.add_parser(
        "watch",
        parents=[common],
        help="record every save until Ctrl-C",
        description="Watch the repository and snapshot every save into .trajectory/ until Ctrl-C. "
        "Logs go to stderr; the project's .git is never written.",
    )
    watch.add_argument(
        "--debounce",
        type=float,
        default=2.0,
        metavar="S",
        help="seconds of quiet after a file's last save before it is recorded (default: 2.0)",
    )
    watch.add_argument("--intent", metavar="TEXT", help="intent recorded with the snapshots")
    watch.set_defaults(func=run_watch)


def run_watch(args: argparse.Namespace) -> int:
    from segmint_core.trajectory.service import TrajectoryService

    if not 0 < args.debounce <= MAX_DEBOUNCE:  # (inf, or a huge number: no wait the clock can time)
        raise SegmintError(
            f"--debounce must be a positive number of seconds up to {MAX_DEBOUNCE:g}, got {args.debounce}."
        )
    _log_to_stderr()
    root = Git.discover(args.repo).root
    stopping = threading.Event()
    # Ctrl-C and SIGTERM only ask the loop to stop (asked twice, it ends at once). The loop wakes
    # every second: a signal the kernel hands to one of the recording threads wakes no wait of the
    # main thread, and Python runs its handler only there.
    previous = {sig: signal.signal(sig, partial(_stop, stopping)) for sig in (signal.SIGINT, signal.SIGTERM)}
    service = TrajectoryService(debounce=args.debounce)
    log = logging.getLogger(LOGGER)
    try:
        service.start(root)
        if args.intent:  # (once started: the intent then goes to the project's provenance record too)
            service.set_trajectory_intent(args.intent)
        said = PersonsIntent(root)
        if said.changed(log) and not args.intent:
            service.follow_intent(said.text)
        log.info("Ctrl-C to stop")
        while not stopping.wait(1.0):
            if said.changed(log):  # `segmint intent` in another shell: later saves are recorded under it
                service.follow_intent(said.text)
                log.info("now recording under: %s", said.text or "(no intent)")
    finally:
        service.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    log.info("stopped")
    return 0


@dataclass
class PersonsIntent:
    """What the person says they are working on (``segmint intent``, the TUI's ``i``), read again
    each second; a record that cannot be read is said once and leaves the timeline recording."""

    root: str
    text: str | None = None
    warned: bool = False

    def changed(self, log: logging.Logger) -> bool:
        from segmint_core.trajectory import provenance

        try:
            current = provenance.current_intent(Path(self.root), source="cli")
        except SegmintError as exc:
            if not self.warned:
                log.warning("cannot read the current intent: %s", exc)
                self.warned = True
            return False
        text = current.text if current else None
        if text == self.text:
            return False
        self.text = text
        return True


def _stop(stopping: threading.Event, *_: object) -> None:
    if stopping.is_set():
        os._exit(130)  # asked again while stopping: the saves still waiting are dropped
    stopping.set()


def _log_to_stderr() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("segmint trajectory: %(message)s"))
    logger = logging.getLogger(LOGGER)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
