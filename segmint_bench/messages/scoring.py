"""``segmint bench messages REPO``: proposed subjects scored against what the engineers wrote.

Cases are single real commits of REPO's first-parent line whose subjects are
Conventional Commits of a standard type (one parent, text only, 1-12 files,
2-250 changed lines), made where the house style learned from the commits
before them is Conventional. For each, the parent is checked out and the
commit's tree written into the work tree; Segmint proposes commits as
``segmint plan`` would (grouping, then messages in the house style learned
from the history before the case: the commit itself and later ones are not
in it). The proposal covering the most hunks is compared with the real
subject: type and scope agreement (scope where the real one has one), word
overlap (F1) of the description, titles clean, and the share of cases
proposed as exactly one commit, each with its standard error. Each case's
majority type in its history before it is the baseline.
``--leave-one-out`` (``voting.py``) chooses the voting of types and scopes on
all repositories but one and scores that one.
"""

from __future__ import annotations

import itertools
import math
import random
import shutil
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass

from segmint_bench import BenchReport
from segmint_bench.untangle.cases import Case, read_history as read_commits
from segmint_bench.untangle.workspace import Workspace
from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.planning.enclosing import Sections
from segmint_core.planning.facts import TreeEntries, tree_entries
from segmint_core.planning.conventional import STANDARD_TYPES, Subject, parse_subject, words
from segmint_core.history import read_history
from segmint_core.planning.history import HISTORY_LIMIT
from segmint_core.planning.style import MIN_HISTORY, HouseStyle, counts_for_style, house_writes_conventional
from segmint_core.planning.titles import TITLE_LIMIT, one_line
from segmint_core.session.session import Session
from segmint_core.session.store import FOLDER
from segmint_core.wording import counted

HISTORY_SCAN = 100_000


@dataclass
class CaseScore:
    sha: str
    real: str
    proposed: str
    commits: int
    type_ok: bool
    scope_ok: bool | None  # None: the real subject has no scope
    f1: float
    clean: float  # share of the case's proposed titles that are clean
    baseline_type: str | None
    baseline_scope: str | None


def run_benchmark(
    repo: str, *, n: int, seed: int, log: Callable[[str], None] = lambda _: None, confusion: bool = False
) -> BenchReport:
    scores = [score(p) for p in proposals(repo, n=n, seed=seed, log=log)]
    return conventional_report(repo, scores, seed, confusion)


def conventional_report(repo: str, scores: list[CaseScore], seed: int, confusion: bool = False) -> BenchReport:
    summary = summarize(scores)
    figures = {
        "repo": repo,
        "style": CONVENTIONAL,
        "n": len(scores),
        "seed": seed,
        "summary": summary,
        "cases": [asdict(s) for s in scores],
    }
    text = format_table(repo, summary, len(scores), seed)
    if confusion:
        text += "\n" + format_confusion(summary)
    return BenchReport(figures, text)


@dataclass
class Proposal:
    """One case: the real subject, and the commits Segmint proposes for its changes."""

    sha: str
    real: Subject
    subject: str  # the engineers' subject as written
    plans: list[tuple[list, int]]  # each proposed commit's (change, hunks) parts and its size in hunks
    titles: list[str]
    style: HouseStyle
    files: list[list[str]]  # each proposed commit's files, as "path (hunks)"

    @property
    def shown(self) -> str:
        return _shown(self.real) if self.real.type else one_line(self.subject)

    @property
    def entries(self) -> TreeEntries:
        """The entries the case's changes add to its changelogs, as the session's planner reads them."""
        return tree_entries([part for parts, _ in self.plans for part in parts])

    @property
    def largest(self) -> int:
        """The proposal covering the most hunks (-1: Segmint proposed no commit for the changes)."""
        return max(range(len(self.plans)), key=lambda i: (self.plans[i][1], -i), default=-1)

    def title(self, titles: list[str] | None = None) -> str:
        """The largest proposal's title (of ``titles``, else Segmint's own); empty when none was proposed."""
        titles = self.titles if titles is None else titles
        return titles[self.largest] if titles else ""


STYLES = ("auto", "conventional", "plain")
CONVENTIONAL, PLAIN = "conventional", "plain"


@dataclass
class Cases:
    """One repository's scored cases, and the style they were picked for."""

    repo: str
    style: str  # CONVENTIONAL or PLAIN
    proposals: list[Proposal]


def proposals(
    repo: str, *, n: int, seed: int, log: Callable[[str], None] = lambda _: None, style: str = CONVENTIONAL
) -> list[Proposal]:
    return pick_and_propose(repo, n=n, seed=seed, log=log, style=style).proposals


