"""``segmint bench split``: splitting committed work, scored on ``bench untangle``'s cases.

Each case's k commits are squashed into one commit on a branch of a scratch
clone; ``segmint split HEAD``'s path (``Session.start_split``: the commit's
change laid out in a scratch work tree, grouped and planned) is scored line by
line against the commit that made each line, beside the working-tree grouping
of the same case as ``bench untangle`` scores it (its ``graph`` row). The
split is then applied (``apply --all``'s path) and the branch's new tip tree
compared with the original tip's: it must be byte-identical in every case.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from segmint_bench import BenchReport
from segmint_bench.timing import progress
from segmint_bench.untangle import add_selection_options, selections
from segmint_bench.untangle import labels as baseline
from segmint_bench.untangle.cache import Cache
from segmint_bench.untangle.corpus import Selection, Tangle, load_tangles, repo_name
from segmint_bench.untangle.metrics import Scores, score
from segmint_bench.untangle.workspace import Workspace
from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.grouping import group_changes
from segmint_core.wording import counted

WORK_TREE, SPLIT = "working tree (graph)", "split HEAD"


@dataclass(frozen=True)
class Way:
    """How each case is split: its commits squashed into one (the default), or as a range, as they
    are or recommitted at random into work-in-progress commits, read with ``--follow-commits`` or not."""

    ranges: bool = False
    wip: bool = False
    follow: bool = False

    @property
    def described(self) -> str:
        if not self.ranges:
            return "squashed into one"
        return f"{self.short} (split BASE..HEAD{' --follow-commits' if self.follow else ''})"

    @property
    def short(self) -> str:
        if not self.ranges:
            return "squashed"
        return "recommitted at random by file" if self.wip else "as they are"


BRANCH = "segmint-bench-split"
Log = Callable[[str], None]


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "split",
        description="Squash each case of `bench untangle` (k consecutive commits by one author) into one "
        "commit, split it as `segmint split HEAD` does, and score its groups beside the working-tree "
        "grouping of the same case; then apply the split and check the new tip tree is the original's.",
    )
    p.add_argument("repos", metavar="REPO", nargs="+", help="git repositories or bundles (cloned, never touched)")
    p.add_argument("--k", type=int, nargs="+", default=[1, 2, 3], help="commits squashed per case (default 1 2 3)")
    p.add_argument("--n", type=int, default=30, help="cases per repository and k (default 30)")
    p.add_argument("--provider", default="local", help="embedding provider for both rows (default local)")
    p.add_argument("--json", action="store_true", help="print every figure, per case too, as JSON")
    p.add_argument(
        "--ranges",
        action="store_true",
        help="split each case's k commits as they are (`segmint split BASE..HEAD`) instead of squashed",
    )
    p.add_argument(
        "--follow-commits",
        action="store_true",
        help="with --ranges: split as `segmint split --follow-commits` does (the commits as evidence)",
    )
    p.add_argument(
        "--wip",
        action="store_true",
        help="with --ranges: recommit each case's files at random into k work-in-progress commits first",
    )
    add_selection_options(p)
    p.set_defaults(func=run)


@dataclass
class SplitCase:
    repo: str
    k: int
    name: str
    scores: dict[str, Scores] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    identical: bool = False
    commits: int = 0  # made by the split
    refused: str | None = None  # why the split or its apply stopped

    def to_dict(self) -> dict:
        return {
            "repo": self.repo,
            "k": self.k,
            "case": self.name,
            "scores": {m: vars(s) for m, s in self.scores.items()},
            "seconds": {m: round(s, 4) for m, s in self.seconds.items()},
            "identical": self.identical,
            "commits": self.commits,
            "refused": self.refused,
        }


def run(args: argparse.Namespace) -> BenchReport:
    chosen = selections(args, args.k)
    cache = Cache(args.cache)
    way = Way(args.ranges, args.wip, args.follow_commits)
    results: list[SplitCase] = []
    for repo in args.repos:
        for selection in chosen:
            tangled = load_tangles(repo, selection, cache, progress)
            results += split_cases(repo, selection, tangled, provider=args.provider, log=progress, way=way)
    if not results:
        raise SegmintError("No case of consecutive commits by one author fits the limits in the repositories given")
    return report(
        results,
        chosen,
        [repo_name(r) for r in args.repos],
        way=way,
    )


def split_cases(
    repo: str,
    selection: Selection,
    tangled: list[Tangle],
    *,
    provider: str,
    log: Log,
    way: Way = Way(),
) -> list[SplitCase]:
    """Each case split in a scratch clone of ``repo`` (the original is never touched)."""
    out = []
    with Workspace(repo) as workspace:
        workspace.git.run("config", "user.name", "Segmint Bench")
        workspace.git.run("config", "user.email", "bench@segmint.invalid")
        for number, tangle in enumerate(tangled, start=1):
            case = split_case(workspace, repo_name(repo), selection.k, tangle, provider, way=way)
            out.append(case)
            log(_case_line(number, len(tangled), case))
    return out


def split_case(
    workspace: Workspace,
    repo: str,
    k: int,
    tangle: Tangle,
    provider: str,
    *,
    way: Way = Way(),
) -> SplitCase:
    from segmint_core.session.session import Session

    truth = [tangle.truth[key] for key in tangle.keys]
    result = SplitCase(repo, k, tangle.case.name)
    start = time.perf_counter()
    # Grouped with the settings the split's session has, so with the same model.
    grouping = group_changes(tangle.changes, provider=provider, timeline=None, settings=Settings(), root=workspace.root)
    result.seconds[WORK_TREE] = time.perf_counter() - start
    result.scores[WORK_TREE] = score(truth, baseline.grouping_labels(grouping, tangle.changes, tangle.keys))

    if way.ranges:
        squashed = _work_in_progress(workspace, tangle) if way.wip else _checked_out(workspace, tangle.case.tip)
    else:
        squashed = _squash(workspace, tangle)
    session = Session.open(workspace.root)
    try:
        start = time.perf_counter()
        inner = session.start_split(
            f"{tangle.case.base}..HEAD" if way.ranges else "HEAD", force=True, follow_commits=way.follow
        )
        result.seconds[SPLIT] = time.perf_counter() - start
        result.scores[SPLIT] = score(truth, split_labels(inner, tangle))
        start = time.perf_counter()
        result.commits = len(session.apply_split())
        result.seconds["apply"] = time.perf_counter() - start
    except SegmintError as exc:
        result.refused = str(exc)
        session.abort_split()
    head = workspace.git.head()
    result.identical = head != squashed and _tree(workspace, head) == _tree(workspace, tangle.case.tip)
    return result


def _squash(workspace: Workspace, tangle: Tangle) -> str:
    """A branch whose last commit holds the case's k commits as one, checked out clean."""
    git, case = workspace.git, tangle.case
    message = f"squash of {counted(len(case.commits), 'commit')}"
    squashed = git.run("commit-tree", f"{case.tip}^{{tree}}", "-p", case.base, "-m", message).text.strip()
    return _checked_out(workspace, squashed)


