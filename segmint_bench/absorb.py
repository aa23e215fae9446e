"""``segmint bench absorb``: Segmint's absorb beside git-absorb, on fixes taken out of real commits.

A case is a branch of 5 consecutive commits of a real history, remade with one
or two hunks taken out of one or two of them (each later commit replayed on top,
as cherry-pick does); the taken hunks are left in the working tree as the fixes,
and the truth is the commit each came from. The commit before the branch is the
base: a remote-tracking ref points at it (Segmint's bound) and git-absorb gets it
as ``--base``; git-absorb gets the fixes staged, as it needs, and ``--force``, as
the commits are by several authors. Each taken hunk is scored, for each tool,
placed right (all its lines into its commit), placed wrong (some into another
commit) or left alone.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from segmint_bench import BenchReport
from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.rewrite.absorb import place, run_splits
from segmint_core.session.units import Units

BRANCH = 5
RIGHT, LEFT, WRONG = "placed right", "left alone", "placed wrong"
MAX_HUNK_LINES = 30


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "absorb",
        description="Take one or two hunks out of one or two of 5 consecutive real commits, leave them in the "
        "working tree, and score where Segmint's absorb and git-absorb put each one.",
    )
    p.add_argument("repos", metavar="REPO", nargs="+", help="git repositories or bundles (cloned, never touched)")
    p.add_argument("--cases", type=int, default=8, help="cases per repository (default 8)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=run)


@dataclass(frozen=True)
class Taken:
    path: str
    commit: str  # the commit it was taken from: the truth
    removed: tuple[str, ...]
    added: tuple[str, ...]
    patch: bytes  # the hunk, as a patch of that commit


@dataclass
class Tally:
    counts: Counter = field(default_factory=Counter)

    def add(self, verdict: str) -> None:
        self.counts[verdict] += 1

    def share(self, verdict: str) -> float:
        total = sum(self.counts.values())
        return self.counts[verdict] / total if total else 0.0


def run(args: argparse.Namespace) -> BenchReport:
    if subprocess.run(["git", "absorb", "--version"], capture_output=True).returncode != 0:
        raise SystemExit("segmint bench absorb needs git-absorb (Debian: apt-get install git-absorb)")
    rng = random.Random(args.seed)
    tallies = {"segmint": Tally(), "git-absorb": Tally()}
    per_repo: dict[str, dict[str, Counter]] = {}
    cases = 0
    with tempfile.TemporaryDirectory(prefix="segmint-bench-absorb-") as tmp:
        for source in args.repos:
            name = Path(source).name.removesuffix(".bundle")
            repo = _clone(source, Path(tmp) / name)
            per_repo[name] = {"segmint": Counter(), "git-absorb": Counter()}
            for taken in _cases(repo, rng, args.cases):
                verdicts = _score_case(repo, taken)
                if verdicts is None:
                    continue
                cases += 1
                for tool, found in verdicts.items():
                    for verdict in found:
                        tallies[tool].add(verdict)
                        per_repo[name][tool][verdict] += 1
    figures = {
        "cases": cases,
        "hunks": sum(tallies["segmint"].counts.values()),
        "tools": {tool: {v: t.counts[v] for v in (RIGHT, LEFT, WRONG)} for tool, t in tallies.items()},
        "repos": {r: {tool: dict(c) for tool, c in tools.items()} for r, tools in per_repo.items()},
    }
    return BenchReport(figures, _table(tallies, per_repo, cases))


def _table(tallies: dict[str, Tally], per_repo: dict[str, dict[str, Counter]], cases: int) -> str:
    hunks = sum(tallies["segmint"].counts.values())
    lines = [
        f"absorb: {cases} cases, {hunks} fixes taken out of 5-commit branches of real histories",
        f"{'tool':<12}{RIGHT:>14}{LEFT:>14}{WRONG:>14}",
    ]
    for tool, tally in tallies.items():
        lines.append(
            f"{tool:<12}" + "".join(f"{tally.counts[v]:>7} {tally.share(v):>5.0%}" for v in (RIGHT, LEFT, WRONG))
        )
    lines.append("")
    lines.append(
        f"{'repository':<26}" + "".join(f"{t + ' ' + v.split()[0]:>20}" for t in tallies for v in (RIGHT, WRONG))
    )
    for name, tools in per_repo.items():
        lines.append(f"{name:<26}" + "".join(f"{tools[t][v]:>20}" for t in tallies for v in (RIGHT, WRONG)))
    return "\n".join(lines)


# -- making cases ------------------------------------------------------------------


def _git(repo: Path, *args: str, input: bytes | None = None, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(["git", "-C", str(repo), *args], input=input, capture_output=True)
    if check and done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.decode(errors='replace')}")
    return done


def _clone(source: str, into: Path) -> Path:
    subprocess.run(["git", "clone", "-q", source, str(into)], check=True, capture_output=True)
    for key, value in (
        ("user.name", "Segmint Bench"),
        ("user.email", "bench@example.invalid"),
        ("commit.gpgsign", "false"),
        ("core.autocrlf", "false"),
    ):
        _git(into, "config", key, value)
    for ref in _git(into, "for-each-ref", "--format=%(refname)", "refs/remotes").stdout.decode().split():
        _git(into, "update-ref", "-d", ref)
    return into


def _cases(repo: Path, rng: random.Random, n: int):
    """Up to ``n`` cases: (the base, the branch's commits, the hunks taken)."""
    log = _git(repo, "log", "--first-parent", "--format=%H %P", "HEAD").stdout.decode().splitlines()
    rows = [line.split() for line in log]
    windows = [i for i in range(len(rows) - BRANCH) if all(len(rows[j]) == 2 for j in range(i, i + BRANCH + 1))]
    rng.shuffle(windows)
    made = 0
    for start in windows:
        if made >= n:
            return
        branch = [rows[j][0] for j in range(start + BRANCH - 1, start - 1, -1)]  # oldest first
        base = rows[start + BRANCH - 1][1]
        taken = _take(repo, rng, branch)
        if taken and _build(repo, base, branch, taken):
            made += 1
            yield base, branch, taken


def _take(repo: Path, rng: random.Random, branch: list[str]) -> list[Taken]:
    shape = rng.choice(["one", "two-in-one", "one-each-in-two"])
    commits = rng.sample(branch, 2 if shape == "one-each-in-two" else 1)
    taken: list[Taken] = []
    for commit in commits:
        hunks = _hunks(repo, commit)
        want = 2 if shape == "two-in-one" else 1
        if len(hunks) < want:
            return []
        taken.extend(rng.sample(hunks, want))
    return taken


def _hunks(repo: Path, commit: str) -> list[Taken]:
    """The commit's hunks that edit a text file already there, small enough to be a fix."""
    diff = _git(repo, "diff", "--no-color", "--no-ext-diff", "--no-renames", f"{commit}^", commit).stdout
    found = []
    for section in re.split(rb"(?m)^(?=diff --git )", diff):
        if (
            not section.startswith(b"diff --git ")
            or b"\nnew file mode" in section
            or b"\ndeleted file" in section
            or b"\nBinary files" in section
            or b"\nold mode" in section
            or b"160000" in section.split(b"@@")[0]
            or b"Subproject commit" in section
        ):
            continue
        head, _, body = section.partition(b"\n@@")
        if not body:
            continue
        path_line = next((line for line in head.split(b"\n") if line.startswith(b"+++ b/")), None)
        if path_line is None:
            continue
        path = path_line[6:].decode("utf-8", "surrogateescape")
        for hunk in re.split(rb"(?m)^(?=@@)", b"@@" + body):
            lines = hunk.rstrip(b"\n").split(b"\n")[1:]
            removed = tuple(line[1:].decode("utf-8", "replace") for line in lines if line.startswith(b"-"))
            added = tuple(line[1:].decode("utf-8", "replace") for line in lines if line.startswith(b"+"))
            if not hunk.startswith(b"@@") or not (removed or added) or len(removed) + len(added) > MAX_HUNK_LINES:
                continue
            patch = head + b"\n" + hunk if hunk.endswith(b"\n") else head + b"\n" + hunk + b"\n"
            found.append(Taken(path, commit, removed, added, patch))
    return found


def _build(repo: Path, base: str, branch: list[str], taken: list[Taken]) -> bool:
    """The branch remade without the taken hunks, its tip checked out, the last commit's files in the
    working tree; False when a later commit does not replay (it built on a taken hunk)."""
    _git(repo, "reset", "-q", "--hard")
    _git(repo, "clean", "-fdq")
    _git(repo, "checkout", "-q", "-f", "-B", "case", base)
    for commit in branch:
        if _git(repo, "cherry-pick", "--no-commit", "--allow-empty", commit, check=False).returncode != 0:
            _git(repo, "cherry-pick", "--abort", check=False)
            _git(repo, "reset", "-q", "--hard")
            return False
        for item in taken:
            if (
                item.commit == commit
                and _git(repo, "apply", "-R", "--index", input=item.patch, check=False).returncode != 0
            ):
                _git(repo, "reset", "-q", "--hard")
                return False
        if _git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-C", commit, check=False).returncode != 0:
            return False
    _git(repo, "update-ref", "refs/remotes/origin/base", base)
    tip = branch[-1]
    paths = sorted({t.path for t in taken})
    for path in paths:
        (repo / path).write_bytes(_git(repo, "show", f"{tip}:{path}").stdout)
    changed = _git(repo, "diff", "--name-only", "HEAD").stdout.decode().split("\n")
    return [p for p in changed if p] == paths


# -- scoring --------------------------------------------------------------------------


def _score_case(repo: Path, case) -> dict[str, list[str]] | None:
    base, branch, taken = case
    subjects = {_git(repo, "log", "-1", "--format=%s", c).stdout.decode().strip(): c for c in branch}
    rewritten = _git(repo, "rev-list", "--reverse", f"{base}..HEAD").stdout.decode().split()
    by_original = dict(zip(branch, rewritten))
    verdicts = {
        "segmint": _segmint(repo, taken, by_original),
        "git-absorb": _git_absorb(repo, taken, base, subjects, by_original),
    }
    return verdicts


def _segmint(repo: Path, taken: list[Taken], by_original: dict[str, str]) -> list[str]:
    git = Git(str(repo))
    units = Units(capture(git), {})
    units = Units(units.changeset, run_splits(units))
    placed = []
    for placement in place(git, units):
        unit = units.by_id[placement.unit_id]
        lines = unit.changed_lines
        placed.append(
            (
                placement.path,
                [line[1:] for line in lines if line.startswith("-")],
                [line[1:] for line in lines if line.startswith("+")],
                placement.target.sha if placement.target else None,
            )
        )
    return [_verdict(item, by_original[item.commit], placed) for item in taken]


def _git_absorb(
    repo: Path, taken: list[Taken], base: str, subjects: dict[str, str], by_original: dict[str, str]
) -> list[str]:
    head = _git(repo, "rev-parse", "HEAD").stdout.decode().strip()
    _git(repo, "add", "-u")
    _git(repo, "absorb", "--base", base, "--force", check=False)
    fixups = _git(repo, "log", "--reverse", "--format=%H%x00%s", f"{head}..HEAD").stdout.decode().splitlines()
    placed = []
    for row in fixups:
        sha, _, subject = row.partition("\0")
        target_subject = subject.removeprefix("fixup! ")
        original = subjects.get(target_subject)
        target = by_original.get(original) if original else _by_prefix(by_original, target_subject)
        diff = _git(repo, "show", "--format=", "--no-color", "-U0", sha).stdout.decode("utf-8", "replace")
        for path, removed, added in _diff_files(diff):
            placed.append((path, removed, added, target or "elsewhere"))
    left = _diff_files(_git(repo, "diff", "--no-color", "-U0", "HEAD").stdout.decode("utf-8", "replace"))
    placed.extend((path, removed, added, None) for path, removed, added in left)
    _git(repo, "reset", "-q", "--hard", head)
    return [_verdict(item, by_original[item.commit], placed) for item in taken]


def _by_prefix(by_original: dict[str, str], text: str) -> str | None:
    return next((new for new in by_original.values() if text and new.startswith(text)), None)


def _diff_files(diff: str) -> list[tuple[str, list[str], list[str]]]:
    files = []
    for section in re.split(r"(?m)^(?=diff --git )", diff):
        path = next((line[6:] for line in section.split("\n") if line.startswith("+++ b/")), None)
        if path is None:
            continue
        for hunk in re.split(r"(?m)^(?=@@)", section)[1:]:
            lines = hunk.split("\n")[1:]
            files.append(
                (
                    path,
                    [line[1:] for line in lines if line.startswith("-")],
                    [line[1:] for line in lines if line.startswith("+")],
                )
            )
    return files


def _verdict(item: Taken, truth: str, placed: list[tuple[str, list[str], list[str], str | None]]) -> str:
    """Right when every piece holding the taken hunk's lines went to its commit; wrong when one went to
    another; left alone otherwise."""
    mine = [
        (target, removed, added)
        for path, removed, added, target in placed
        if path == item.path and _overlaps(item, removed, added)
    ]
    if any(target not in (None, truth) for target, _, _ in mine):
        return WRONG
    if mine and all(target == truth for target, _, _ in mine):
        return RIGHT
    return LEFT


def _overlaps(item: Taken, removed: list[str], added: list[str]) -> bool:
    want = Counter(("-", line) for line in item.removed) + Counter(("+", line) for line in item.added)
    have = Counter(("-", line) for line in removed) + Counter(("+", line) for line in added)
    return sum((want & have).values()) > 0