def pick_and_propose(
    repo: str, *, n: int, seed: int, log: Callable[[str], None] = lambda _: None, style: str = "auto"
) -> Cases:
    """``style`` ``auto``: Conventional when the house writes Conventional Commits at the
    repository's head, plain otherwise."""
    found: list[Proposal] = []
    with Workspace(repo) as workspace:
        line = read_history(workspace.git, workspace.head(), limit=HISTORY_SCAN)
        if style == "auto":
            style = CONVENTIONAL if writes_conventional_at(line, 0) else PLAIN
        cases = candidates(workspace, line, style)
        random.Random(seed).shuffle(cases)
        for case, subject in cases:
            if len(found) == n:
                break
            proposal = propose(workspace, case, subject)
            if proposal is None:
                log(f"case {case.tip[:8]} skipped: its tree leaves the work tree as it was (a submodule moved)")
                continue
            found.append(proposal)
            log(
                f"case {len(found)}/{min(n, len(cases))} {case.tip[:8]}: {proposal.shown!r} -> "
                f"{proposal.title()!r} ({counted(len(proposal.plans), 'commit')})"
            )
    if not found:
        kind = "with a Conventional subject" if style == CONVENTIONAL else "in a house of plain subjects"
        raise SegmintError(f"No single commit {kind} fits the limits in {repo}")
    return Cases(repo, style, found)


def writes_conventional_at(line: list, position: int) -> bool | None:
    """Whether the house writes Conventional Commits just before ``line[position]`` (newest
    first); None where too few subjects come before it to tell."""
    subjects = (p.subject for p in line[position:])
    before = [s for s in itertools.islice(subjects, HISTORY_LIMIT) if counts_for_style(s)]
    return None if len(before) < MIN_HISTORY else house_writes_conventional(before)


def candidates(workspace: Workspace, line: list, style: str = CONVENTIONAL) -> list[tuple[Case, str]]:
    """Eligible first-parent commits (one parent, text only, within the size limits), oldest
    first. Conventional: subjects of a standard type where the house style learned before them
    is Conventional (``deps: qs@2.3.0`` in a house of plain subjects is a house habit, not a
    Conventional commit). Plain: any subject but a merge's or a revert's, where the house
    before them does not write Conventional Commits."""
    commits = read_commits(workspace.git, workspace.head())
    found = []
    for position, past in enumerate(line):
        commit = commits.get(past.sha)
        if commit is None or not commit.eligible or not counts_for_style(past.subject):
            continue
        if style == CONVENTIONAL and parse_subject(past.subject).type not in STANDARD_TYPES:
            continue
        conventional = writes_conventional_at(line, position + 1)
        if conventional is None or conventional != (style == CONVENTIONAL):
            continue
        found.append((Case(commit.parents[0], (commit.sha,), commit.time), past.subject))
    found.reverse()
    return found


def propose(workspace: Workspace, case: Case, subject: str) -> Proposal | None:
    """None where writing the commit's tree in changes nothing git shows (a submodule's commit moved)."""
    workspace.tangle(case)
    if not workspace.git.run("status", "--porcelain").text.strip():
        return None
    shutil.rmtree(f"{workspace.git.git_dir}/{FOLDER}", ignore_errors=True)  # no state from the last case
    session = Session(workspace.git, settings=Settings())
    plans = session.propose_commits()
    sections = Sections(session.units.changes, workspace.git)  # the parts as the planner reads them
    parts = [
        (sections.resolve(session.units.message_parts(p.hunk_ids, p.change_ids)), len(p.hunk_ids) + len(p.change_ids))
        for p in plans
    ]
    files = [
        [f"{change.file_path} ({len(hunks)})" for change, hunks in session.units.parts(p.hunk_ids, p.change_ids)]
        for p in plans
    ]
    titles = [p.title for p in plans]
    return Proposal(case.tip, parse_subject(subject), subject, parts, titles, session.message_style(), files)


def score(proposal: Proposal, titles: list[str] | None = None) -> CaseScore:
    """``titles``: other titles for the proposed commits (another voting) than Segmint's own."""
    titles = titles or proposal.titles
    real, style = proposal.real, proposal.style
    ours = parse_subject(proposal.title(titles))
    return CaseScore(
        sha=proposal.sha,
        real=_shown(real),
        proposed=proposal.title(titles),
        commits=len(titles),
        type_ok=ours.type == real.type,
        scope_ok=None if real.scope is None else (ours.scope or "").lower() == real.scope.lower(),
        f1=word_f1(ours.text, real.text),
        clean=clean_share(titles),
        baseline_type=next(iter(style.types), None),
        baseline_scope=next(iter(style.scopes), None),
    )


