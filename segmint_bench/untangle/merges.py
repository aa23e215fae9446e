"""Training rows of the merge model, and its fit.

Each case is clustered twice with the pair model -- once merging every
candidate (the whole dendrogram), once with v1's fixed threshold -- and every
candidate merge the clustering met is a row: the two clusters' features, the
share of their line pairs that belong to one commit (a soft label), and the
product of their scored lines as the weight, normalised so each case and
path counts once (a single commit's case half as much). The fit is a
logistic regression on standardised features.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np

from segmint_bench.untangle.features import Sample
from segmint_bench.untangle.logistic import logistic
from segmint_core.grouping import graph
from segmint_bench.models.merging import MergeModel, agglomerate
from segmint_core.grouping.model import Model

Row = tuple[dict[str, float], float, float]
# A single commit's case weighs half a tangled one's: every merge in it is right, and at full
# weight the fit joins two commits' small trees as one (docs/experiments/untangling.md:
# held out, 0.5 keeps k=2 level).
SINGLE_WEIGHT = 0.5


def link_kinds(samples: Iterable[Sample]) -> tuple[str, ...]:
    """Every kind of link (before any ":") in these cases, sorted."""
    return tuple(sorted({item.kind.split(":", 1)[0] for s in samples for item in s.links}))


def merge_rows(sample: Sample, model: Model, kinds: tuple[str, ...]) -> list[Row]:
    owners = sample.owners()
    units, links = sample.units, sample.links
    affinity = graph.affinities(links, units, model)
    weights = [float(max(1, u.size)) for u in units]
    together = graph.forced_pairs(links)
    probe = MergeModel((), (), (), (), 0.0, 0.5, kinds)
    threshold = model.threshold(sample.files)
    rows: list[Row] = []
    for decide in (lambda values: True, lambda values: values["mean"] >= threshold):
        seen: list[Row] = []

        def observe(values: dict[str, float], a: list[int], b: list[int], merged: bool) -> None:
            lines_a, lines_b = _lines(owners, a), _lines(owners, b)
            total_a, total_b = sum(lines_a.values()), sum(lines_b.values())
            if total_a and total_b:
                same = sum(n * lines_b.get(commit, 0) for commit, n in lines_a.items())
                seen.append((dict(values), same / (total_a * total_b), float(total_a * total_b)))

        agglomerate(units, affinity, weights, links, sample.files, probe, together, decide=decide, observe=observe)
        total = sum(w for _, _, w in seen) or 1.0
        share = SINGLE_WEIGHT if sample.k == 1 else 1.0
        rows += [(values, label, share * w / total) for values, label, w in seen]
    return rows


def _lines(owners: list[tuple[int, int] | None], members: list[int]) -> Counter:
    out: Counter = Counter()
    for unit in members:
        owner = owners[unit]
        if owner is not None:
            out[owner[0]] += owner[1]
    return out


def fit_merge_model(rows: list[Row], kinds: tuple[str, ...], threshold: float, l2: float = 1e-3) -> MergeModel:
    names = sorted({name for values, _, _ in rows for name in values})
    x = np.array([[values.get(name, 0.0) for name in names] for values, _, _ in rows])
    y = np.array([label for _, label, _ in rows])
    w = np.array([weight for _, _, weight in rows])
    center = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.column_stack([(x - center) / scale, np.ones(len(x))])
    beta = np.zeros(z.shape[1])
    reg = np.full(z.shape[1], l2)
    reg[-1] = 0.0
    for _ in range(100):
        p = logistic(z @ beta)
        gradient = z.T @ (w * (p - y)) + reg * beta
        hessian = (z * (w * p * (1 - p))[:, None]).T @ z + np.diag(reg) + 1e-9 * np.eye(len(beta))
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return MergeModel(
        tuple(names),
        _rounded(center),
        _rounded(scale),
        _rounded(beta[:-1]),
        round(float(beta[-1]), 6),
        threshold,
        kinds,
        _rounded(x.min(axis=0)),
        _rounded(x.max(axis=0)),
    )


def _rounded(values: np.ndarray) -> tuple[float, ...]:
    return tuple(np.round(values, 6).tolist())
