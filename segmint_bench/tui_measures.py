"""The measurements behind ``segmint bench tui``: the real app, headless, on a large change.

A temporary repository is built whose working tree changes ``files`` files
(nine in ten Python modules, the rest Markdown notes; three hunks each, three
intents across ten feature folders; one file in seven has a staged hunk).

* First paint, each sample in a new Python process (cold imports and caches,
  as when a person runs ``segmint``): the clock starts just before
  ``create_app``, so it includes opening the session (reading the change from
  git), and stops at the refresh after the tree holds the session's groups and
  the diff pane shows the highlighted group (looked for every 20 ms). On a
  fresh tree the app groups every change on start (in a process it forks as
  it is created when a core is idle, ``segmint_tui.group_aside``; else in a
  worker), and that is included; on a tree
  grouped before, the saved session is read instead. Also reported: the fresh
  tree's first frame (progress shown, grouping under way), grouping alone with
  no app (the reference), the CPU time of the app's process and of the
  processes it started (the grouping process, git), and the import of the app,
  which precedes the clock.
* Per key, in one process after start-up: the key event is posted as the
  terminal driver posts it, and the clock stops at the refresh after the
  effect is on screen (the tree's cursor on the next row and the diff pane
  showing that row; for ``]``/``[``, the diff's cursor on the next hunk).
  ``Pilot.press`` is not used for timing: it sleeps at least 40 ms waiting
  for the CPU to go idle.

Everything runs through ``App.run_test``: the real app with Textual's headless
driver, which lays out and renders every frame but writes no bytes to a
terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from segmint_bench.timing import Timing
from segmint_core.errors import SegmintError

# Textual and the app are imported inside the functions that run it, so that a
# first-paint sample's process times their import (see ``paint``).

FEATURES = ("billing", "auth", "search", "cache", "reports", "export", "imports", "audit", "notify", "schedule")
SIZE = (160, 48)
TIMEOUT = 60.0  # seconds to wait for anything the app does
PAINT_POLL = 0.02  # seconds between looks at a starting app
GIT_ENV = {
    "GIT_AUTHOR_NAME": "segmint bench",
    "GIT_AUTHOR_EMAIL": "bench@segmint.invalid",
    "GIT_COMMITTER_NAME": "segmint bench",
    "GIT_COMMITTER_EMAIL": "bench@segmint.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


# -- the repository -----------------------------------------------------------------


def build_repo(root: Path, files: int, progress: Callable[[str], None] = lambda _: None) -> Path:
    """A repository whose working tree changes ``files`` files, three hunks each."""
    progress(f"building a repository with {files:,} changed files ...")
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    for key, value in (("commit.gpgsign", "false"), ("core.autocrlf", "false")):
        _git(root, "config", key, value)
    paths = [_path(n) for n in range(files)]
    for n, rel in enumerate(paths):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(_base(n, rel))
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    progress("editing them ...")
    staged = [rel for n, rel in enumerate(paths) if n % 7 == 3]
    for n, rel in enumerate(paths):
        if n % 7 == 3:
            (root / rel).write_text(_edited(n, rel, edits=1))
    if staged:
        _git(root, "add", "--", *staged)
    for n, rel in enumerate(paths):
        (root / rel).write_text(_edited(n, rel, edits=3))
    return root


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env={**os.environ, **GIT_ENV})


def _path(n: int) -> str:
    feature = FEATURES[n % len(FEATURES)]
    if n % 10 == 9:
        return f"docs/{feature}/note_{n:04d}.md"
    return f"src/{feature}/{feature}_{n:04d}.py"


def _base(n: int, rel: str) -> str:
    return "\n".join(_note(n) if rel.endswith(".md") else _module(n)) + "\n"


def _edited(n: int, rel: str, edits: int) -> str:
    lines = _note(n) if rel.endswith(".md") else _module(n)
    intent = n % len(FEATURES) % 3
    for k in reversed(range(edits)):
        _edit(lines, n, intent, k, rel.endswith(".md"))
    return "\n".join(lines) + "\n"


def _module(n: int) -> list[str]:
    feature = FEATURES[n % len(FEATURES)]
    lines = [
        f'"""{feature.title()} step {n}: load, check and store {feature} records."""',
        "",
        "from __future__ import annotations",
        "",
        "LIMIT = 10",
        "",
        "",
    ]
    for k, verb in enumerate(("load", "check", "store")):
        lines += [
            f"def {verb}_{feature}_{n}(source, timeout=30):",
            f'    """{verb.title()} the {feature} records of one batch."""',
            "    records = []",
            "    for item in source:",
            "        if len(records) >= LIMIT:",
            "            break",
            f"        records.append(item + {k})",
            "    total = len(records)",
            "    if total == 0:",
            "        return []",
            f"    return {verb}_{feature}_tail(records, timeout)",
            "",
            "",
        ]
    return lines


def _note(n: int) -> list[str]:
    feature = FEATURES[n % len(FEATURES)]
    lines = [f"# {feature.title()} note {n}", ""]
    for k in range(3):
        lines += [
            f"The {feature} step {k} reads a batch of records.",
            "It stops at ten records.",
            "Each record is stored once.",
            "",
            "",
            "",
            "",
            "",
            "",
        ]
    return lines


def _edit(lines: list[str], n: int, intent: int, k: int, note: bool) -> None:
    """The ``k``-th of three edits, far enough apart to be three hunks (made last to first)."""
    if note:
        at = 3 + 9 * k
        lines[at] = lines[at].replace("ten", ("fifty", "ten (configurable)", "ten, then waits")[intent])
        return
    at = 7 + 13 * k  # the def line of function k
    if intent == 0:  # timeouts in seconds
        lines[at] = lines[at].replace("timeout=30", "timeout=TIMEOUT_SECONDS")
        lines[at + 1] = lines[at + 1].replace(' batch."""', ' batch (timeout in seconds)."""')
    elif intent == 1:  # log every batch
        lines.insert(at + 3, '    log.debug("batch of %d", len(source))')
    else:  # a larger limit
        lines[at + 4] = lines[at + 4].replace(">= LIMIT", ">= LIMIT * BATCH_FACTOR")


# -- figures ------------------------------------------------------------------------


@dataclass(frozen=True)
class Paint:
    """One start of the app in a fresh process; seconds from just before ``create_app``."""

    import_app: float  # importing segmint_tui.app (Textual included), before the clock starts
    opened: float  # create_app returned: the session has read the change from git
    first_frame: float  # the first refresh: every change listed, grouping perhaps under way
    groups_shown: float  # the groups in the tree and the highlighted group's diff, painted
    groups: int
    cpu: float = 0.0  # this process's CPU time (every thread) from the clock's start until groups_shown
    cpu_children: float = 0.0  # the CPU time of the processes it started (grouping, git), until the app quit
    aside: bool = False  # a child process grouped (segmint_tui.group_aside: when a core was idle)


@dataclass(frozen=True, kw_only=True)
class Keys(Timing):
    """Latencies of one kind of key press; seconds (median, p90, max from Timing)."""

    what: str


@dataclass(frozen=True)
class Report:
    files: int
    hunks: int
    size: tuple[int, int]
    grouping_alone: float  # Session.regroup on the same change, no app: the reference
    grouping_alone_cpu: float  # its CPU time: on a shared machine the wall clock says more of the load
    fresh: list[Paint]  # no saved session: the app groups on start
    grouped: list[Paint]  # the session saved by the previous run
    keys: list[Keys]
    agent: list[Keys]  # an agent's edit over HTTP until it is on screen


# -- the whole benchmark ---------------------------------------------------------------


def run(
    workdir: Path,
    *,
    files: int,
    presses: int,
    repeat: int,
    size: tuple[int, int] = SIZE,
    progress: Callable[[str], None] = lambda _: None,
) -> Report:
    """Build the repository in ``workdir`` and take every measurement."""
    root = build_repo(workdir / "repo", files, progress)
    progress("grouping it without the app (the reference) ...")
    hunks, grouping, grouping_cpu = _group_alone(root)
    fresh, grouped = [], []
    for n in range(repeat):  # taking turns, so that a busy moment slows both alike
        progress(f"starting the app ({n + 1}/{repeat}, a new process each time): on the fresh tree ...")
        fresh.append(measure_paint(root, size, fresh=True))
        progress(f"starting the app ({n + 1}/{repeat}): on the tree it grouped ...")
        grouped.append(measure_paint(root, size, fresh=False))
    progress(f"timing {presses} key presses of each kind ...")
    keys = measure_keys(root, size, presses)
    progress(f"timing {presses} edits by an agent over MCP ...")
    return Report(files, hunks, size, grouping, grouping_cpu, fresh, grouped, keys, measure_agent(root, size, presses))


def _group_alone(root: Path) -> tuple[int, float, float]:
    from segmint_core.session.session import Session

    _forget_session(root)
    session = Session.open(str(root))
    start, cpu = time.perf_counter(), time.process_time()
    session.regroup()
    return sum(len(c.hunks) for c in session.changes), time.perf_counter() - start, time.process_time() - cpu


def _forget_session(root: Path) -> None:
    shutil.rmtree(root / ".git" / "segmint", ignore_errors=True)


# -- first paint, in a fresh process --------------------------------------------------


def measure_paint(root: Path, size: tuple[int, int], *, fresh: bool) -> Paint:
    """Start the app in a new Python process; ``fresh`` drops the saved session first."""
    if fresh:
        _forget_session(root)
    command = [sys.executable, "-m", "segmint_bench.tui_measures", "paint", str(root), "--size", f"{size[0]}x{size[1]}"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=2 * TIMEOUT, check=False)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        raise SegmintError(f"the app did not start in the benchmark's process: {last}")
    return Paint(**json.loads(proc.stdout))


def paint(root: str, size: tuple[int, int], *, group_aside: bool | None = None) -> Paint:
    """In this (fresh) process: import the app, start it, wait until the groups are painted
    (``group_aside`` as ``create_app`` takes it: None lets the app choose)."""
    start = time.perf_counter()
    from segmint_tui.app import create_app

    begin, cpu = time.perf_counter(), time.process_time()
    children = _children_cpu()
    app = create_app(root, mcp=False, watch=False, group_aside=group_aside)
    aside = app._aside is not None

    async def drive() -> tuple[float, float]:
        async with app.run_test(size=size):
            # Checked every 20 ms, not every 1: waking the loop that often takes the
            # GIL from the grouping thread and slows what is measured.
            await until_painted(app, lambda: groups_shown(app), poll=PAINT_POLL)
            return time.perf_counter(), time.process_time()

    shown, shown_cpu = asyncio.run(drive())
    if app.first_paint is None:
        raise SegmintError("the app never painted")
    assert app.opened_at is not None
    return Paint(
        import_app=begin - start,
        opened=app.opened_at - begin,
        first_frame=app.first_paint - begin,
        groups_shown=shown - begin,
        groups=len(app.session.groups),
        cpu=shown_cpu - cpu,
        cpu_children=_children_cpu() - children,
        aside=aside,
    )


def _children_cpu() -> float:
    """CPU time of this process's children that have ended and been waited for."""
    times = os.times()
    return times.children_user + times.children_system


