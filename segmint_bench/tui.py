"""``segmint bench tui``: first paint and per-key latency of the terminal UI on a large change.

A temporary repository whose working tree changes ``--files`` files (1,000 by
default, three hunks each) is opened in the real app, run headless with
Textual's ``App.run_test`` (every frame is laid out and rendered; no bytes go
to a terminal). First paint: from ``create_app`` (the session reads the change
from git) until the groups and the highlighted group's diff are painted, in a
fresh process each time, on a fresh tree (grouping on start included) and on a
tree grouped before. Per key: from posting a key until the refresh showing the
diff of the row it moved to. Pairing: an MCP client over the app's own HTTP
endpoint renames a group; from the call's return to the refresh showing it.
The targets: first paint at most 1.5 s, a key at most 50 ms, an agent's edit
on screen within 100 ms (medians).

The measurements are taken by ``segmint_bench.tui_measures``; this module is
the command that runs them and prints the table.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path
from typing import Any

from segmint_bench import BenchReport
from segmint_bench import tui_measures
from segmint_bench.timing import progress
from segmint_core.errors import SegmintError

TARGET_PAINT_SECONDS = 1.5
TARGET_KEY_SECONDS = 0.050
TARGET_AGENT_SECONDS = 0.100  # what an agent changes is on screen within 100 ms
DRIVER = "App.run_test() with Textual's headless driver (every frame laid out and rendered, no bytes to a terminal)"


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "tui",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument("--files", type=int, default=1000, help="changed files in the synthetic repository (default 1000)")
    p.add_argument("--keys", type=int, default=50, help="timed presses of each kind of key (default 50)")
    p.add_argument("--repeat", type=int, default=3, help="app starts timed, each in a new process (default 3)")
    p.add_argument("--size", default="160x48", help="terminal size, columns x rows (default 160x48)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument(
        "--on",
        metavar="REPO",
        dest="on_repo",
        help="time only the first frame, on this repository as it is (no synthetic change)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    try:
        import textual  # noqa: F401 - the app it measures needs it
    except ImportError as exc:
        raise SegmintError(f"the terminal UI benchmark needs Textual, which cannot be imported: {exc}") from exc
    if min(args.files, args.keys, args.repeat) < 1:
        raise SegmintError("--files, --keys and --repeat must be at least 1")
    try:
        size = tui_measures.parse_size(args.size)
    except argparse.ArgumentTypeError as exc:
        raise SegmintError(str(exc)) from exc
    if args.on_repo:
        return first_frames(Path(args.on_repo), args.repeat, size)
    with tempfile.TemporaryDirectory(prefix="segmint-bench-") as tmp:
        report = tui_measures.run(
            Path(tmp), files=args.files, presses=args.keys, repeat=args.repeat, size=size, progress=progress
        )
    result = figures(report)
    return BenchReport(result, format_result(result))


def first_frames(root: Path, repeat: int, size: tuple[int, int]) -> BenchReport:
    """The first frame on a real repository, in a new process each time."""
    if not root.is_dir():
        raise SegmintError(f"--on {root} is not a folder")
    samples = []
    for n in range(repeat):
        progress(f"starting the app on {root} ({n + 1}/{repeat}, a new process each time) ...")
        samples.append(tui_measures.measure_first_frame(root, size))
    median = round(statistics.median(samples), 3)
    result = {
        "driver": DRIVER,
        "size": f"{size[0]}x{size[1]}",
        "repository": str(root),
        "first_frame_seconds": median,
        "first_frame_samples": [round(s, 3) for s in samples],
        "target_seconds": TARGET_PAINT_SECONDS,
        "within_target": median <= TARGET_PAINT_SECONDS,
    }
    text = "\n".join(
        [
            f"the real app, headless: {DRIVER}; terminal {result['size']}",
            f"repository: {root}",
            "",
            _row("", "ours", "target"),
            _row(
                f"first frame (progress shown), median of {repeat}",
                _s(median),
                f"≤ {TARGET_PAINT_SECONDS} s",
                _verdict(result["within_target"]),
            ),
        ]
    )
    return BenchReport(result, text)


def figures(report: Any) -> dict[str, Any]:
    """The report of ``segmint_bench.tui_measures.run`` as plain numbers (medians over the app starts)."""

    def med(name: str, paints: list[Any]) -> float:
        return round(statistics.median(getattr(p, name) for p in paints), 3)

    fresh, grouped = report.fresh, report.grouped
    paint = {
        "grouped_seconds": med("groups_shown", grouped),
        "fresh_seconds": med("groups_shown", fresh),
        "fresh_first_frame_seconds": med("first_frame", fresh),
        "grouped_samples": [round(p.groups_shown, 3) for p in grouped],
        "fresh_samples": [round(p.groups_shown, 3) for p in fresh],
        "open_seconds": med("opened", fresh + grouped),
        "import_seconds": med("import_app", fresh + grouped),
        "grouping_alone_seconds": round(report.grouping_alone, 3),
        "fresh_cpu_seconds": med("cpu", fresh),
        "fresh_cpu_children_seconds": med("cpu_children", fresh),
        "fresh_grouped_aside": sum(p.aside for p in fresh),
        "grouping_alone_cpu_seconds": round(report.grouping_alone_cpu, 3),
        "target_seconds": TARGET_PAINT_SECONDS,
    }
    for name in ("grouped", "fresh", "fresh_first_frame"):
        paint[f"{name}_within_target"] = paint[f"{name}_seconds"] <= TARGET_PAINT_SECONDS
    keys = [_latencies(k, TARGET_KEY_SECONDS) for k in report.keys]
    agent = [_latencies(k, TARGET_AGENT_SECONDS) for k in report.agent]
    return {
        "driver": DRIVER,
        "size": f"{report.size[0]}x{report.size[1]}",
        "changed_files": report.files,
        "hunks": report.hunks,
        "groups": grouped[0].groups,
        "app_starts": len(fresh),
        "first_paint": paint,
        "keys": keys,
        "target_key_seconds": TARGET_KEY_SECONDS,
        "agent": agent,
        "target_agent_seconds": TARGET_AGENT_SECONDS,
    }


def _latencies(k: Any, target: float) -> dict[str, Any]:
    return {
        "what": k.what,
        "presses": len(k.samples),
        "median_seconds": round(k.median, 4),
        "p90_seconds": round(k.p90, 4),
        "max_seconds": round(k.max, 4),
        "within_target": k.median <= target,
    }


def format_result(r: dict[str, Any]) -> str:
    p = r["first_paint"]
    target = f"≤ {p['target_seconds']} s"
    key_target = f"≤ {r['target_key_seconds'] * 1000:.0f} ms"
    lines = [
        f"the real app, headless: {r['driver']}; terminal {r['size']}",
        f"change: {r['changed_files']:,} files, {r['hunks']:,} hunks, grouped into {r['groups']:,} groups",
        "",
        (
            f"first paint ({r['changed_files']:,} files): create_app() until painted,"
            f" median of {r['app_starts']} app starts, each a new process"
        ),
        _row("", "ours", "target"),
        _row(
            "groups + diff on screen, grouped before",
            _s(p["grouped_seconds"]),
            target,
            _verdict(p["grouped_within_target"]),
        ),
        _row(
            "groups + diff on screen, fresh tree (grouping included)",
            _s(p["fresh_seconds"]),
            target,
            _verdict(p["fresh_within_target"]),
        ),
        _row(
            "first frame, fresh tree (progress shown, grouping under way)",
            _s(p["fresh_first_frame_seconds"]),
            target,
            _verdict(p["fresh_first_frame_within_target"]),
        ),
        _row("reference: grouping alone (Session.regroup, no app)", _s(p["grouping_alone_seconds"])),
        _row("included above: opening the session (git diff, parse)", _s(p["open_seconds"])),
        _row("CPU time of the app until groups shown, fresh tree", _s(p["fresh_cpu_seconds"])),
        _row("CPU time of its grouping process and git, fresh tree", _s(p["fresh_cpu_children_seconds"])),
        _row(
            "fresh-tree starts grouped in a child process (a core idle)",
            f"{p['fresh_grouped_aside']} of {r['app_starts']}",
        ),
        _row("CPU time of grouping alone (the reference)", _s(p["grouping_alone_cpu_seconds"])),
        _row("not included: importing the app (Textual, Segmint)", _s(p["import_seconds"])),
        "",
        f"per key: posted until the refresh that shows its diff, {r['keys'][0]['presses']} presses of each",
        _row("", "median", "p90", "max", "target (median)"),
    ]
    lines += _latency_rows(r["keys"], key_target)
    lines += [
        "",
        (
            f"pairing: an MCP client over HTTP renames a group, {r['agent'][0]['presses']} times,"
            " until the refresh that shows it"
        ),
        _row("", "median", "p90", "max", "target (median)"),
    ]
    lines += _latency_rows(r["agent"], f"≤ {r['target_agent_seconds'] * 1000:.0f} ms")
    return "\n".join(lines)


def _latency_rows(latencies: list[dict[str, Any]], target: str) -> list[str]:
    return [
        _row(
            k["what"],
            _ms(k["median_seconds"]),
            _ms(k["p90_seconds"]),
            _ms(k["max_seconds"]),
            target,
            _verdict(k["within_target"]),
        )
        for k in latencies
    ]


def _row(label: str, *cells: str) -> str:
    return (f"  {label:<62}" + "".join(f"{cell:<10}" for cell in cells)).rstrip()


def _s(seconds: float) -> str:
    return f"{seconds:.2f} s"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def _verdict(met: bool) -> str:
    return "ok" if met else "OVER"
