"""Small helpers shared by the benchmarks: repeated timing and input files."""

from __future__ import annotations

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


def time_it(fn: Callable[[], object], repeat: int, warmup: int = 1) -> Timing:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return Timing(samples)


def time_pair(
    reference: Callable[[], object], ours: Callable[[], object], repeat: int, warmup: int = 1
) -> tuple[Timing, Timing]:
    """Both sides timed turn about, so a machine that slows down or speeds up
    during the run weighs on both alike."""
    for _ in range(warmup):
        reference()
        ours()
    ref_samples, our_samples = [], []
    for _ in range(repeat):
        for fn, samples in ((reference, ref_samples), (ours, our_samples)):
            start = time.perf_counter()
            fn()
            samples.append(time.perf_counter() - start)
    return Timing(ref_samples), Timing(our_samples)


def read_input(path: str) -> bytes:
    """A diff file's bytes; ``.gz`` files are decompressed."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise SegmintError(f"No such file: {path}")
    data = p.read_bytes()
    return gzip.decompress(data) if p.suffix == ".gz" else data


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
