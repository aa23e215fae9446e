"""``segmint bench large``: a regenerated 10 MB generated file plus a one-line fix.

A temporary repository holds a JSON file that ``.gitattributes`` marks
``linguist-generated``, rewritten whole (every record changed), and a
one-line fix in a Python module. Each step runs as the real command (process
start included), turn about with its reference, and reports its median time
and peak memory: ``segmint group --new`` beside ``git diff``, and ``segmint
plan`` then ``segmint apply --all`` (on a fresh copy of the tree each round)
beside ``git add`` plus ``git commit`` of the same tree. The groups are
checked: the generated file in one group of its own. The terminal UI's first
frame on that tree (progress shown while the session opens) is timed by
``segmint bench tui --on``.

With ``--long-lines CHARS`` the tree holds no generated file: hand-written
files gain lines of that many characters instead (a base64 blob in code, a data
URL in the README, a minified script, a changelog entry naming many issues, a
hex string), beside the same one-line fix. Each pattern that reads a line must
read it in time linear in its length: at 100,000 characters ``plan`` once took 173 s.
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from segmint_bench import BenchReport
from segmint_bench.changes import init_repo, segmint_command
from segmint_bench.timing import progress
from segmint_core.errors import SegmintError

GENERATED = "data/catalog.json"
FIX = "app/pricing.py"
# Targets (issue 15/16): that tree groups in <= 5 s with <= 400 MB.
TARGET_SECONDS = 5.0
TARGET_MB = 400.0
TARGET_FIRST_FRAME = 1.5  # issue 15: the TUI shows its first frame, with progress, within 1.5 s


@dataclass(frozen=True)
class Step:
    name: str
    argv: list[str]  # run in the repository; "segmint" stands for the installed command
    target_seconds: float | None = None
    target_mb: float | None = None
    copy: str | None = None  # run in a fresh copy of the tree of this name, made anew each round


STEPS = [
    Step("git diff (reference)", ["git", "diff", "--stat"]),
    Step("segmint group", ["segmint", "group", "--new"], TARGET_SECONDS, TARGET_MB),
    Step("git add + commit (ref.)", ["sh", "-c", "git add -A && git commit -q -m regenerate"], copy="reference"),
    Step("segmint plan", ["segmint", "plan"], TARGET_SECONDS, copy="segmint"),
    Step("segmint apply --all", ["segmint", "apply", "--all"], TARGET_SECONDS, copy="segmint"),
]


@dataclass(frozen=True)
class Measure:
    seconds: float
    mb: float


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "large",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument("--mb", type=float, default=10.0, help="size of the generated file in MB (default 10)")
    p.add_argument(
        "--long-lines",
        type=int,
        metavar="CHARS",
        help="no generated file: hand-written files gain lines of CHARS characters (a blob, a data URL, ...)",
    )
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    if not (0 < args.mb < math.inf) or args.repeat < 1:  # (not nan either)
        raise SegmintError("--mb must be positive and --repeat at least 1")
    if args.long_lines is not None and args.long_lines < 1:
        raise SegmintError("--long-lines must be at least 1")
    with tempfile.TemporaryDirectory(prefix="segmint-bench-large-") as tmp:
        root = build_in_child(Path(tmp) / "repo", args.mb, args.long_lines)
        progress(f"timing {len(STEPS)} steps, {args.repeat} runs each ...")
        runs: dict[str, list[Measure]] = {s.name: [] for s in STEPS}
        for _ in range(args.repeat):
            copies = {s.copy: fresh_copy(root, Path(tmp) / s.copy) for s in STEPS if s.copy}
            for step in STEPS:  # turn about, so a busy machine slows every step alike
                runs[step.name].append(measure(step.argv, copies.get(step.copy, root)))
        whole = None if args.long_lines else generated_kept_whole(root)
        progress("timing the terminal UI's first frame ...")
        frame = tui_first_frame(fresh_copy(root, Path(tmp) / "tui"), args.repeat)
    rows = {name: _summary(samples) for name, samples in runs.items()}
    figures = {
        "mb": None if args.long_lines else args.mb,
        "long_lines": args.long_lines,
        "repeat": args.repeat,
        "steps": rows,
        "generated_in_one_group": whole,
        "tui_first_frame": frame,
    }
    return BenchReport(figures, _table(rows, args, whole) + "\n" + _frame_line(frame))


def tui_first_frame(root: Path, repeat: int) -> dict:
    """The TUI's first frame on the tree, through ``segmint bench tui --on`` (new processes)."""
    command = [*segmint_command(), "bench", "tui", "--on", str(root), "--repeat", str(repeat), "--json"]
    proc = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        reason = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        return {"seconds": None, "error": reason}
    data = json.loads(proc.stdout)
    return {"seconds": data["first_frame_seconds"], "samples": data["first_frame_samples"]}


