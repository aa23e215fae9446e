"""``segmint bench ...``: the benchmarks, which live in a checkout of the repository (``segmint_bench/``).

The wheel ships the product alone; installed from it, ``segmint bench`` says
in one sentence where the benchmarks are.
"""

from __future__ import annotations

import argparse
from importlib.util import find_spec

from segmint_core.errors import SegmintError

NEEDS_CHECKOUT = (
    "segmint bench needs a checkout of Segmint's repository installed for development "
    "(`pip install -e .` there): the installed package ships the product alone."
)


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    if find_spec("segmint_bench") is not None:
        from segmint_bench.command import register as register_benches

        register_benches(subparsers, common)
        return
    p = subparsers.add_parser(
        "bench", help="run a benchmark (from a checkout of the repository)", description=NEEDS_CHECKOUT
    )
    p.add_argument("words", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(func=_needs_checkout)


def _needs_checkout(args: argparse.Namespace) -> int:
    raise SegmintError(NEEDS_CHECKOUT)