def first_frame(root: str, size: tuple[int, int]) -> float:
    """In this (fresh) process: seconds from ``create_app`` to the app's first frame."""
    from segmint_tui.app import create_app

    begin = time.perf_counter()
    app = create_app(root, mcp=False, watch=False)

    async def drive() -> None:
        async with app.run_test(size=size):
            await until_painted(app, lambda: app.first_paint is not None, poll=PAINT_POLL)

    asyncio.run(drive())
    assert app.first_paint is not None
    return app.first_paint - begin


def measure_first_frame(root: Path, size: tuple[int, int]) -> float:
    """``first_frame`` in a new Python process, on ``root`` as it is (its saved session kept)."""
    command = [
        sys.executable,
        "-m",
        "segmint_bench.tui_measures",
        "first-frame",
        str(root),
        "--size",
        f"{size[0]}x{size[1]}",
    ]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=10 * TIMEOUT, check=False)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        raise SegmintError(f"the app did not start in the benchmark's process: {last}")
    return float(json.loads(proc.stdout)["first_frame"])


def groups_shown(app) -> bool:
    """The app is idle, the tree holds the session's groups, the diff shows the cursor's row."""
    rows = app.main.tree.rows
    if app.busy or not rows or [r.id for r in rows] != [g.id for g in app.session.groups]:
        return False
    return _diff_shows_cursor(app)