def clean_share(titles: list[str]) -> float:
    """The share of clean titles (1 where none was proposed: no title is unclean)."""
    return sum(clean_title(t) for t in titles) / len(titles) if titles else 1.0


def clean_title(title: str) -> bool:
    return (
        0 < len(title) <= TITLE_LIMIT
        and title == one_line(title)
        and not title.endswith(("…", "..."))
        and "Grouped because" not in title
    )


def word_f1(ours: str, real: str) -> float:
    a, b = Counter(words(ours)), Counter(words(real))
    common = sum((a & b).values())
    if not common:
        return 0.0
    precision, recall = common / sum(a.values()), common / sum(b.values())
    return 2 * precision * recall / (precision + recall)


def summarize(scores: list[CaseScore]) -> dict:
    scoped = [s for s in scores if s.scope_ok is not None]
    reals = [parse_subject(s.real) for s in scores]
    return {
        "type": statistics.fmean(s.type_ok for s in scores),
        "type_se": standard_error([s.type_ok for s in scores]),
        "scope": statistics.fmean(s.scope_ok for s in scoped) if scoped else None,
        "scope_se": standard_error([s.scope_ok for s in scoped]),
        "scoped_cases": len(scoped),
        "f1": statistics.fmean(s.f1 for s in scores),
        "f1_se": standard_error([s.f1 for s in scores]),
        "clean": statistics.fmean(s.clean for s in scores),
        "one_commit": statistics.fmean(s.commits == 1 for s in scores),
        "baseline_type": statistics.fmean(r.type == s.baseline_type for r, s in zip(reals, scores)),
        "baseline_scope": statistics.fmean(
            (r.scope or "").lower() == (s.baseline_scope or "").lower() for r, s in zip(reals, scores) if r.scope
        )
        if scoped
        else None,
        "confusion": type_confusion(scores),
        "type_whole": _agreement([s for s in scores if s.commits == 1]),
        "type_split": _agreement([s for s in scores if s.commits > 1]),
    }


def _agreement(scores: list[CaseScore]) -> tuple[int, int]:
    """Cases whose type agrees, of how many."""
    return sum(s.type_ok for s in scores), len(scores)


NO_TYPE = "(none)"


def type_confusion(scores: list[CaseScore]) -> dict[str, dict[str, int]]:
    """How many cases of each real type were proposed as each type (``(none)``: no type)."""
    matrix: dict[str, Counter] = {}
    for s in scores:
        real, ours = parse_subject(s.real).type or NO_TYPE, parse_subject(s.proposed).type or NO_TYPE
        matrix.setdefault(real, Counter())[ours] += 1
    return {real: dict(sorted(row.items())) for real, row in sorted(matrix.items())}


def format_confusion(summary: dict) -> str:
    """Real types down, proposed types across; agreement is the diagonal. Then the agreement
    where the real commit was proposed whole and where it was split (the largest proposal
    then holds part of it)."""
    (whole, of_whole), (split, of_split) = summary["type_whole"], summary["type_split"]
    return (
        _confusion_table(summary["confusion"])
        + f"\n  type agrees in {whole}/{of_whole} cases proposed as one commit, {split}/{of_split} split"
    )


def _confusion_table(matrix: dict[str, dict[str, int]]) -> str:
    proposed = sorted({t for row in matrix.values() for t in row})
    rows = [["real \\ proposed", *proposed, "agree"]]
    for real, row in matrix.items():
        total = sum(row.values())
        rows.append([real, *(str(row.get(t, "")) or "." for t in proposed), f"{row.get(real, 0)}/{total}"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  " + "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows
    )


def standard_error(values: list) -> float | None:
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else None


def format_table(repo: str, summary: dict, n: int, seed: int) -> str:
    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:.0f}%"

    def se(x: float | None, scale: int = 100) -> str:
        return "" if x is None else f" ±{scale * x:.0f}" if scale == 100 else f" ±{x:.2f}"

    rows = [
        ("", "type", f"scope ({summary['scoped_cases']})", "description F1", "clean titles", "one commit"),
        (
            "Segmint",
            pct(summary["type"]) + se(summary["type_se"]),
            pct(summary["scope"]) + se(summary["scope_se"]),
            f"{summary['f1']:.2f}" + se(summary["f1_se"], 1),
            pct(summary["clean"]),
            pct(summary["one_commit"]),
        ),
        ("majority type and scope", pct(summary["baseline_type"]), pct(summary["baseline_scope"]), "", "", ""),
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [f"{repo}: {counted(n, 'case')} (seed {seed})"]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(lines)


def _shown(subject: Subject) -> str:
    scope = f"({subject.scope})" if subject.scope else ""
    return one_line(f"{subject.type}{scope}{'!' if subject.breaking else ''}: {subject.text}")
