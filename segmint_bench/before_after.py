"""Segmint's commits and pull request for one tree written over another: the guide's Flask example.

    python -m segmint_bench.before_after BEFORE AFTER [--json]

BEFORE and AFTER are folders (Flask 2.2.2's and 2.2.3's sdists unpacked, for the
guide). BEFORE is committed in a new temporary repository, AFTER written over it
as a person would find it, and Segmint proposes commits offline (no model) and
drafts the pull request. Printed as Markdown: a table of the commits (hunks,
title), each body, then the draft; with ``--json``, the same as data. The
commit's author, dates and the session's settings are pinned, so the output
changes only when Segmint does.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from segmint_bench.demo import IDENTITY
from segmint_core.config import Settings
from segmint_core.session.session import Session


def propose(before: Path, after: Path) -> dict:
    """The commits Segmint proposes for ``after`` written over ``before``, and the draft."""
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        _copy(before, repo)
        env = {**os.environ, **IDENTITY, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
        for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", before.name]):
            subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
        for child in repo.iterdir():
            if child.name != ".git":
                shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
        _copy(after, repo)
        session = Session.open(str(repo), settings=Settings())
        plans = session.propose_commits()
        draft = session.generate_pr()
        return {
            "commits": [
                {"hunks": len(p.hunk_ids), "title": p.title, "body": p.description, "hunk_ids": p.hunk_ids}
                for p in plans
            ],
            "pr": {"title": draft.title, "description": draft.description},
        }


def _copy(src: Path, dst: Path) -> None:
    for path in sorted(src.rglob("*")):
        target = dst / path.relative_to(src)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif path.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())  # written afresh: a copied mtime could hide an edit from git


def markdown(result: dict) -> str:
    rows = [f"| {c['hunks'] or 'whole file'} | {_code(c['title'])} |" for c in result["commits"]]
    bodies = [f"{_code(c['title'])}\n\n```text\n{c['body']}\n```" for c in result["commits"] if c["body"].strip()]
    pr = result["pr"]
    return "\n\n".join(
        [
            "| hunks | title |\n|---|---|\n" + "\n".join(rows),
            "Bodies (the commits not listed have none):",
            *bodies,
            f"The pull-request draft (`segmint pr`):\n\n```markdown\n# {pr['title']}\n\n{pr['description'].rstrip()}\n```",
        ]
    )


def _code(text: str) -> str:
    """``text`` as a Markdown code span, in double backticks where it holds one (``add `x` ``)."""
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m segmint_bench.before_after", description=__doc__.split("\n")[0])
    parser.add_argument("before", type=Path, help="the tree committed first")
    parser.add_argument("after", type=Path, help="the tree written over it")
    parser.add_argument("--json", action="store_true", help="print the commits and the draft as JSON")
    args = parser.parse_args(argv)
    for folder in (args.before, args.after):
        if not folder.is_dir():
            print(f"segmint_bench.before_after: {folder} is not a folder", file=sys.stderr)
            return 2
    result = propose(args.before, args.after)
    print(json.dumps(result, indent=2) if args.json else markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
