"""``segmint bench messages --style plain``: proposed titles scored against the plain subjects
of houses that do not write Conventional Commits.

The cases are picked and proposed as in ``scoring.py`` (one real commit, its parent checked
out, its tree written into the work tree, commits proposed as ``segmint plan --json`` would,
in the house style learned from the history before the commit). The largest proposal's title
is compared with the engineers' subject:

- word F1: both lower-cased and split into words of letters and digits (punctuation
  stripped, a trailing pull request reference such as ``(#123)`` left out); precision and
  recall of the words they share, counted with repeats;
- the lead verb: the first word after an area prefix (``deps:``, ``printer:``, ``[vim]``),
  lower-cased, its inflection folded (``Added``, ``Adds``, ``Adding`` and ``Add`` meet);
- one commit: whether the real commit was proposed as exactly one commit (a case proposed as
  none scores no words, no verb and not one commit);
- clean titles: one line, no ellipsis, at most 72 characters.

The house phrasing is learned from the repository's own history before each case (not a
leak). What is fitted across repositories is how much of the vote of the past commits most
like the change a verb and an area prefix need (``voice.Voting.verb``, ``.prefix``), and what
the verb the diff backs adds to a verb's share (``.evidence``, ``verbs.py``):
``--leave-one-out`` writes the largest proposal's title again under each voting of ``GRID``,
chooses the one with the best mean of word F1 and lead verb on the other repositories
(``fitted_on``) and scores the one left out with it, and prints the mean of the rows.
"""

from __future__ import annotations

import itertools
from collections import Counter
import re
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace

from segmint_bench import BenchReport
from segmint_bench.messages.scoring import Proposal, clean_share, standard_error, word_f1
from segmint_core.planning.conventional import strip_refs, words
from segmint_core.planning.voice import VOTING, Voting
from segmint_core.planning.writer import offline_title, read_plan
from segmint_core.wording import counted

# "deps: ", "printer: ", "docs/ssl: ", "fix(parser)!: " or "[vim] " before the sentence.
_PREFIX = re.compile(r"^(?:\[[^\]\n]{1,30}\]\s*|[\w./-]{1,30}(?:\([^()\n]{0,40}\))?!?:\s+)")
_SIBILANT = ("s", "x", "z", "ch", "sh")


@dataclass
class PlainScore:
    sha: str
    real: str
    proposed: str
    commits: int
    f1: float
    real_verb: str
    proposed_verb: str
    clean: float  # share of the case's proposed titles that are clean
    files: list[list[str]]  # each proposed commit's files, as "path (hunks)"

    @property
    def verb_ok(self) -> bool:
        return bool(self.real_verb) and self.real_verb == self.proposed_verb


def score(proposal: Proposal, title: str | None = None) -> PlainScore:
    """``title``: another title for the largest proposal (another voting) than Segmint's own."""
    real, ours = strip_refs(proposal.subject.strip()), proposal.title() if title is None else title
    return PlainScore(
        sha=proposal.sha,
        real=real,
        proposed=ours,
        commits=len(proposal.titles),
        f1=word_f1(ours, real),
        real_verb=lead_verb(real),
        proposed_verb=lead_verb(ours),
        clean=clean_share(proposal.titles),
        files=proposal.files,
    )


def lead_verb(subject: str) -> str:
    """The subject's first word after an area prefix, lower-cased and its inflection folded."""
    found = words(_PREFIX.sub("", strip_refs(subject.strip()), count=1))
    return fold(found[0]) if found else ""


