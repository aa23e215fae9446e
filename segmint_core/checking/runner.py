"""Running the check over the open plans: trees, cache, scratch trees, workers, progress.

Results are kept by the check and the commit's tree (the zero-config check's
also by the tree before it and the final one, as it reads the difference), in
``.git/segmint/check/results.json``: checking again after an edit runs only
what the edit changed. A command runs for several commits at once, one scratch
tree per worker, as many workers as cores; each worker takes a run of
consecutive commits, so its tree changes by one commit's files at a time.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from segmint_core.atomic import write_atomic
from segmint_core.checking.command import CheckCommand, Ran, run_command
from segmint_core.checking.models import FAILED, PASSED, ZERO_CONFIG, CheckReport, CheckResult, PlanSpec, SessionView
from segmint_core.checking.scratch import ScratchTree, check_folder, sweep
from segmint_core.checking.trees import CommitTree, commit_trees

Progress = Callable[[int, int, CheckResult], None]
CACHE = "results.json"
CACHE_KEPT = 2000


def run_check(
    view: SessionView,
    command: CheckCommand | None,
    specs: list[PlanSpec],
    *,
    progress: Progress | None = None,
    jobs: int | None = None,
) -> CheckReport:
    """Check each commit of ``specs`` on its own."""
    begin = time.monotonic()
    folder = check_folder(view.git)
    sweep(folder)
    trees = commit_trees(view, specs, str(folder))
    cache = _Cache(folder)
    if command is None:
        results = _zero_config(view, trees, folder, cache)
    else:
        results = _commands(view, trees, command, folder, cache, progress, jobs)
    cache.save()
    report = CheckReport(ZERO_CONFIG if command is None else command.text, results, time.monotonic() - begin)
    if command is None and progress is not None:
        for n, result in enumerate(results, 1):
            progress(n, len(results), result)
    return report


def _zero_config(view: SessionView, trees: list[CommitTree], folder: Path, cache: "_Cache") -> list[CheckResult]:
    from segmint_core.checking import static  # reads grouping's units: loaded only when checking

    final = next((t.tree for t in reversed(trees) if t.tree), "")
    keys = [f"{ZERO_CONFIG}:{t.parent}:{t.tree}:{final}" if t.tree else None for t in trees]
    known = [cache.get(k, t.spec.id) if k else None for k, t in zip(keys, trees)]
    if all(r is not None for r, t in zip(known, trees) if t.tree):
        return [
            r if r is not None else CheckResult(t.spec.id, FAILED, ZERO_CONFIG, None, t.error)
            for r, t in zip(known, trees)
        ]
    results = static.check_all(view, trees, folder)
    for key, result in zip(keys, results):
        if key:
            cache.put(key, result)
    return results


def _commands(
    view: SessionView,
    trees: list[CommitTree],
    command: CheckCommand,
    folder: Path,
    cache: "_Cache",
    progress: Progress | None,
    jobs: int | None,
) -> list[CheckResult]:
    label = hashlib.sha256(command.text.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    results: dict[int, CheckResult] = {}
    todo: list[int] = []
    for n, tree in enumerate(trees):
        if tree.tree is None:
            results[n] = CheckResult(tree.spec.id, FAILED, command.text, None, tree.error)
            continue
        hit = cache.get(f"{label}:{tree.tree}", tree.spec.id)
        if hit is not None:
            results[n] = hit
        else:
            todo.append(n)
    lock = threading.Lock()
    done = [0]
    for n in sorted(results):
        done[0] += 1
        if progress is not None:
            progress(done[0], len(trees), results[n])
    workers = max(1, min(jobs or os.cpu_count() or 1, len(todo)))
    runs = _runs(todo, workers)
    groups: dict[int, int] = {}
    stop = threading.Event()

    def work(number: int, run: list[int]) -> None:
        with ScratchTree(view.git, folder, number) as scratch:
            for n in run:
                if stop.is_set():
                    return
                tree = trees[n]
                assert tree.tree is not None  # a commit that cannot be built is failed above, never run
                scratch.show(tree.tree)

                def started(pgid: int | None) -> None:
                    scratch.running(pgid)
                    with lock:  # (the same lock as the stop: a command started as the check stops is ended)
                        if pgid is None:
                            groups.pop(number, None)
                        elif stop.is_set():
                            _end(pgid)
                        else:
                            groups[number] = pgid

                ran = run_command(
                    command,
                    scratch.path,
                    {"SEGMINT_CHECK_COMMIT": tree.spec.id, "SEGMINT_CHECK_TREE": tree.tree or ""},
                    started,
                )
                result = _result(tree, command, ran)
                with lock:
                    results[n] = result
                    cache.put(f"{label}:{tree.tree}", result)
                    done[0] += 1
                    if progress is not None:
                        progress(done[0], len(trees), result)

    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="segmint-check")
    try:
        futures = [pool.submit(work, number, run) for number, run in enumerate(runs) if run]
        for future in futures:
            future.result()
    except BaseException:
        with lock:
            stop.set()
            for pgid in groups.values():
                _end(pgid)
        raise
    finally:
        pool.shutdown(wait=True)
    return [results[n] for n in range(len(trees))]


def _end(pgid: int) -> None:
    import signal

    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _runs(todo: list[int], workers: int) -> list[list[int]]:
    """``todo`` cut into ``workers`` runs of consecutive commits, as even as can be."""
    size, extra = divmod(len(todo), workers)
    out, start = [], 0
    for w in range(workers):
        end = start + size + (1 if w < extra else 0)
        out.append(todo[start:end])
        start = end
    return out


def _result(tree: CommitTree, command: CheckCommand, ran: Ran) -> CheckResult:
    if ran.ok:
        return CheckResult(tree.spec.id, PASSED, command.text, tree.tree, "", seconds=ran.seconds)
    return CheckResult(tree.spec.id, FAILED, command.text, tree.tree, ran.output or "(no output)", seconds=ran.seconds)


class _Cache:
    """Check results by key, kept between runs."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / CACHE
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        self.data: dict[str, dict] = data if isinstance(data, dict) else {}
        self.changed = False

    def get(self, key: str, commit_id: str) -> CheckResult | None:
        found = self.data.get(key)
        if not isinstance(found, dict):
            return None
        try:
            result = CheckResult.from_dict({**found, "commit_id": commit_id, "cached": True})
        except TypeError:
            return None
        if result.needs:
            return None  # names other commits by id: worked out afresh
        return result

    def put(self, key: str, result: CheckResult) -> None:
        self.data.pop(key, None)
        self.data[key] = {**result.to_dict(), "cached": False}
        self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        kept = dict(list(self.data.items())[-CACHE_KEPT:])
        try:
            write_atomic(self.path, json.dumps(kept).encode())
        except OSError:
            pass  # a cache: the next check works it out again
