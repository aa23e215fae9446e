"""``segmint`` with no sub-command: the Textual app (imported only here)."""

from __future__ import annotations

import argparse

from segmint_core.errors import SegmintError


def run_tui(args: argparse.Namespace) -> int:
    try:
        from segmint_tui.app import run_app
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise SegmintError(f"the terminal UI is not available: {exc}") from exc
    return run_app(args)
