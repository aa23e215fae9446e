"""``segmint bench scale``: grouping a tree of many files, each with a one-line edit.

A temporary repository holds N modules in folders of 20, each edited on one
line: the same edit in every file (``same``), or each file's own (``unique``).
Each size and kind of edit is grouped by the real command (process start
included, no saved session) beside ``git diff`` of the same tree, and the run
prints wall time, CPU time and peak memory of each, then how memory grew from
the smallest tree to the largest against how the files grew. On the smallest
tree ``segmint plan`` and the terminal UI's first frame are timed too, each
against grouping. Wall time on a busy machine is mostly its load: the CPU
time beside it is what the command itself spent.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from segmint_bench import BenchReport
from segmint_bench.changes import init_repo, segmint_command
from segmint_bench.timing import progress
from segmint_core.errors import SegmintError

VARIANTS = ("same", "unique")
FOLDER_FILES = 20
# Targets (issue 34): seconds and MB per size; plan and the TUI's first frame within 2x of grouping.
TARGETS = {10_000: (5.0, 500.0), 50_000: (30.0, 2048.0)}
WITHIN_GROUPING = 2.0
COARSE = "grouped on coarser evidence"  # what each group of a tree past the full size says


@dataclass(frozen=True)
class Run:
    seconds: float  # wall
    cpu: float  # user + system, the command's and its children's
    mb: float  # peak resident memory


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "scale",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument(
        "--files", type=int, nargs="+", default=[10_000, 50_000], help="changed files per tree (default 10000 50000)"
    )
    p.add_argument(
        "--variant",
        choices=VARIANTS,
        nargs="+",
        default=list(VARIANTS),
        help="the same edit in every file, or each file's own (default both)",
    )
    p.add_argument("--no-plan", action="store_true", help="skip timing plan and the TUI on the smallest tree")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    sizes = sorted(set(args.files))
    if sizes[0] < 2:
        raise SegmintError("--files must be at least 2")
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="segmint-bench-scale-") as tmp:
        for variant in args.variant:
            for files in sizes:
                root = build_in_child(Path(tmp) / f"{variant}-{files}", files, variant)
                rows += measure_tree(root, files, variant, with_plan=files == sizes[0] and not args.no_plan)
                shutil.rmtree(root)
    growth = [memory_growth(rows, variant, sizes) for variant in args.variant] if len(sizes) > 1 else []
    figures = {"rows": rows, "growth": growth, "load_average": round(os.getloadavg()[0], 1)}
    return BenchReport(figures, table(rows, growth, figures["load_average"]))


def measure_tree(root: Path, files: int, variant: str, with_plan: bool) -> list[dict]:
    """The reference and grouping on ``root`` (and plan and the TUI's first frame), as table rows."""
    progress(f"{variant} edits in {files:,} files: timing git diff and segmint group ...")
    reference = measure(["git", "diff"], root)
    out = root.parent / "group.txt"
    grouped = measure(["segmint", "group", "--new"], root, fresh=True, stdout=out)
    coarse = COARSE in out.read_text(encoding="utf-8", errors="replace")
    out.unlink()
    seconds, mb = TARGETS.get(files, (None, None))
    base = {"files": files, "variant": variant}
    rows = [
        {**base, "step": "git diff (reference)", **vars(reference)},
        {**base, "step": "segmint group", **vars(grouped), "coarse": coarse, "target": _target(grouped, seconds, mb)},
    ]
    if with_plan:
        progress(f"{variant} edits in {files:,} files: timing segmint plan and the TUI's first frame ...")
        planned = measure(["segmint", "plan"], root, fresh=True)
        rows.append(
            {**base, "step": "segmint plan", **vars(planned), "target": _within(planned.seconds, grouped.seconds)}
        )
        frame = first_frame(root)
        rows.append(
            {
                **base,
                "step": "TUI first frame",
                "seconds": frame,
                "cpu": None,
                "mb": None,
                "target": _within(frame, grouped.seconds) if frame is not None else None,
            }
        )
    return rows


def _target(measured: Run, seconds: float | None, mb: float | None) -> dict | None:
    if seconds is None or mb is None:
        return None
    return {
        "text": f"<= {seconds:g} s, <= {mb:g} MB",
        "met": measured.seconds <= seconds and measured.mb <= mb,
        "met_on_cpu": measured.cpu <= seconds and measured.mb <= mb,
    }


def _within(seconds: float, grouping: float) -> dict:
    return {
        "text": f"<= {WITHIN_GROUPING:g}x group ({seconds / grouping:.2f}x)",
        "met": seconds <= WITHIN_GROUPING * grouping,
    }


def memory_growth(rows: list[dict], variant: str, sizes: list[int]) -> dict:
    """Peak memory of grouping the largest tree over the smallest's, beside the files' ratio."""
    peak = {r["files"]: r["mb"] for r in rows if r["variant"] == variant and r["step"] == "segmint group"}
    small, large = sizes[0], sizes[-1]
    memory, files = peak[large] / peak[small], large / small
    return {
        "variant": variant,
        "from": small,
        "to": large,
        "memory_ratio": round(memory, 2),
        "file_ratio": round(files, 2),
        "linear": memory <= files,
    }


def build_in_child(root: Path, files: int, variant: str) -> Path:
    """``build_repo`` in a process of its own, so this one stays small (a child's peak memory
    starts from its parent's at the fork)."""
    progress(f"building a repository of {files:,} files with {variant} one-line edits ...")
    code = (
        "from pathlib import Path; from segmint_bench.scale import build_repo; "
        f"build_repo(Path({str(root)!r}), {files!r}, {variant!r})"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    return root


def build_repo(root: Path, files: int, variant: str) -> Path:
    """``files`` modules committed, then each edited on one line (the same edit, or its own)."""
    root.mkdir(parents=True)
    git = init_repo(root)
    paths = [root / f"pkg{i // FOLDER_FILES:04d}" / f"mod{i:05d}.py" for i in range(files)]
    for i, path in enumerate(paths):
        path.parent.mkdir(exist_ok=True)
        path.write_text(module(i, variant, edited=False))
    git.run("add", "-A")
    git.run("commit", "-q", "-m", "base")
    for i, path in enumerate(paths):
        path.write_text(module(i, variant, edited=True))
    return root


def module(i: int, variant: str, edited: bool) -> str:
    if variant == "same":
        limit = 60 if edited else 30
    else:
        limit = i + 1 if edited else i
    return f'"""Module {i}."""\n\n\ndef handle_{i}(value):\n    limit = {limit}\n    return min(value, limit)\n'


def measure(argv: list[str], root: Path, *, fresh: bool = False, stdout: Path | None = None) -> Run:
    """Wall time, CPU time and peak resident memory of one run of ``argv`` in ``root``;
    ``fresh``: with no saved session, as on a tree never grouped."""
    if fresh:
        shutil.rmtree(root / ".git" / "segmint", ignore_errors=True)
    command = [*segmint_command(), *argv[1:]] if argv[0] == "segmint" else argv
    with open(stdout or os.devnull, "wb") as sink, tempfile.TemporaryDirectory() as tmp:
        report, errors = Path(tmp) / "usage.json", Path(tmp) / "stderr"
        with open(errors, "wb") as err:
            subprocess.run(
                [sys.executable, "-I", "-S", "-c", _LAUNCHER, str(report), *command],
                cwd=root,
                stdout=sink,
                stderr=err,
                check=True,
            )
        seconds, status, cpu, peak = json.loads(report.read_text())
        if status != 0:
            reason = errors.read_text(errors="replace").strip()[-300:]
            raise SegmintError(f"{' '.join(argv)} failed in the benchmark tree ({status}): {reason}")
    return Run(round(seconds, 3), round(cpu, 3), round(peak / 1024, 1))


# Started small (no site, no imports beyond os), it starts the command and reads its usage.
# On Linux a process's peak memory starts from its parent's at the fork and is kept across
# exec: started from this process, every command would show at least this one's.
_LAUNCHER = """
import json, os, sys, time
start = time.perf_counter()
pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(sys.argv[1], "w") as out:
    json.dump([seconds, os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, usage.ru_maxrss], out)
"""


def first_frame(root: Path) -> float | None:
    """The TUI's first frame on the tree with no saved session, through ``segmint bench tui --on``."""
    shutil.rmtree(root / ".git" / "segmint", ignore_errors=True)
    command = [*segmint_command(), "bench", "tui", "--on", str(root), "--repeat", "1", "--json"]
    proc = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        return None
    return float(json.loads(proc.stdout)["first_frame_seconds"])


def table(rows: list[dict], growth: list[dict], load: float) -> str:
    lines = [
        f"N files, each edited on one line; one run each, load average {load:g} at the end",
        "",
        f"{'files':>7}  {'edits':<7}{'step':<22}{'wall s':>8}{'CPU s':>8}{'peak MB':>9}   target",
    ]
    for r in rows:
        cpu = f"{r['cpu']:>8.2f}" if r["cpu"] is not None else f"{'-':>8}"
        mb = f"{r['mb']:>9.1f}" if r["mb"] is not None else f"{'-':>9}"
        wall = f"{r['seconds']:>8.2f}" if r["seconds"] is not None else f"{'failed':>8}"
        lines.append(f"{r['files']:>7,}  {r['variant']:<7}{r['step']:<22}{wall}{cpu}{mb}   {_verdict(r)}")
    for g in growth:
        lines.append(
            f"peak memory of group, {g['to']:,} over {g['from']:,} files ({g['variant']} edits): "
            f"{g['memory_ratio']:.2f}x for {g['file_ratio']:.2f}x the files: "
            f"{'linear or better' if g['linear'] else 'FASTER than linear'}"
        )
    coarse = sorted({r["files"] for r in rows if r.get("coarse")})
    if coarse:
        lines.append(
            f"grouped on coarser evidence (said in every group's reasons): {', '.join(f'{n:,}' for n in coarse)} files"
        )
    return "\n".join(lines)


def _verdict(row: dict) -> str:
    target = row.get("target")
    if not target:
        return ""
    verdict = f"{target['text']}: {'met' if target['met'] else 'NOT met'}"
    if "met_on_cpu" in target and not target["met"]:
        verdict += f" (on CPU time: {'met' if target['met_on_cpu'] else 'NOT met'})"
    return verdict
