"""``segmint skill``: print the Segmint skill (SKILL.md), or install it where an agent loads skills."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from segmint_core import skill
from segmint.cli import non_empty_path
from segmint_core.errors import SegmintError


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "skill",
        help="print the Segmint skill for agents (SKILL.md), or --install it",
        description="The Segmint skill (SKILL.md, the Agent Skills format Claude Code and other agents "
        "load): printed, or with --install written into the user's Claude Code skills folder "
        f"({skill.default_skills_dir()}/segmint/SKILL.md) or --path DIR.",
    )
    p.add_argument("--install", action="store_true", help="write SKILL.md instead of printing it")
    p.add_argument(
        "--path",
        metavar="DIR",
        type=lambda text: Path(non_empty_path(text)),
        help="a skills folder (the skill goes in DIR/segmint/), such as .claude/skills in a "
        "project; default: ~/.claude/skills",
    )
    p.add_argument("--force", action="store_true", help="replace a different SKILL.md already there")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not args.install:
        if args.path is not None or args.force:
            raise SegmintError("--path and --force go with --install")
        sys.stdout.write(skill.skill_text())
        return 0
    done = skill.install(args.path, force=args.force)
    if done.unchanged:
        print(f"The Segmint skill is already installed, unchanged: {done.path}")
    else:
        verb = "Replaced" if done.replaced else "Installed"
        print(
            f"{verb} the Segmint skill: {done.path}\n"
            "Agents that load skills from there (Claude Code) use it from their next session."
        )
    return 0
