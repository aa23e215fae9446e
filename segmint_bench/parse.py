"""``segmint bench parse FILE... [--vs-diffchunk]``: diff parsing speed."""

from __future__ import annotations

import argparse
import os
import tempfile

from segmint_bench.diffchunk_ref import diffchunk_tools, diffchunk_version
from segmint_bench.timing import read_input, time_it
from segmint_core.changes.parser import parse_diff
from segmint_core.errors import SegmintError
from segmint_bench import BenchReport
from segmint_core.wording import counted


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "parse",
        description="Parse the given diffs (concatenated into one input) and print lines, files, hunks and seconds.",
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument(
        "--vs-diffchunk", action="store_true", help="also time diffchunk 0.2.0's load_diff on the same input"
    )
    p.add_argument("--repeat", type=int, default=7, help="timed runs (median reported; default 7)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    if args.repeat < 1:
        raise SegmintError("--repeat must be at least 1")
    data = b"".join(read_input(f) for f in args.files)

    def ours() -> list:
        return parse_diff(data)

    def ours_with_lines() -> list:
        # Hunk bodies are split into lines on first use; this times that too.
        patches = parse_diff(data)
        for p in patches:
            for h in p.hunks:
                _ = h.lines
        return patches

    patches = ours()
    timing = time_it(ours, args.repeat)
    with_lines = time_it(ours_with_lines, args.repeat)
    result = {
        "lines": data.count(b"\n"),
        "bytes": len(data),
        "files": len(patches),
        "hunks": sum(len(p.hunks) for p in patches),
        "seconds": round(timing.median, 4),
        "seconds_best": round(timing.best, 4),
        "seconds_with_lines": round(with_lines.median, 4),
        "repeat": args.repeat,
    }
    if args.vs_diffchunk:
        result.update(_diffchunk(data, args.repeat))
        result["speedup"] = round(result["diffchunk_seconds"] / timing.median, 2)
    return BenchReport(result, _format(result))


def _diffchunk(data: bytes, repeat: int) -> dict:
    with tempfile.NamedTemporaryFile("wb", suffix=".diff", delete=False) as fh:
        fh.write(data)
        path = fh.name
    try:

        def theirs() -> None:
            diffchunk_tools().load_diff(path)  # fresh tools: no cached session

        timing = time_it(theirs, repeat)
    finally:
        os.unlink(path)
    return {
        "diffchunk_version": diffchunk_version(),
        "diffchunk_seconds": round(timing.median, 4),
    }


def _format(r: dict) -> str:
    lines = [
        f"input     {r['lines']:,} lines, {r['bytes']:,} bytes",
        f"parsed    {counted(r['files'], 'file')}, {counted(r['hunks'], 'hunk')}",
        f"segmint   {r['seconds']:.4f} s median of {r['repeat']} (best {r['seconds_best']:.4f} s)",
        f"          {r['seconds_with_lines']:.4f} s median with every hunk split into lines",
    ]
    if "diffchunk_seconds" in r:
        lines.append(f"diffchunk {r['diffchunk_seconds']:.4f} s median (load_diff, diffchunk {r['diffchunk_version']})")
        lines.append(f"speedup   {r['speedup']:.1f}x")
    return "\n".join(lines)