def _diff_shows_cursor(app) -> bool:
    ref = app.main.tree.cursor_ref
    return ref is not None and app.main.diff.document.key == ref.key


async def until_painted(app, done: Callable[[], bool], poll: float = 0.001) -> None:
    """Wait until ``done()``, checked every ``poll`` seconds, then for the screen's next refresh."""
    deadline = time.perf_counter() + TIMEOUT
    while not done():
        if time.perf_counter() > deadline:
            raise SegmintError(f"the app did not get there in {TIMEOUT:.0f} s")
        await asyncio.sleep(poll)
    await app.screen.wait_for_refresh()


# -- per key, in this process ----------------------------------------------------------


def measure_keys(root: Path, size: tuple[int, int], presses: int) -> list[Keys]:
    """Per-key latencies on the grouped session of ``root``, the app warm."""
    from segmint_tui.app import create_app

    app = create_app(str(root), mcp=False, watch=False)

    async def drive() -> list[Keys]:
        async with app.run_test(size=size):
            await until_painted(app, lambda: groups_shown(app))
            return [
                await _over_groups(app, presses),
                await _into_groups(app, presses),
                await _hunk_to_hunk(app, presses),
            ]

    return asyncio.run(drive())


async def _press(app, key: str, done: Callable[[], bool], char: str | None = None) -> float:
    """Seconds from posting ``key`` (as the terminal driver does) to the refresh showing its effect."""
    from textual import events

    await until_painted(app, lambda: not app.busy)
    start = time.perf_counter()
    app._driver.send_message(events.Key(key, char))
    await until_painted(app, lambda: done() and not app.busy)
    return time.perf_counter() - start


