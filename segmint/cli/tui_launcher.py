"""``segmint`` with no sub-command: the Textual app (imported only here)."""

from __future__ import annotations

import argparse

from segmint_core.errors import SegmintError
from segmint_core.roots import allowed_folders
from segmint_tui.options import TuiOptions


def tui_options(args: argparse.Namespace) -> TuiOptions:
    """``segmint [--repo PATH] [--no-mcp] [--no-record] [--agent-can-commit] [--allow-root FOLDER]`` as the app's
    options."""
    from segmint_core.config import load_settings

    return TuiOptions(
        repo=args.repo,
        mcp=not args.no_mcp,
        agent_can_commit=args.agent_can_commit,
        allowed_roots=allowed_folders(vars(args).get("allow_root", ())),
        record_saves=not args.no_record and load_settings().record_saves,
    )


def run_tui(args: argparse.Namespace) -> int:
    options = tui_options(args)
    try:
        from segmint_tui.app import run_app
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise SegmintError(f"the terminal UI is not available: {exc}") from exc
    return run_app(options)
