"""``segmint bench chunks FILE... [--vs-diffchunk]``: ``load_diff`` speed.

The files (``.gz`` accepted) are concatenated into one temporary diff file, and
each timed run loads it with a fresh ``ChunkService`` (no cached session), as
an agent's first call would. With ``--vs-diffchunk``, diffchunk 0.2.0's
``load_diff`` is timed on the same file in the same run, the two taking turns.
The targets: at least 4x diffchunk's speed, and at most 0.2 s.
"""

from __future__ import annotations

import argparse
import os
import tempfile

from segmint_bench.diffchunk_ref import diffchunk_tools, diffchunk_version
from segmint_bench.timing import read_input, time_interleaved, time_it
from segmint_bench import BenchReport
from segmint_core.chunks import ChunkService
from segmint_core.errors import SegmintError

TARGET_SPEEDUP = 4.0
TARGET_SECONDS = 0.2


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "chunks",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--vs-diffchunk", action="store_true", help="also time diffchunk 0.2.0's load_diff on the same file")
    p.add_argument("--max-chunk-lines", type=int, default=1000, help="chunk size for both tools (default 1000)")
    p.add_argument("--repeat", type=int, default=7, help="timed runs (median reported; default 7)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    if args.repeat < 1:
        raise SegmintError("--repeat must be at least 1")
    data = b"".join(read_input(f) for f in args.files)
    if not data.strip():
        raise SegmintError(f"{', '.join(args.files)}: no diff to chunk (empty)")
    with tempfile.NamedTemporaryFile("wb", prefix="segmint-bench-", suffix=".diff", delete=False) as fh:
        fh.write(data)
        path = fh.name
    try:
        result = measure(path, data, args.max_chunk_lines, args.repeat, args.vs_diffchunk)
    finally:
        os.unlink(path)
    return BenchReport(result, format_result(result))


def measure(path: str, data: bytes, max_chunk_lines: int, repeat: int, vs_diffchunk: bool) -> dict:
    def ours() -> dict:
        return ChunkService().load_diff(path, max_chunk_lines=max_chunk_lines).data

    def theirs() -> dict:
        return diffchunk_tools().load_diff(path, max_chunk_lines=max_chunk_lines)

    loaded = ours()
    if vs_diffchunk:
        their_loaded = theirs()
        timing, their_timing = time_interleaved([ours, theirs], repeat)
    else:
        timing = time_it(ours, repeat)
    result: dict = {
        "lines": data.count(b"\n"),
        "bytes": len(data),
        "files": loaded["files"],
        "chunks": loaded["chunks"],
        "seconds": round(timing.median, 4),
        "seconds_best": round(timing.best, 4),
        "repeat": repeat,
        "max_chunk_lines": max_chunk_lines,
        "target_seconds": TARGET_SECONDS,
        "seconds_met": timing.median <= TARGET_SECONDS,
    }
    if vs_diffchunk:
        speedup = their_timing.median / timing.median
        result.update(
            {
                "diffchunk_version": diffchunk_version(),
                "diffchunk_seconds": round(their_timing.median, 4),
                "diffchunk_chunks": their_loaded["chunks"],
                "speedup": round(speedup, 2),
                "target_speedup": TARGET_SPEEDUP,
                "speedup_met": speedup >= TARGET_SPEEDUP,
            }
        )
    return result


def _verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def format_result(r: dict) -> str:
    lines = [
        f"input      {r['lines']:,} lines, {r['bytes']:,} bytes",
        f"chunked    {r['files']:,} files into {r['chunks']:,} chunks of at most {r['max_chunk_lines']} lines",
        f"segmint    {r['seconds']:.4f} s median of {r['repeat']} (best {r['seconds_best']:.4f} s)"
        f"   target <= {r['target_seconds']} s: {_verdict(r['seconds_met'])}",
    ]
    if "diffchunk_seconds" in r:
        lines.append(
            f"diffchunk  {r['diffchunk_seconds']:.4f} s median (load_diff, diffchunk {r['diffchunk_version']},"
            f" {r['diffchunk_chunks']} chunks)"
        )
        lines.append(
            f"speedup    {r['speedup']:.1f}x   target >= {r['target_speedup']:.0f}x: {_verdict(r['speedup_met'])}"
        )
    return "\n".join(lines)