def _on_line(app, line: int) -> Callable[[], bool]:
    """The tree's cursor is on ``line`` and the diff pane shows that row."""
    return lambda: app.main.tree.cursor_line == line and _diff_shows_cursor(app)


async def _over_groups(app, presses: int) -> Keys:
    """down (then up, at the end) over the collapsed groups: each press shows another group's diff."""
    tree = app.main.tree
    samples = []
    step = 1
    for _ in range(presses):
        if not 0 <= tree.cursor_line + step <= tree.last_line:
            step = -step
        samples.append(await _press(app, "down" if step > 0 else "up", _on_line(app, tree.cursor_line + step)))
    return Keys(samples, what="cursor over groups")


async def _into_groups(app, presses: int) -> Keys:
    """down through the groups opened one by one: the diff shows a reason's group, a file, a hunk.

    Opening a group or a file (right) is not timed.
    """
    tree = app.main.tree
    tree.move_cursor_to_line(0)
    await until_painted(app, _on_line(app, 0))
    samples = []
    while len(samples) < presses:
        node = tree.cursor_node
        if node is not None and node.allow_expand and not node.is_expanded:
            await _press(app, "right", lambda node=node: node.is_expanded and bool(node.children))
        elif tree.cursor_line >= tree.last_line:
            await _press(app, "home", _on_line(app, 0))
        else:
            samples.append(await _press(app, "down", _on_line(app, tree.cursor_line + 1)))
    return Keys(samples, what="cursor over files and hunks")


