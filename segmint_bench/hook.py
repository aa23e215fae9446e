"""``segmint bench hook [REPO]``: a coding agent's wait on ``segmint hook``, beside ``git status``.

Each event is the whole ``segmint hook claude-code`` process (start-up, the
snapshot of the edited file, the provenance write) fed a ``PostToolUse`` Edit
payload after one file was changed; the reference is a whole ``git status``
process on the same repository, taken in turns with the events. A prompt
(``UserPromptSubmit``, which also snapshots the files changed by hand) is
timed the same way. Beside the wall times, the CPU time each run used (its
children included) says what it costs on a busy machine. The events run in a temporary folder: a clone of REPO, or
a repository of ``--files`` files built there, a few of them already changed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import tempfile
import time
from pathlib import Path

from segmint_bench import BenchReport
from segmint_bench.changes import init_repo, segmint_command
from segmint_bench.timing import Timing, progress
from segmint_core.errors import SegmintError
from segmint_core.git import Git

TARGET_SECONDS = 0.100  # issue 36: median per PostToolUse Edit event in a 1,000-file repository
DIRTY_FILES = 20  # changed before the agent starts, as a tree mid-work is


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "hook",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument(
        "repo",
        nargs="?",
        metavar="REPO",
        help="an existing repository, cloned to a temporary folder and edited there (default: a synthetic one)",
    )
    p.add_argument("--files", type=int, default=1000, help="files in the synthetic repository (default 1000)")
    p.add_argument("--events", type=int, default=40, help="edit events timed (default 40)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    if args.files < 1 or args.events < 1:
        raise SegmintError("--files and --events must be at least 1")
    with tempfile.TemporaryDirectory(prefix="segmint-bench-hook-") as tmp:
        root = clone(args.repo, Path(tmp) / "repo") if args.repo else str(build_repo(Path(tmp) / "repo", args.files))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        files = _tracked_files(root)
        timings = _time_events(root, files, args.events, env)
        tracked = len(files)
    edits, prompts, status = timings["edit"], timings["prompt"], timings["status"]
    edits_cpu, status_cpu = timings["edit_cpu"], timings["status_cpu"]
    figures = {
        "files": tracked,
        "events": args.events,
        "edit_event_seconds": round(edits.median, 4),
        "edit_event_p90_seconds": round(edits.p90, 4),
        "prompt_event_seconds": round(prompts.median, 4),
        "git_status_seconds": round(status.median, 4),
        "edit_event_cpu_seconds": round(edits_cpu.median, 4),
        "git_status_cpu_seconds": round(status_cpu.median, 4),
        "ratio_to_git_status": round(edits.median / status.median, 2),
        "target_seconds": TARGET_SECONDS,
        "met": edits.median <= TARGET_SECONDS,
    }
    verdict = "met" if figures["met"] else "NOT met"
    return BenchReport(
        figures,
        "\n".join(
            [
                f"repository                  {tracked:,} files",
                f"segmint hook (Edit event)   {edits.median * 1000:.1f} ms median of {args.events}, "
                f"p90 {edits.p90 * 1000:.1f} ms (target <= {TARGET_SECONDS * 1000:.0f} ms: {verdict})",
                f"segmint hook (prompt)       {prompts.median * 1000:.1f} ms median of {len(prompts.samples)}",
                f"git status (reference)      {status.median * 1000:.1f} ms median of {args.events}",
                f"ratio                       {figures['ratio_to_git_status']:.2f}x git status "
                "(whole processes, taken in turns)",
                f"CPU per run (user+sys)      segmint hook {edits_cpu.median * 1000:.1f} ms, "
                f"git status {status_cpu.median * 1000:.1f} ms (medians; what a run costs whatever else runs)",
            ]
        ),
    )


def _time_events(root: str, files: list[str], events: int, env: dict[str, str]) -> dict[str, Timing]:
    """Wall and CPU times of the prompt events, the edit events and ``git status``."""
    hook = [*segmint_command(), "hook", "claude-code"]
    runs: dict[str, list[tuple[float, float]]] = {"prompt": [], "edit": [], "status": []}
    progress(f"timing {events} edit events in a repository of {len(files):,} files ...")
    for n in range(3):
        prompt = _payload("UserPromptSubmit", root, prompt=f"Bench task {n}: make every module say hello")
        runs["prompt"].append(_timed(hook, root, env, prompt))
    _timed(hook, root, env, _edit_payload(root, files[0]), edit=files[0])  # (a warm-up, not counted)
    for n in range(events):
        rel = files[1 + n % (len(files) - 1)] if len(files) > 1 else files[0]
        runs["edit"].append(_timed(hook, root, env, _edit_payload(root, rel), edit=rel))
        runs["status"].append(_timed(["git", "status"], root, env, None))
    timings = {name: Timing([wall for wall, _ in samples]) for name, samples in runs.items()}
    timings.update({f"{name}_cpu": Timing([cpu for _, cpu in samples]) for name, samples in runs.items()})
    return timings


def _timed(
    command: list[str], root: str, env: dict[str, str], payload: dict | None, *, edit: str | None = None
) -> tuple[float, float]:
    if edit is not None:  # the agent's edit, before its hook runs: not timed
        with open(os.path.join(root, edit), "a", encoding="utf-8") as f:
            f.write(f"# edited at {time.time()}\n")
    data = None if payload is None else json.dumps(payload).encode()
    cpu_before = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=env, input=data, capture_output=True)
    elapsed = time.perf_counter() - start
    cpu = _children_cpu() - cpu_before
    if done.returncode != 0 or (payload is not None and done.stderr):
        raise SegmintError(
            f"{' '.join(command)} failed while timing: "
            f"{(done.stderr.decode(errors='replace').strip() or f'exit {done.returncode}')}"
        )
    return elapsed, cpu


def _children_cpu() -> float:
    """User and system time of the finished child processes (theirs included): what a run costs the
    machine, whatever else runs on it."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _payload(event: str, root: str, **fields: object) -> dict:
    """A Claude Code hook payload, in the shape of its hooks reference."""
    return {
        "session_id": "bench-session",
        "transcript_path": os.path.join(root, ".bench-transcript.jsonl"),
        "cwd": root,
        "permission_mode": "default",
        "hook_event_name": event,
        **fields,
    }


