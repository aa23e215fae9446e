"""``segmint mcp``: the MCP server over stdio (joining a running TUI's session if there is one)."""

from __future__ import annotations

import argparse

from segmint.cli import add_allow_root


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "mcp",
        parents=[common],
        help="serve MCP over stdio (joins the TUI's session when one runs)",
        description="Serve the Model Context Protocol over stdin/stdout for an AI agent. If the Segmint TUI "
        "is running on the same repository, relay to its session instead, so the agent sees what "
        "the person sees. stdout carries JSON-RPC only; logs go to stderr.",
    )
    add_allow_root(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from segmint_core.mcp.headless import main
    from segmint_core.roots import allowed_folders

    return main(args.repo, allowed_folders(getattr(args, "allow_root", None) or ()))
