"""``segmint bench messages --leave-one-out REPO...``: how types and scopes are voted, chosen
on all repositories but one and scored on that one.

Each repository's cases are proposed once (grouping and house style as in
``segmint bench messages``); the titles are then written again under every
voting of ``GRID`` (the rules' weight, a path-named scope's weight, the number
of past commits that vote). For each repository left out, the voting with the
best mean type and scope agreement on the others is scored on it. The voting
the messages ship with (``voice.VOTING``) is scored on every repository beside
it, and the one the grid finds best on all of them is named, to compare.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable
from dataclasses import asdict

from segmint_core.bench import BenchReport
from segmint_core.bench.messages import Proposal, format_confusion, proposals, score, summarize
from segmint_core.planning.voice import VOTING, Voting
from segmint_core.planning.writer import offline_message

GRID = [Voting(rule, path, k) for rule, path, k in
        itertools.product((0.0, 0.25, 0.5, 1.0), (0.0, 0.5, 1.0), (3, 5, 8, 12))]


def leave_one_out(repos: list[str], *, n: int, seed: int,
                  log: Callable[[str], None] = lambda _: None, confusion: bool = False) -> BenchReport:
    cases = {repo: proposals(repo, n=n, seed=seed, log=log) for repo in repos}
    table = {voting: {repo: summarize([score(p, titles(p, voting)) for p in found]) for repo, found in cases.items()}
             for voting in dict.fromkeys([VOTING, *GRID])}
    rows = []
    for repo in repos:
        others = [r for r in repos if r != repo] or [repo]
        chosen = max(GRID, key=lambda v: (_objective(table[v], others), v == VOTING))
        rows.append({"repo": repo, "chosen_on": others, "voting": asdict(chosen), "held_out": table[chosen][repo],
                     "shipped": table[VOTING][repo]})
    best = max(GRID, key=lambda v: (_objective(table[v], repos), v == VOTING))
    figures = {"n": n, "seed": seed, "rows": rows, "best_on_all": asdict(best), "shipped": asdict(VOTING)}
    return BenchReport(figures, _format(rows, best, confusion))


def titles(proposal: Proposal, voting: Voting) -> list[str]:
    return [offline_message(parts, None, proposal.style, voting).title for parts, _ in proposal.plans]


def _objective(by_repo: dict, repos: list[str]) -> float:
    return statistics.fmean(by_repo[r]["type"] + (by_repo[r]["scope"] or 0.0) for r in repos)


def _format(rows: list[dict], best: Voting, confusion: bool = False) -> str:
    def figures(s: dict) -> str:
        scope = "n/a" if s["scope"] is None else f"{s['scope']:.2f} ±{s['scope_se'] or 0:.2f}"
        return f"type {s['type']:.2f} ±{s['type_se'] or 0:.2f}  scope {scope}  F1 {s['f1']:.2f} ±{s['f1_se'] or 0:.2f}"
    out = []
    for row in rows:
        v = row["voting"]
        out.append(f"{row['repo']}: held out, voting chosen on the others "
                   f"(rule {v['rule']}, path {v['path']}, {v['neighbours']} neighbours): {figures(row['held_out'])}")
        out.append(f"{' ' * len(row['repo'])}  shipped voting: {figures(row['shipped'])}")
        if confusion:
            out.append(format_confusion(row["held_out"]["confusion"]))
    out.append(f"best on all: rule {best.rule}, path {best.path}, {best.neighbours} neighbours; "
               f"shipped: rule {VOTING.rule}, path {VOTING.path}, {VOTING.neighbours} neighbours")
    return "\n".join(out)
