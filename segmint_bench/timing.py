"""Small helpers shared by the benchmarks: repeated timing and input files."""

from __future__ import annotations

import gc
import gzip
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from segmint_core.errors import SegmintError


@dataclass(frozen=True)
class Timing:
    samples: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def best(self) -> float:
        return min(self.samples)

    @property
    def p90(self) -> float:
        ordered = sorted(self.samples)
        return ordered[round(0.9 * (len(ordered) - 1))]

    @property
    def max(self) -> float:
        return max(self.samples)


def time_it(fn: Callable[[], object], repeat: int, warmup: int = 1) -> Timing:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return Timing(samples)


def time_interleaved(fns: list[Callable[[], object]], repeat: int, warmup: int = 0) -> list[Timing]:
    """Time each function ``repeat`` times, taking turns, so that a busy machine
    slows every side alike rather than whichever ran while it was busy. Garbage
    is collected before each run, so no side pays for the other's."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, own in zip(fns, samples):
            gc.collect()
            start = time.perf_counter()
            fn()
            own.append(time.perf_counter() - start)
    return [Timing(own) for own in samples]


def read_input(path: str) -> bytes:
    """A diff file's bytes; ``.gz`` files are decompressed."""
    p = Path(path).expanduser()
    if p.is_dir():
        raise SegmintError(f"{path} is a directory; give diff files")
    if not p.is_file():
        raise SegmintError(f"No such file: {path}")
    data = p.read_bytes()
    if p.suffix != ".gz":
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError) as exc:  # BadGzipFile is an OSError
        raise SegmintError(f"{path} is not a readable gzip file ({exc})") from None


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