def fold(word: str) -> str:
    """A key every inflection of a verb meets at: ``added``/``adds``/``adding``/``add`` ->
    ``ad``; ``fixes``/``fixed`` -> ``fix``; ``updated``/``updates``/``update`` -> ``updat``
    (a final e and a doubled final consonant dropped from every form)."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("es") and word[:-2].endswith(_SIBILANT):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    elif len(word) > 3 and word.endswith("ed") and not word.endswith("eed"):
        word = word[:-2]
    elif len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "aeiouylsz":
        word = word[:-1]  # stopped, stop -> stop; added, add -> ad
    return word.removesuffix("e") if len(word) > 2 else word


def summarize(scores: list[PlainScore]) -> dict:
    return {
        "n": len(scores),
        "f1": statistics.fmean(s.f1 for s in scores),
        "f1_se": standard_error([s.f1 for s in scores]),
        "verb": statistics.fmean(s.verb_ok for s in scores),
        "verb_se": standard_error([s.verb_ok for s in scores]),
        "one_commit": statistics.fmean(s.commits == 1 for s in scores),
        "one_commit_se": standard_error([s.commits == 1 for s in scores]),
        "clean": statistics.fmean(s.clean for s in scores),
        "commits_per_case": statistics.fmean(s.commits for s in scores),
    }


def report(repo: str, proposals: list[Proposal], seed: int) -> BenchReport:
    scores = [score(p) for p in proposals]
    summary = summarize(scores)
    figures = {
        "repo": repo,
        "style": "plain",
        "n": len(scores),
        "seed": seed,
        "summary": summary,
        "cases": [asdict(s) | {"verb_ok": s.verb_ok} for s in scores],
    }
    return BenchReport(
        figures, f"{repo}: {counted(len(scores), 'case')} (seed {seed}), plain style\n" + table([(repo, summary)])
    )


GRID = [
    replace(VOTING, verb=v, prefix=p, evidence=e)
    for v, p, e in itertools.product((0.3, 0.4, 0.5, 0.6, 0.8), (0.5, 0.7, 1.01), (0.0, 0.3, 0.6))
]


def retitled(proposal: Proposal, votings: list[Voting]) -> list[str]:
    """The largest proposal's title written again under each of ``votings`` (empty where none was
    proposed), its parts read once for them all."""
    if proposal.largest < 0:
        return [""] * len(votings)
    facts, touched = read_plan(proposal.plans[proposal.largest][0], entries=proposal.entries)
    return [offline_title(facts, touched, proposal.style, voting) for voting in votings]


def leave_one_out(cases: dict[str, list[Proposal]], *, seed: int) -> BenchReport:
    # Case by case, so the neighbours each case's titles are voted by are ranked once for every voting.
    titles = {repo: [retitled(p, GRID) for p in found] for repo, found in cases.items()}
    scored = {
        (n, repo): [score(p, written[n]) for p, written in zip(found, titles[repo])]
        for n in range(len(GRID))
        for repo, found in cases.items()
    }

    def objective(n: int, repos: list[str]) -> float:
        return statistics.fmean(s.f1 + s.verb_ok for r in repos for s in scored[(n, r)])

    rows = []
    for repo in cases:
        others = [r for r in cases if r != repo] or [repo]
        chosen = max(range(len(GRID)), key=lambda n: (objective(n, others), GRID[n] == VOTING))
        scores = scored[(chosen, repo)]
        rows.append(
            {
                "repo": repo,
                "fitted_on": others,
                "voting": {"verb": GRID[chosen].verb, "prefix": GRID[chosen].prefix, "evidence": GRID[chosen].evidence},
                "held_out": summarize(scores),
                "cases": [asdict(s) | {"verb_ok": s.verb_ok} for s in scores],
            }
        )
    mean = mean_of([r["held_out"] for r in rows])
    figures = {"style": "plain", "seed": seed, "rows": rows, "mean": mean}
    picks = Counter(f"{r['voting']['verb']}/{r['voting']['prefix']}/{r['voting']['evidence']}" for r in rows)
    chosen_text = ", ".join(f"{pick} for {n} of {len(rows)}" for pick, n in picks.most_common())
    text = (
        f"plain style, each repository held out (seed {seed}; verb/prefix shares and the diff's verb's weight chosen on the others: {chosen_text})\n"
    ) + table([(r["repo"], r["held_out"]) for r in rows] + [("mean of the repositories", mean)])
    return BenchReport(figures, text)


def mean_of(summaries: list[dict]) -> dict:
    keys = ("f1", "verb", "one_commit", "clean", "commits_per_case")
    mean = {k: statistics.fmean(s[k] for s in summaries) for k in keys}
    mean["n"] = sum(s["n"] for s in summaries)
    for k in ("f1", "verb", "one_commit"):  # the spread of the repositories' figures, not of the cases
        mean[f"{k}_se"] = standard_error([s[k] for s in summaries])
    return mean


def table(rows: list[tuple[str, dict]], name: Callable[[str], str] = lambda r: r) -> str:
    def pct(x: float, se: float | None) -> str:
        return f"{100 * x:.0f}%" + ("" if se is None else f" ±{100 * se:.0f}")

    cells = [("", "cases", "word F1", "lead verb", "one commit", "clean titles")]
    for repo, s in rows:
        f1 = f"{s['f1']:.2f}" + ("" if s["f1_se"] is None else f" ±{s['f1_se']:.2f}")
        cells.append(
            (
                name(repo),
                str(s["n"]),
                f1,
                pct(s["verb"], s["verb_se"]),
                pct(s["one_commit"], s["one_commit_se"]),
                f"{100 * s['clean']:.0f}%",
            )
        )
    widths = [max(len(r[i]) for r in cells) for i in range(len(cells[0]))]
    return "\n".join("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells)