async def _hunk_to_hunk(app, presses: int) -> Keys:
    """] (then [, at the end) in the diff pane of the group with the most hunks."""
    main = app.main
    biggest = max(main.tree.rows, key=lambda r: len(r.hunk_ids))
    node = next(n for n in main.tree._all_nodes() if n.data is not None and n.data.key == f"g:{biggest.id}")
    main.tree.move_cursor(node)
    await until_painted(app, _on_line(app, node.line))
    main.focus_pane("diff")
    view = main.diff
    samples = []
    forward = True
    while len(samples) < presses:
        rows = view.document.hunk_rows()
        cursor = view.cursor
        if not any(r > cursor if forward else r < cursor for r in rows):
            forward = not forward
        if not any(r > cursor if forward else r < cursor for r in rows):
            await _press(app, "home", lambda: view.cursor == 0)
            continue
        key, char = ("right_square_bracket", "]") if forward else ("left_square_bracket", "[")
        samples.append(await _press(app, key, lambda cursor=cursor: view.cursor != cursor, char))
    return Keys(samples, what=f"next/previous hunk in a diff ({len(biggest.hunk_ids)} hunks)")


# -- an agent's edits, over the embedded MCP server ----------------------------------------


def measure_agent(root: Path, size: tuple[int, int], calls: int) -> list[Keys]:
    """An MCP client over streamable HTTP renames a group, ``calls`` times: seconds from the
    call's return (the session has changed) and from its start, to the refresh showing it."""
    from segmint_tui.app import create_app

    app = create_app(str(root), mcp=True, watch=False)

    async def drive() -> list[Keys]:
        async with app.run_test(size=size):
            await until_painted(app, lambda: groups_shown(app) and app.pairing.info is not None)
            async with agent_client(app.pairing.info) as client:
                timings = await _renames(app, client, calls)
            await app.pairing.shutdown()  # as quitting does: a cancelled server logs a traceback
            return timings

    return asyncio.run(drive())


def agent_client(info, timeout: float = TIMEOUT):
    """A real MCP client over the app's HTTP endpoint with its bearer token, as ``segmint mcp`` connects."""
    from contextlib import asynccontextmanager

    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    @asynccontextmanager
    async def connected():
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {info.token}"}, timeout=timeout) as http,
            Client(streamable_http_client(info.url, http_client=http)) as client,
        ):
            yield client

    return connected()


async def _renames(app, client, calls: int) -> list[Keys]:
    group_id = app.main.tree.rows[0].id
    after_return, round_trip = [], []
    for n in range(calls):
        summary = f"renamed by the agent, {n}"
        await until_painted(app, lambda: not app.busy)
        start = time.perf_counter()
        result = await client.call_tool("update_group", {"group_id": group_id, "summary": summary})
        returned = time.perf_counter()
        if result.is_error:
            raise SegmintError(f"the agent's update_group failed: {result.content}")
        await until_painted(app, lambda: app.main.tree.rows[0].summary == summary and not app.busy)
        painted = time.perf_counter()
        after_return.append(painted - returned)
        round_trip.append(painted - start)
    return [
        Keys(after_return, what="agent's edit on screen, from its call's return"),
        Keys(round_trip, what="agent's edit on screen, from its call's start"),
    ]


# -- the child process ---------------------------------------------------------------------


def parse_size(text: str) -> tuple[int, int]:
    """``160x48`` as (160, 48)."""
    width, _, height = text.lower().partition("x")
    try:
        size = (int(width), int(height))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size like 160x48: {text}") from None
    if min(size) < 20:
        raise argparse.ArgumentTypeError(f"too small a terminal: {text}")
    return size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m segmint_bench.tui_measures",
        description="One first-paint sample of `segmint bench tui`, as JSON.",
    )
    parser.add_argument("mode", choices=["paint", "first-frame"])
    parser.add_argument("root")
    parser.add_argument("--size", type=parse_size, default=SIZE)
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--in-process", dest="group_aside", action="store_false", default=None, help="group in the app's own process"
    )
    where.add_argument(
        "--aside",
        dest="group_aside",
        action="store_true",
        help="group in a child process whenever it can, even with no core idle",
    )
    args = parser.parse_args(argv)
    if args.mode == "first-frame":
        print(json.dumps({"first_frame": first_frame(args.root, args.size)}))
    else:
        print(json.dumps(asdict(paint(args.root, args.size, group_aside=args.group_aside))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
