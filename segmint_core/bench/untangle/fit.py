"""``segmint bench fit``: refitting the grouping model's coefficients on tangled commits.

    segmint bench fit REPO [REPO ...] [--k 2 3] [--n 80] [--until 2021-01-01]

gives ``FITTED``, ``bias`` and ``size_prior`` for ``segmint_core/grouping/model.py``,
as Python to paste there (or as JSON with ``--json``).

Every pair of units in a case is a training row: its features are the link
strengths per kind (``log1p`` for piling kinds) and the kinds of the two
files when linked; the label is whether the commits owning most of their
lines are the same; the weight is the product of their changed lines,
normalised so each case counts once. The fit is an L2-regularised logistic
regression by Newton's method, evidence kinds clipped at zero (a link is
never evidence *against*), plus ``ln(files)`` for the size prior.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter, defaultdict

import numpy as np

from segmint_core.bench import BenchReport
from segmint_core.bench.untangle import parse_day
from segmint_core.bench.untangle.runner import Tangle, tangles
from segmint_core.bench.untangle.workspace import Workspace
from segmint_core.grouping import graph
from segmint_core.grouping.embeddings.local import LocalProvider
from segmint_core.grouping.engine import _links
from segmint_core.grouping.model import DEFAULT, PILING
from segmint_core.errors import SegmintError
from segmint_core.grouping.units import Unit, build_units

Row = tuple[dict[str, float], bool, float]
SIZE = "size_prior"


def case_rows(tangle: Tangle) -> list[Row]:
    units = build_units(tangle.changes.changes)
    strengths: dict[tuple[int, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for item in _links(units, LocalProvider(), DEFAULT, None, None):
        strengths[(item.a, item.b)][item.kind] += item.weight
    owners = [_owner(u, tangle) for u in units]
    size = math.log(min(len(tangle.changes.changes), DEFAULT.size_prior_cap))
    rows: list[Row] = []
    for a in range(len(units)):
        for b in range(a + 1, len(units)):
            if owners[a] is None or owners[b] is None:
                continue
            features = {SIZE: size}
            for kind, value in strengths.get((a, b), {}).items():
                features[kind] = math.log1p(value) if kind.split(":")[0] in PILING else value
            if (a, b) in strengths:
                features[graph.pair_kind(units[a].flavour, units[b].flavour)] = 1.0
            rows.append((features, owners[a][0] == owners[b][0], float(owners[a][1] * owners[b][1])))
    total = sum(w for _, _, w in rows) or 1.0
    return [(f, y, w / total) for f, y, w in rows]


def _owner(unit: Unit, tangle: Tangle) -> tuple[int, int] | None:
    """The commit owning most of the unit's scored lines, and how many lines it scores."""
    if unit.hunk is None:
        return None
    votes = Counter(tangle.truth[(unit.hunk.id, i)] for i in range(unit.start, unit.end)
                    if (unit.hunk.id, i) in tangle.truth)
    if not votes:
        return None
    return min(votes, key=lambda c: (-votes[c], c)), sum(votes.values())


def fit(rows: list[Row], l2: float = 0.01) -> tuple[dict[str, float], float]:
    """Coefficients per feature and the bias."""
    names = sorted({k for f, _, _ in rows for k in f})
    x = np.array([[f.get(n, 0.0) for n in names] + [1.0] for f, _, _ in rows])
    y = np.array([1.0 if label else 0.0 for _, label, _ in rows])
    w = np.array([weight for _, _, weight in rows])
    free = np.array([n.startswith("kinds:") or n == SIZE for n in names] + [True])
    reg = np.array([l2] * len(names) + [0.0])
    beta = np.zeros(len(names) + 1)
    for _ in range(300):
        p = 1.0 / (1.0 + np.exp(-x @ beta))
        gradient = x.T @ (w * (p - y)) + reg * beta
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(reg) + 1e-9 * np.eye(len(beta))
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        clipped = (~free) & (beta < 0)
        beta[clipped] = 0.0
        if np.abs(step).max() < 1e-8 and not clipped.any():
            break
    return dict(zip(names, beta[:-1].tolist())), float(beta[-1])


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "fit", help="refit the grouping model's coefficients on tangled commits",
        description="Refit the grouping model on the untangle benchmark's cases and give its coefficients.",
    )
    p.add_argument("repos", nargs="+", metavar="REPO", help="repositories (or bundles) with history")
    p.add_argument("--k", type=int, nargs="+", default=[2, 3], help="commits tangled per case (default 2 3)")
    p.add_argument("--n", type=int, default=80, help="cases per repository and k (default 80)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--until", metavar="DATE", help="only cases before DATE (YYYY-MM-DD); keep later ones held out")
    p.add_argument("--json", action="store_true", help="the coefficients as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    until = parse_day(args.until, "--until")
    rows: list[Row] = []
    for repo in args.repos:
        with Workspace(repo) as workspace:
            for k in args.k:
                for tangle in tangles(workspace, k, args.n, args.seed, until=until):
                    rows.extend(case_rows(tangle))
    if not rows:
        raise SegmintError("No tangled cases to fit on: the histories have no eligible commits")
    coefficients, bias = fit(rows)
    size_prior = coefficients.pop(SIZE)
    text = "\n".join([
        "FITTED: dict[str, float] = {",
        *(f'    "{name}": {coefficients[name]:.2f},' for name in sorted(coefficients)),
        "}",
        f"bias = {bias:.2f}",
        f"size_prior = {size_prior:.2f}",
    ])
    return BenchReport({"coefficients": coefficients, "bias": bias, "size_prior": size_prior}, text)