def _edit_payload(root: str, rel: str) -> dict:
    path = os.path.join(root, rel)
    return _payload(
        "PostToolUse",
        root,
        tool_name="Edit",
        tool_input={"file_path": path, "old_string": "", "new_string": "# edited\n", "replace_all": False},
        tool_response={"filePath": path, "success": True},
        tool_use_id="toolu_bench",
    )


def clone(repo: str, into: Path) -> str:
    """A clone of ``repo`` to edit and record in: the person's own tree and record stay as they are."""
    source = Git.discover(repo).root
    progress(f"cloning {source} ...")
    subprocess.run(["git", "clone", "-q", "--no-checkout", source, str(into)], check=True)
    Git(str(into)).run("checkout", "-q", "HEAD", "--", ".")
    return str(into)


def _tracked_files(root: str) -> list[str]:
    out = Git(root).run("ls-files", "-z").stdout
    files = [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]
    if not files:
        raise SegmintError(f"{root} tracks no file to edit.")
    return files


def build_repo(root: Path, files: int) -> Path:
    """A repository of ``files`` Python files of 60 lines in 25 folders, a few already changed."""
    progress(f"building a repository of {files:,} files ...")
    git = init_repo(root)
    for n in range(files):
        path = root / f"pkg_{n % 25:02d}" / f"module_{n:04d}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text("".join(f"def function_{n}_{i}(value):\n    return value + {i}\n\n" for i in range(20)))
    git.run("add", "-A")
    git.run("commit", "-q", "-m", "base")
    for n in range(0, files, max(1, files // DIRTY_FILES)):
        with open(root / f"pkg_{n % 25:02d}" / f"module_{n:04d}.py", "a", encoding="utf-8") as f:
            f.write("# changed by hand\n")
    return root
