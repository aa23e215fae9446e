"""The Segmint app: one factory (``create_app``), the session bridge, and ``run_app``.

The session opens in a worker thread once the app is on screen (reading a
change of a million lines takes seconds, and the person sees progress
meanwhile rather than a blank terminal); until it has, only help and quit work.

Threads: session calls run in worker threads (a regroup of a large change set
takes seconds, and the session's lock may be held by the agent's call), and
their results come back with ``call_later``, which is thread-safe. Session
events arrive on whatever thread made the change and are posted to the main
screen as ``SessionChanged`` messages.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TypeVar

from textual.app import App, SystemCommand
from textual.screen import Screen
from textual.timer import Timer

from segmint_core.errors import SegmintError
from segmint_core.git import Git
from segmint_core.session.events import SessionEvent
from segmint_core.session.session import Session
from segmint_core.wording import counted
from segmint_tui.catalog import COMMANDS
from segmint_tui.disk_watch import DiskWatch
from segmint_tui.group_aside import GroupAside
from segmint_tui.messages import (
    DiskChanged,
    GroupingProgress,
    PairingChanged,
    SessionChanged,
    SessionSaved,
)
from segmint_tui.options import TuiOptions
from segmint_tui.pairing import Pairing
from segmint_tui.saves import SaveRecorder
from segmint_tui.screens.main import MainScreen, describe

log = logging.getLogger("segmint.tui")
T = TypeVar("T")

DISK_DEBOUNCE = 0.3  # seconds of quiet on disk before a refresh
SAVED_DEBOUNCE = 0.05  # seconds after a session save before reading it
PROGRESS_EVERY = 0.05  # seconds between progress updates from a regroup


class SegmintApp(App[int]):
    CSS_PATH = "styles/app.tcss"
    TITLE = "segmint"
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        session: Session | None,
        *,
        opener: Callable[[], Session] | None = None,
        mcp: bool = True,
        agent_can_commit: bool = False,
        watch: bool = True,
        auto_group: bool = True,
        allowed_roots: tuple[str, ...] = (),
        aside: GroupAside | None = None,
        record_saves: bool = True,
    ) -> None:
        """``session``, or None with an ``opener`` that opens it (in a worker, once the app is up);
        ``aside``, a child process grouping the session meanwhile (``group_aside``)."""
        super().__init__()
        self.session: Session | None = session
        self._opener = opener
        self.agent_can_commit = agent_can_commit
        self.watch_disk = watch
        self.record_saves = record_saves
        self.saves: SaveRecorder | None = None
        self.auto_group = auto_group
        self.pairing = Pairing(
            self, lambda: self.session, enabled=mcp, agent_can_commit=agent_can_commit, allowed_roots=allowed_roots
        )
        self.grouping = aside is not None
        self._aside = aside
        self._aside_grouped = False
        self.review_messages: int | None = None
        self.first_paint: float | None = None  # perf_counter() of the first full paint (bench)
        self.opened_at: float | None = None  # perf_counter() once the session is open (bench)
        self._unsubscribe: Callable[[], None] | None = None
        self._disk: DiskWatch | None = None
        self._disk_timer: Timer | None = None
        self._saved_timer: Timer | None = None
        self.main = MainScreen()

    def get_default_screen(self) -> Screen:
        return self.main

    # -- life cycle -------------------------------------------------------------------

    def on_mount(self) -> None:
        self.call_after_refresh(self._painted)
        if self._aside is not None:
            self.run_worker(self._follow_aside, thread=True, group="aside", name="group aside", exit_on_error=False)
        if self.session is not None:
            self._mark_present(self.session)
            self._opened(self.session)
        else:
            self.run_worker(self._open, thread=True, group="open", name="open the session", exit_on_error=False)

    def _open(self) -> None:
        assert self._opener is not None
        try:
            session = self._opener()
            # Off the screen's thread: it takes the session's lock, which a grouping child holds.
            self._mark_present(session)
        except SegmintError as exc:
            self.call_from_thread(self.exit, 2, message=f"segmint: {exc}")
            return
        except Exception as exc:
            log.exception("opening the session failed")
            self.call_from_thread(self.exit, 1, message=f"segmint: internal error: {type(exc).__name__}: {exc}")
            return
        self.call_from_thread(self._opened, session)

    @property
    def opened(self) -> Session:
        """The session, for what runs only once it is open (``_opened`` starts all of it)."""
        assert self.session is not None, "the session is open"
        return self.session

    def _mark_present(self, session: Session) -> None:
        session.set_presence(person_present=True, agent_can_commit=self.agent_can_commit)

    def _opened(self, session: Session) -> None:
        """Everything that needs the session starts here, once it is open."""
        self.session = session
        self.opened_at = time.perf_counter()
        self.sub_title = describe(session)
        for sentence in session.recovered:  # an interrupted commit finished, a saved session set aside
            self.notify(sentence, title="Recovered", severity="warning", timeout=12, markup=False)
        self._unsubscribe = session.subscribe(self._session_event)
        if self._aside is not None:
            if self._aside_grouped:
                self._take_up_aside()
        elif self.auto_group and not session.groups and session.changes:
            self.start_grouping(auto=True)
        self.saves = SaveRecorder(session.git.root, enabled=self.record_saves and self.watch_disk)
        self.run_worker(self._read_intent, thread=True, group="saves", name="read the intent", exit_on_error=False)
        if self.watch_disk:
            self._disk = DiskWatch(
                session.git.root,
                session.git.git_dir,
                lambda: self.post_message(DiskChanged()),
                lambda: self.post_message(SessionSaved()),
            )
            self._disk.start()
        self.pairing.start()
        if self.main.is_mounted:  # else the screen takes it up as it mounts
            self.main.session_opened()
        self.count_review_messages()

    # -- grouping in a child process (group_aside) ------------------------------------------

    def _follow_aside(self) -> None:
        """Worker: the child's progress and its end; the app groups by itself if it failed."""

        def progress(done: int, total: int, text: str) -> None:
            self.main.post_message(GroupingProgress(done, max(total, 1), text))

        # call_later, not call_from_thread: that would wait for an app that may be quitting.
        aside = self._aside
        assert aside is not None  # the worker starts only with a child grouping
        try:
            grouped = aside.follow(progress, lambda: self.call_later(self._aside_saved))
        except Exception:
            log.exception("following the grouping process failed")
            grouped = False
        if not grouped:
            self.call_later(self._aside_failed)

    def _aside_saved(self) -> None:
        """The child saved the groups: take them up once the session is open (its open may
        have taken them up already, having waited for the child's lock)."""
        self._aside_grouped = True
        if self.session is not None:
            self._take_up_aside()

    def _take_up_aside(self) -> None:
        self.call_session("take up the groups", self.opened.catch_up, lambda _: self._aside_settled())

    def _aside_failed(self) -> None:
        """The child ended without grouping: the app groups by itself, as without one."""
        if self._aside_grouped or self._aside is None:
            return
        self._aside = None
        self._aside_settled()

    def _aside_settled(self) -> None:
        self.grouping = False
        self.main.post_message(GroupingProgress(0, 0, ""))
        # A session new to this process takes up another's save without announcing it.
        if self.main.is_mounted and self.session is not None:
            self.main.request_sync()
        session = self.session
        if session is not None and session.groups:
            self.notify(f"Grouped into {counted(len(session.groups), 'group')}")  # as grouping here says
        elif session is not None and self.auto_group and session.changes:
            self.start_grouping(auto=True)

    def take_aside_evidence(self) -> bool:
        """The grouping child's evidence, for the confidence (called off the screen's thread);
        False if the app is quitting."""
        if self._aside is not None and self.session is not None:
            return self._aside.take_evidence(self.session)
        return True

    def _painted(self) -> None:
        if self.first_paint is None:
            self.first_paint = time.perf_counter()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._disk is not None:
            self._disk.stop()
        if self._aside is not None:
            self._aside.stop()
        self.pairing.stop()
        if self.session is not None:
            self._mark_gone(self.session)

    def _mark_gone(self, session: Session) -> None:
        try:
            session.set_presence(person_present=False)
        except (SegmintError, OSError) as exc:  # .git/segmint went away meanwhile: quit all the same
            log.warning("could not record that the person left: %s", exc)

    # -- the session bridge -------------------------------------------------------------

    def _session_event(self, event: SessionEvent) -> None:
        """Session listener: runs on the thread that changed the session."""
        self.main.post_message(SessionChanged(event))

    def call_session(self, label: str, fn: Callable[[], T], done: Callable[[T], Any] | None = None):
        """Run ``fn`` (a session call) in a worker thread; ``done(result)`` runs on the app's loop.

        A ``SegmintError`` becomes an error notification naming what failed;
        anything else too (with the type), and is logged: the app never crashes.
        A failed call may still have changed the session without announcing it
        (a failed commit is marked failed, then raises), so the screen redraws.
        """

        def work() -> None:
            try:
                result = fn()
            except SegmintError as exc:
                self.call_later(self._failed, label, str(exc))
                return
            except Exception as exc:
                log.exception("%s failed", label)
                self.call_later(self._failed, label, f"{type(exc).__name__}: {exc}")
                return
            if done is not None:
                self.call_later(done, result)

        return self.run_worker(work, thread=True, group="session", name=label, exit_on_error=False)

    @property
    def busy(self) -> bool:
        """A session call, a grouping or a redraw of the main screen is under way."""
        working = any(w.group == "session" and not w.is_finished for w in self.workers)
        return self.session is None or working or self.grouping or self.main._sync_pending

    @property
    def reading_confidence(self) -> bool:
        """The session's confidence is being worked out for the ? marks (groups are on screen already)."""
        return any(w.group == "confidence" and not w.is_finished for w in self.workers)

    def _failed(self, label: str, reason: str) -> None:
        self.notify(reason, title=f"Could not {label}", severity="error", timeout=8, markup=False)
        self.main.request_sync()

    def start_grouping(self, *, auto: bool = False) -> None:
        """Regroup all changes from scratch in a worker, with a progress indicator."""
        if self.grouping:
            return
        self.grouping = True
        last = [0.0]

        def progress(done: int, total: int, text: str) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY or done >= total:
                last[0] = now
                self.main.post_message(GroupingProgress(done, max(total, 1), text))

        def regroup():
            try:
                return self.session.regroup(progress=progress)
            finally:
                self.grouping = False
                self.main.post_message(GroupingProgress(0, 0, ""))

        self.main.post_message(GroupingProgress(0, 1, "starting"))
        label = "group the changes" if auto else "regroup"
        self.call_session(label, regroup, lambda groups: self.notify(f"Grouped into {counted(len(groups), 'group')}"))

    def count_review_messages(self) -> None:
        def counted(n: int) -> None:
            self.review_messages = n
            self.main.refresh_activity()

        self.call_session("read the review messages", lambda: len(self.opened.peek_review_messages()), counted)

    # -- disk and pairing ---------------------------------------------------------------

    def on_disk_changed(self, _: DiskChanged) -> None:
        if self._disk_timer is not None:
            self._disk_timer.stop()
        self._disk_timer = self.set_timer(DISK_DEBOUNCE, self._refresh_from_disk)

    def _refresh_from_disk(self) -> None:
        self._disk_timer = None
        self.call_session("refresh", lambda: self.opened.refresh(actor="segmint"))
        if self.saves is not None and self.saves.enabled:
            self.run_worker(
                self._record_saves, thread=True, group="saves", name="record the saves", exit_on_error=False
            )

    def _record_saves(self) -> None:
        """Worker: the saves snapshotted under the person's intent; the status line says so."""
        assert self.saves is not None  # made as the session opens, before this runs
        self.saves.record()
        self.call_later(self.main.refresh_activity)

    def _read_intent(self) -> None:
        assert self.saves is not None  # made as the session opens, before this runs
        self.saves.read_intent()
        self.call_later(self.main.refresh_activity)

    def on_session_saved(self, _: SessionSaved) -> None:
        """Another process (a headless agent, ``segmint apply``) may have edited the session:
        take it up, so the screen shows it. Our own saves cost one stat."""
        if self._saved_timer is not None:
            self._saved_timer.stop()
        self._saved_timer = self.set_timer(SAVED_DEBOUNCE, self._catch_up)

    def _catch_up(self) -> None:
        self._saved_timer = None
        if self.opened.saved_elsewhere():
            self.call_session("read the session", self.opened.catch_up)

    async def action_quit(self) -> None:
        await self.pairing.shutdown()
        self.exit()

    def on_pairing_changed(self, _: PairingChanged) -> None:
        self.main.refresh_activity()

    # -- command palette ------------------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for command in COMMANDS:
            yield SystemCommand(command.title, command.help, partial(self.main.run_action, command.action))