def _work_in_progress(workspace: Workspace, tangle: Tangle) -> str:
    """A branch from the case's base whose k commits each hold a random share of the files the case
    changes, at their final content: work-in-progress commits that follow no intent."""
    git, case = workspace.git, tangle.case
    listed = git.run("diff", "--name-only", "-z", "--no-renames", case.base, case.tip).stdout.split(b"\0")
    files = sorted(f.decode("utf-8", "surrogateescape") for f in listed if f)
    random.Random(case.name).shuffle(files)
    shares = [files[n :: len(case.commits)] for n in range(len(case.commits))]
    _checked_out(workspace, case.base)
    for n, share in enumerate(s for s in shares if s):
        at_tip = set(git.run("ls-tree", "-r", "-z", "--name-only", case.tip, "--", *share).text.split("\0")) - {""}
        kept, gone = [f for f in share if f in at_tip], [f for f in share if f not in at_tip]
        if kept:
            git.run("checkout", case.tip, "--", *kept)
        if gone:
            git.run("rm", "-q", "--", *gone)
        git.run("commit", "-q", "--no-verify", "-m", f"wip {n + 1}")
    return git.head() or case.base


def _checked_out(workspace: Workspace, commit: str) -> str:
    """``commit`` checked out clean on the bench's branch."""
    git = workspace.git
    git.run("-c", "advice.detachedHead=false", "checkout", "--quiet", "--force", "-B", BRANCH, commit)
    git.run("clean", "--quiet", "-f", "-d", "-x")
    return commit


def _tree(workspace: Workspace, commit: str | None) -> str | None:
    if commit is None:
        return None
    return workspace.git.run("rev-parse", f"{commit}^{{tree}}").text.strip()


def split_labels(inner, tangle: Tangle) -> list[str]:
    """The split session's group of each scored line of the case, its hunks matched to the case's by
    file and position (the same change captured from the same two trees)."""
    changes = inner.units.changeset
    by_place = {(c.file_path, n): h for c in changes.changes for n, h in enumerate(c.hunks)}
    change_of = {h.id: c.id for c in changes.changes for h in c.hunks}
    group_of = {m: g.id for g in inner.groups for m in (*g.hunk_ids, *g.change_ids)}
    labels = []
    for hunk_id, index in tangle.keys:
        mine = tangle.changes.change_of(hunk_id)
        ordinal = next(n for n, h in enumerate(mine.hunks) if h.id == hunk_id)
        theirs = by_place.get((mine.file_path, ordinal))
        if theirs is None or theirs.lines != mine.hunks[ordinal].lines:
            raise SegmintError(f"The split's change of {mine.file_path} differs from the case's")
        member = _unit_of(inner.units, theirs.id, index)
        labels.append(group_of.get(member) or group_of.get(change_of[theirs.id]) or f"alone:{member}")
    return labels


