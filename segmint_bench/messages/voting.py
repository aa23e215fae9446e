"""``segmint bench messages --leave-one-out REPO...``: how types and scopes are voted, chosen
on all repositories but one and scored on that one.

Each repository's cases are proposed once (grouping and house style as in
``segmint bench messages``); the titles are then written again under every
voting of ``GRID`` (the rules' weight, a path-named scope's weight, the number
of past commits that vote). For each repository left out, the voting with the
best mean type and scope agreement on the others is scored on it: first with
types voted by the nearest past commits alone, then with the type model
(``type_model.py``) fit on the others' cases (their largest proposals) and the
scope voting chosen with it (``MODEL_GRID``). The voting the messages ship with
(``voice.VOTING``, its type model fit on all the repositories given, so
in-sample) is scored on every repository beside them. ``--save-type-model``
writes the type model fit on all of them.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

from segmint_bench import BenchReport
from segmint_bench.messages.scoring import Proposal, format_confusion, proposals, score, summarize
from segmint_core.planning import messages
from segmint_core.planning.type_model import Candidates, TypeModel, candidates, fit, save_model
from segmint_core.planning.voice import VOTING, Voting, house_type
from segmint_core.planning.writer import offline_title, read_plan

GRID = [
    Voting(rule, path, k) for rule, path, k in itertools.product((0.0, 0.25, 0.5, 1.0), (0.0, 0.5, 1.0), (3, 5, 8, 12))
]
# With a type model the rules' weight and the neighbours no longer choose the type: only the scope's voting is chosen.
MODEL_GRID = [Voting(VOTING.rule, path, k) for path, k in itertools.product((0.0, 0.5, 1.0), (3, 5, 8, 12))]


def leave_one_out(
    repos: list[str],
    *,
    n: int,
    seed: int,
    log: Callable[[str], None] = lambda _: None,
    confusion: bool = False,
    save_type_model: str | None = None,
    cases: dict[str, list[Proposal]] | None = None,
) -> BenchReport:
    """``cases``: the repositories' cases already proposed (else they are picked and proposed here)."""
    if cases is None:
        cases = {repo: proposals(repo, n=n, seed=seed, log=log) for repo in repos}
    evidence = {repo: [type_case(p) for p in found] for repo, found in cases.items()}
    fit_on_all = _fit(evidence, repos)
    shipped = VOTING if save_type_model is None else replace(VOTING, types=fit_on_all)
    models = {repo: _fit(evidence, _others(repo, repos)) for repo in repos}
    with_models = {repo: [replace(v, types=model) for v in MODEL_GRID] for repo, model in models.items()}
    on_all = [replace(v, types=fit_on_all) for v in MODEL_GRID]
    # Every voting at once, so each case is read, its neighbours ranked and its house's classifier fit once.
    table = _table(cases, [shipped, *GRID, *itertools.chain.from_iterable(with_models.values()), *on_all])
    rows = []
    for repo in repos:
        others = _others(repo, repos)
        chosen = max(GRID, key=lambda v: (_objective(table[v], others), v == VOTING))
        modelled = _best_scope_voting(table, with_models[repo], others)
        log(f"{repo}: type model fit on {', '.join(others)}: {models[repo].weights}")
        rows.append(
            {
                "repo": repo,
                "chosen_on": others,
                "voting": _shown_voting(chosen),
                "held_out_vote": table[chosen][repo],
                "held_out": table[modelled][repo],
                "voting_with_model": _shown_voting(modelled),
                "shipped": table[shipped][repo],
            }
        )
    best = max(GRID, key=lambda v: (_objective(table[v], repos), v == VOTING))
    # With the type model fit on all: what the shipped VOTING should hold, chosen as each fold chooses its own.
    best_with_model = _best_scope_voting(table, on_all, repos)
    if save_type_model is not None:
        save_model(shipped.types, Path(save_type_model))
    mean = mean_held_out([r["held_out"] for r in rows])
    figures = {
        "style": "conventional",
        "n": n,
        "seed": seed,
        "rows": rows,
        "mean": mean,
        "best_on_all": _shown_voting(best),
        "best_with_model_on_all": _shown_voting(best_with_model),
        "shipped": _shown_voting(shipped),
    }
    return BenchReport(figures, _format(rows, best, best_with_model, shipped, confusion, mean))


def mean_held_out(summaries: list[dict]) -> dict:
    """The mean over the repositories held out (scope over those with scoped cases)."""
    scoped = [s["scope"] for s in summaries if s["scope"] is not None]
    return {
        "type": statistics.fmean(s["type"] for s in summaries),
        "scope": statistics.fmean(scoped) if scoped else None,
        "f1": statistics.fmean(s["f1"] for s in summaries),
        "one_commit": statistics.fmean(s["one_commit"] for s in summaries),
        "clean": statistics.fmean(s["clean"] for s in summaries),
    }