def create_app(
    repo: str | None = None,
    *,
    session: Session | None = None,
    mcp: bool = True,
    agent_can_commit: bool = False,
    watch: bool = True,
    auto_group: bool = True,
    allowed_roots: tuple[str, ...] = (),
    group_aside: bool | None = None,
    record_saves: bool = True,
) -> SegmintApp:
    """The one app factory: the CLI, the tests, the screenshots and the bench all start here.

    Not a repository, or git missing, raises ``SegmintError`` before any
    terminal set-up; the session itself opens once the app is on screen. On a tree with
    no saved session, a child process groups it meanwhile when a core is idle
    (``group_aside``: True whenever it can, False never; ``segmint_tui.group_aside``).
    """
    aside = None
    if session is None:
        git = Git.discover(repo)
        aside = GroupAside.start(git, always=bool(group_aside)) if auto_group and group_aside is not False else None
    return SegmintApp(
        session,
        opener=partial(Session.open, repo),
        mcp=mcp,
        agent_can_commit=agent_can_commit,
        watch=watch,
        auto_group=auto_group,
        allowed_roots=allowed_roots,
        aside=aside,
        record_saves=record_saves,
    )


def app_from_options(options: TuiOptions) -> SegmintApp:
    """The app ``segmint`` with no sub-command runs."""
    return create_app(
        options.repo,
        mcp=options.mcp,
        agent_can_commit=options.agent_can_commit,
        allowed_roots=options.allowed_roots,
        record_saves=options.record_saves,
    )


def run_app(options: TuiOptions) -> int:
    result = app_from_options(options).run()
    return int(result or 0)