def _frame_line(frame: dict) -> str:
    if frame["seconds"] is None:
        return f"TUI first frame: not measured ({frame['error']})"
    met = frame["seconds"] <= TARGET_FIRST_FRAME
    return (
        f"TUI first frame (progress shown while the session opens): {frame['seconds']:.3f} s, "
        f"target <= {TARGET_FIRST_FRAME:g} s: {'met' if met else 'NOT met'}"
    )


def build_in_child(root: Path, mb: float, long_lines: int | None = None) -> Path:
    """``build_repo`` in a process of its own. On Linux a child's peak memory starts from its
    parent's at the fork and is kept across exec, so this process stays small while building
    the catalog, and each step's peak is its own."""
    code = (
        "from pathlib import Path; from segmint_bench.large import build_repo; "
        f"build_repo(Path({str(root)!r}), {mb!r}, {long_lines!r})"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    return root


def build_repo(root: Path, mb: float, long_lines: int | None = None) -> Path:
    """The tree: ``GENERATED`` regenerated (every record changed), or hand-written files given
    lines of ``long_lines`` characters; and a one-line fix in ``FIX``."""
    what = f"lines of {long_lines:,} characters" if long_lines else f"a {mb:g} MB generated file"
    progress(f"building a repository with {what} ...")
    root.mkdir(parents=True)
    git = init_repo(root)
    (root / ".gitattributes").write_text(f"{GENERATED} linguist-generated\n")
    (root / "app").mkdir()
    (root / FIX).write_text("def total(prices):\n    return sum(prices) * 1.2\n\n\ndef tax():\n    return 0.2\n")
    records = _records(mb)
    if long_lines:
        _write_long_lines(root, long_lines, before=True)
    else:
        _write_catalog(root, records, seed=0)
    git.run("add", "-A")
    git.run("commit", "-q", "-m", "base")
    if long_lines:
        _write_long_lines(root, long_lines, before=False)
    else:
        _write_catalog(root, records, seed=1)
    (root / FIX).write_text(
        "def total(prices):\n    return sum(prices) * (1 + tax())\n\n\ndef tax():\n    return 0.2\n"
    )
    return root


def _records(mb: float) -> int:
    return max(1, int(mb * 1_000_000 / 140))  # about 140 bytes per record as written


def _write_catalog(root: Path, records: int, seed: int) -> None:
    rng = random.Random(seed)
    catalog = {
        f"item-{i:07d}": {
            "id": i,
            "price": round(rng.random() * 100, 2),
            "stock": rng.randrange(1000),
            "tags": ["a", "b"],
        }
        for i in range(records)
    }
    path = root / GENERATED
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(catalog, indent=2) + "\n")