def _others(repo: str, repos: list[str]) -> list[str]:
    return [r for r in repos if r != repo] or [repo]


def _best_scope_voting(table: dict[Voting, dict[str, dict]], votings: list[Voting], repos: list[str]) -> Voting:
    """The voting of ``votings`` (``MODEL_GRID`` with one type model) best on ``repos``."""
    return max(
        dict.fromkeys(votings),
        key=lambda v: (_objective(table[v], repos), v.path == VOTING.path and v.neighbours == VOTING.neighbours),
    )


def type_case(proposal: Proposal) -> tuple[Candidates, str] | None:
    """The evidence for each type of the case's largest proposal, and the engineers' type;
    None where the house style is not learned (its type is the rules') or no commit was proposed."""
    style = proposal.style
    if not style.learned or not style.follows_conventional or not proposal.plans:
        return None
    facts, touched = read_plan(proposal.plans[proposal.largest][0], entries=proposal.entries)
    rule = messages.commit_type(facts)
    return candidates(style, facts, touched, rule, house_type(style, rule)), proposal.real.type


def _fit(evidence: dict[str, list], repos: list[str]) -> TypeModel:
    return fit([case for repo in repos for case in evidence[repo] if case is not None])


def _table(cases: dict[str, list[Proposal]], votings: list[Voting]) -> dict[Voting, dict[str, dict]]:
    votings = list(dict.fromkeys(votings))
    # Case by case, so the neighbours each case's titles are voted by are ranked once for every voting.
    written = {repo: [titles(p, votings) for p in found] for repo, found in cases.items()}
    return {
        voting: {
            repo: summarize([score(p, each[n]) for p, each in zip(found, written[repo])])
            for repo, found in cases.items()
        }
        for n, voting in enumerate(votings)
    }


def _shown_voting(voting: Voting) -> dict:
    shown = asdict(voting)
    shown["types"] = list(voting.types.weights) if voting.types else None
    return shown


def titles(proposal: Proposal, votings: list[Voting]) -> list[list[str]]:
    """The proposed commits' titles under each of ``votings``: each commit read once, then titled under them all."""
    entries = proposal.entries
    by_commit = [
        [offline_title(facts, touched, proposal.style, voting) for voting in votings]
        for facts, touched in (read_plan(parts, entries=entries) for parts, _ in proposal.plans)
    ]
    return [[written[n] for written in by_commit] for n in range(len(votings))]


def _objective(by_repo: dict, repos: list[str]) -> float:
    return statistics.fmean(by_repo[r]["type"] + (by_repo[r]["scope"] or 0.0) for r in repos)


def _format(
    rows: list[dict], best: Voting, best_with_model: Voting, shipped: Voting, confusion: bool, mean: dict
) -> str:
    def figures(s: dict) -> str:
        scope = "n/a" if s["scope"] is None else f"{s['scope']:.2f} ±{s['scope_se'] or 0:.2f}"
        return (
            f"type {s['type']:.2f} ±{s['type_se'] or 0:.2f}  scope {scope}  F1 {s['f1']:.2f} ±{s['f1_se'] or 0:.2f}"
            f"  one commit {100 * s['one_commit']:.0f}%  clean titles {100 * s['clean']:.0f}%"
        )

    out = []
    for row in rows:
        v, m = row["voting"], row["voting_with_model"]
        pad = " " * len(row["repo"])
        out.append(
            f"{row['repo']}: held out, type model and scope voting (path {m['path']}, {m['neighbours']} "
            f"neighbours) fit on the others: {figures(row['held_out'])}"
        )
        out.append(
            f"{pad}  held out, types voted by neighbours alone (rule {v['rule']}, path {v['path']}, "
            f"{v['neighbours']} neighbours): {figures(row['held_out_vote'])}"
        )
        out.append(f"{pad}  shipped voting (type model fit on all, in-sample): {figures(row['shipped'])}")
        if confusion:
            out.append(format_confusion(row["held_out"]))
    scope = "n/a" if mean["scope"] is None else f"{mean['scope']:.2f}"
    out.append(
        f"mean held out (type model fit on the others): type {mean['type']:.2f}  scope {scope}  F1 {mean['f1']:.2f}"
        f"  one commit {100 * mean['one_commit']:.0f}%  clean titles {100 * mean['clean']:.0f}%"
    )
    weights = ", ".join(f"{w:.2f}" for w in shipped.types.weights) if shipped.types else "none"
    out.append(
        f"neighbours alone, best on all: rule {best.rule}, path {best.path}, {best.neighbours} neighbours; "
        f"shipped: path {shipped.path}, {shipped.neighbours} neighbours, type weights ({weights})"
    )
    out.append(
        f"scope voting best on all with the type model fit on all: path {best_with_model.path}, "
        f"{best_with_model.neighbours} neighbours"
    )
    return "\n".join(out)