def _unit_of(units, hunk_id: str, index: int) -> str:
    """The id of the session's unit holding line ``index`` of git hunk ``hunk_id``."""
    parts = units.hunk_parts.get(hunk_id)
    if parts is None or not parts.is_split:
        return hunk_id
    return next((f"{hunk_id}.{n}" for n, owned in parts.live() if index in owned), hunk_id)


def _case_line(number: int, total: int, case: SplitCase) -> str:
    what = (
        f"split ARI {case.scores[SPLIT].ari:.2f} in {case.seconds[SPLIT]:.2f} s, {counted(case.commits, 'commit')}"
        if SPLIT in case.scores
        else "split stopped"
    )
    return (
        f"{case.repo} k={case.k} case {number}/{total} {case.name}: working tree ARI "
        f"{case.scores[WORK_TREE].ari:.2f}; {what}; tree {'identical' if case.identical else 'DIFFERS'}"
        + (f" ({case.refused})" if case.refused else "")
    )


@dataclass(frozen=True)
class Row:
    method: str
    cases: int
    ari: float
    rand: float
    accuracy: float
    exact: float
    seconds: float


def rows(cases: list[SplitCase]) -> list[Row]:
    out = []
    for method in (WORK_TREE, SPLIT):
        scored = [c for c in cases if method in c.scores]
        if not scored:
            continue
        s = [c.scores[method] for c in scored]
        out.append(
            Row(
                method,
                len(scored),
                statistics.fmean(x.ari for x in s),
                statistics.fmean(x.rand for x in s),
                statistics.fmean(x.accuracy for x in s),
                statistics.fmean(1.0 if x.exact else 0.0 for x in s),
                statistics.fmean(c.seconds[method] for c in scored),
            )
        )
    return out


def report(
    results: list[SplitCase],
    chosen: list[Selection],
    repos: list[str],
    *,
    way: Way = Way(),
) -> BenchReport:
    selection = chosen[0]
    history = "first-parent history" if selection.first_parent else "all history"
    lines = [
        f"{counted(len(results), 'case')} of {', '.join(repos)} (seed {selection.seed}, {history}), each case's "
        f"k commits {way.described}; means over cases",
    ]
    figures: dict = {"repos": repos, "seed": selection.seed, "first_parent": selection.first_parent, "runs": []}
    for k in sorted({s.k for s in chosen}):
        mine = [c for c in results if c.k == k]
        if not mine:
            continue
        table = rows(mine)
        identical = sum(c.identical for c in mine)
        what = "single commits: ARI 1 when kept as one group, else 0" if k == 1 else f"{k} commits {way.short}"
        lines += [
            "",
            f"k={k}, {counted(len(mine), 'case')} ({what})",
            f"{'method':<22}{'ARI':>7}{'Rand':>7}{'accuracy':>10}{'exact':>8}{'s/case':>9}",
        ]
        lines += [
            f"{r.method:<22}{r.ari:>7.3f}{r.rand:>7.3f}{r.accuracy:>10.3f}{r.exact:>8.0%}{r.seconds:>9.3f}"
            for r in table
        ]
        lines.append(
            f"final tip tree byte-identical after apply --all: {identical} of {len(mine)} "
            f"({identical / len(mine):.0%}); {_commits(mine)}"
        )
        lines += [f"  {c.repo} {c.name}: {c.refused}" for c in mine if c.refused]
        figures["runs"].append(
            {
                "k": k,
                "n": len(mine),
                "identical": identical,
                "summary": [vars(r) for r in table],
                "by_repo": _by_repo(mine),
                "cases": [c.to_dict() for c in mine],
            }
        )
    lines += ["", "per repository, ARI working tree / split HEAD:"]
    for repo in repos:
        cells = []
        for k in sorted({s.k for s in chosen}):
            mine = [c for c in results if c.k == k and c.repo == repo and SPLIT in c.scores]
            if mine:
                work = statistics.fmean(c.scores[WORK_TREE].ari for c in mine)
                split = statistics.fmean(c.scores[SPLIT].ari for c in mine)
                cells.append(f"k={k} {work:.3f} / {split:.3f} (n={len(mine)})")
        lines.append(f"  {repo:<12}" + "   ".join(cells))
    return BenchReport(figures, "\n".join(lines))


def _commits(cases: list[SplitCase]) -> str:
    applied = [c.commits for c in cases if c.commits]
    if not applied:
        return "no split applied"
    seconds = [c.seconds["apply"] for c in cases if "apply" in c.seconds]
    return f"{statistics.fmean(applied):.2f} commits made per case; apply {statistics.fmean(seconds):.2f} s/case"


def _by_repo(cases: list[SplitCase]) -> dict:
    out: dict = {}
    for repo in dict.fromkeys(c.repo for c in cases):
        mine = [c for c in cases if c.repo == repo and SPLIT in c.scores]
        out[repo] = {
            "n": len(mine),
            WORK_TREE: statistics.fmean(c.scores[WORK_TREE].ari for c in mine) if mine else None,
            SPLIT: statistics.fmean(c.scores[SPLIT].ari for c in mine) if mine else None,
            "identical": sum(c.identical for c in cases if c.repo == repo),
        }
    return out