def _long_lines(n: int) -> dict[str, str]:
    """Hand-written files, each with lines of about ``n`` characters of the kinds real trees hold."""
    blob = base64.b64encode(random.Random(0).randbytes(n * 3 // 4)).decode()
    hexes = random.Random(1).randbytes(n // 2).hex()
    names = '"a", ' * (n // 5)
    return {
        "app/fixtures.py": f'LOGO = "{blob}"\nDIGEST = bytes.fromhex("{hexes}")\nNAMES = [{names}]\n',
        "README.md": f"![logo](data:image/png;base64,{blob})\n\nSee `" + "a_b " * (n // 4) + "`.\n",
        "web/app.min.js": "function a(b){return b+1};" * (n // 26) + "\n",
        "CHANGES.md": "- Faster " + "startup " * (n // 8) + "(" + ", ".join(f"#{i}" for i in range(n // 6)) + ")\n",
        "docs/index.rst": "See :func:`" + "a.b" * (n // 3) + "` and [" + "[" * n + "\n",
    }


def _write_long_lines(root: Path, n: int, before: bool) -> None:
    for name, text in _long_lines(n).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("start\n" if before else "start\n" + text)


def fresh_copy(root: Path, where: Path) -> Path:
    """The dirty tree as built, with its repository, at ``where`` (replacing what was there)."""
    if where.exists():
        shutil.rmtree(where)
    shutil.copytree(root, where, symlinks=True)
    shutil.rmtree(where / ".git" / "segmint", ignore_errors=True)  # no session yet, as built
    return where


def measure(argv: list[str], root: Path) -> Measure:
    """Wall time and peak resident memory of one run of ``argv`` in ``root``."""
    command = [*segmint_command(), *argv[1:]] if argv[0] == "segmint" else argv
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    error = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
    if proc.returncode != 0:
        raise SegmintError(f"{' '.join(argv)} failed in the benchmark tree ({proc.returncode}): {error[:300]}")
    return Measure(seconds, usage.ru_maxrss / 1024)  # ru_maxrss is in KiB on Linux


def generated_kept_whole(root: Path) -> bool:
    """Whether ``segmint group`` keeps the generated file whole (one change, no hunks of its own)
    in one group holding nothing else."""
    out = subprocess.run([*segmint_command(), "group", "--json"], cwd=root, capture_output=True, check=True).stdout
    data = json.loads(out)
    change = next(c for c in data["changes"] if c["file_path"] == GENERATED)
    holding = [g for g in data["groups"] if change["id"] in g["change_ids"]]
    return (
        not change["hunks"]
        and len(holding) == 1
        and holding[0]["change_ids"] == [change["id"]]
        and not holding[0]["hunk_ids"]
    )


def _summary(samples: list[Measure]) -> dict:
    seconds = sorted(m.seconds for m in samples)
    return {
        "seconds": round(seconds[len(seconds) // 2], 3),
        "seconds_max": round(seconds[-1], 3),
        "mb": round(max(m.mb for m in samples), 1),
    }


def _table(rows: dict[str, dict], args: argparse.Namespace, whole: bool | None) -> str:
    tree = (
        f"hand-written files gaining lines of {args.long_lines:,} characters"
        if args.long_lines
        else f"a {args.mb:g} MB generated file regenerated"
    )
    lines = [
        f"{tree} plus a one-line fix; medians of {args.repeat} runs",
        "",
        f"{'step':<24}{'seconds':>9}{'max s':>8}{'peak MB':>9}   target",
    ]
    for step in STEPS:
        row = rows[step.name]
        target = ""
        if step.target_seconds is not None:
            met = row["seconds_max"] <= step.target_seconds and row["mb"] <= (step.target_mb or float("inf"))
            memory = f", <= {step.target_mb:g} MB" if step.target_mb else ""
            target = f"<= {step.target_seconds:g} s{memory}: {'met' if met else 'NOT met'}"
        lines.append(f"{step.name:<24}{row['seconds']:>9.3f}{row['seconds_max']:>8.3f}{row['mb']:>9.1f}   {target}")
    if whole is not None:
        lines += ["", f"generated file in one group of its own: {'yes' if whole else 'NO'}"]
    return "\n".join(lines)
