"""``segmint bench changes [REPO]``: ``segmint changes --json`` against git itself.

Both sides run as whole commands (process start included), in the same run:
the reference is ``git diff`` followed by ``git diff --cached``. Without REPO,
a temporary repository with ``--lines`` changed lines (half staged) is built.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from segmint_bench.timing import progress, time_interleaved
from segmint_core.errors import SegmintError
from segmint_core.git import Git
from segmint_bench import BenchReport


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "changes",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument("repo", nargs="?", metavar="REPO", help="an existing repository (default: a synthetic one)")
    p.add_argument(
        "--lines", type=int, default=100_000, help="changed lines in the synthetic repository (default 100000)"
    )
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    if args.lines < 1 or args.repeat < 1:
        raise SegmintError("--lines and --repeat must be at least 1")
    with tempfile.TemporaryDirectory(prefix="segmint-bench-") as tmp:
        root = Path(args.repo) if args.repo else build_repo(Path(tmp), args.lines)
        git = Git.discover(root)
        segmint_cmd = [*segmint_command(), "changes", "--json", "--repo", git.root]
        git_cmds = [["git", "diff"], ["git", "diff", "--cached"]]

        # Timed as installed: the warm-up run may write bytecode, as a first
        # run does on a user's machine (PYTHONDONTWRITEBYTECODE would make every
        # run compile Segmint's modules again).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

        def ours() -> None:
            subprocess.run(segmint_cmd, check=True, stdout=subprocess.DEVNULL, env=env)

        def reference() -> None:
            for cmd in git_cmds:
                subprocess.run(cmd, cwd=git.root, check=True, stdout=subprocess.DEVNULL)

        changed = _changed_lines(git)
        progress(f"timing on {changed:,} changed lines ...")
        ref, mine = time_interleaved([reference, ours], args.repeat, warmup=1)
    pair_ratios = sorted(m / r for m, r in zip(mine.samples, ref.samples))
    low, high = pair_ratios[len(pair_ratios) // 4], pair_ratios[(3 * len(pair_ratios)) // 4]
    result = {
        "changed_lines": changed,
        "git_seconds": round(ref.median, 4),
        "segmint_seconds": round(mine.median, 4),
        "ratio": round(mine.median / ref.median, 2),
        "pair_ratio_quartiles": [round(low, 2), round(high, 2)],
        "repeat": args.repeat,
    }
    return BenchReport(
        result,
        "\n".join(
            [
                f"changed lines            {changed:,}",
                f"git diff + diff --cached {result['git_seconds']:.4f} s median of {args.repeat}",
                f"segmint changes --json   {result['segmint_seconds']:.4f} s median of {args.repeat}",
                (
                    f"ratio                    {result['ratio']:.2f}x (runs taken turn about; "
                    f"middle half of the paired ratios {low:.2f}-{high:.2f}x)"
                ),
            ]
        ),
    )


def segmint_command() -> list[str]:
    """The installed ``segmint`` script beside this interpreter, as a user runs it."""
    script = os.path.join(os.path.dirname(sys.executable), "segmint")
    if os.path.exists(script):
        return [script]
    return [shutil.which("segmint") or sys.executable, *([] if shutil.which("segmint") else ["-m", "segmint"])]


def _changed_lines(git: Git) -> int:
    total = 0
    for extra in ((), ("--cached",)):
        for row in git.run("diff", "--numstat", *extra).text.splitlines():
            added, removed, _ = row.split("\t", 2)
            if added.isdigit():
                total += int(added) + int(removed)
    return total


def build_repo(root: Path, changed_lines: int, files: int = 100) -> Path:
    """A repository whose working diff has about ``changed_lines`` +/- lines."""
    progress(f"building a repository with {changed_lines:,} changed lines ...")
    git = init_repo(root)
    per_file = max(1, changed_lines // (2 * files))  # each edited line is one - and one +
    length = per_file * 2
    for f in range(files):
        body = "".join(f"def function_{f}_{i}(value):  # line {i}\n" for i in range(length))
        (root / f"module_{f:03d}.py").write_text(body)
    git.run("add", "-A")
    git.run("commit", "-q", "-m", "base")
    for f in range(files):
        path = root / f"module_{f:03d}.py"
        lines = path.read_text().splitlines(keepends=True)
        for i in range(0, length, 2):
            lines[i] = lines[i].replace("value", "new_value")
        path.write_text("".join(lines))
        if f % 2 == 0:
            git.run("add", path.name)
    return root


def init_repo(root: Path) -> Git:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    git = Git(root)
    git.run("config", "user.email", "bench@segmint.invalid")
    git.run("config", "user.name", "segmint bench")
    git.run("config", "commit.gpgsign", "false")
    return git
