"""Training rows of the cut model, and its fit.

Each case's dendrogram is built with the pair model; every level is a row,
scored by the ARI of its partition over the case's scored lines (each unit's
lines counted under the commit that made them; kept incrementally, merge by
merge). The fit is a conditional logit over each case's levels: the target
puts ``exp(ARI / temperature)`` on each level, so the fit leans to each
case's best cuts, and every case counts once; then gradient ascent on the
mean expected ARI of the level it picks. The leave-one-out table scores it
(``graph, cut model``) beside two cuts no model can make, which say what the
choice of cut is worth: the level with the best ARI and the level with as
many groups as commits. It is not shipped (docs/experiments/untangling.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from segmint_bench.untangle import cutting
from segmint_bench.untangle.cutting import CutModel, Levels
from segmint_bench.untangle.features import Sample
from segmint_bench.untangle.methods import Predict, unit_line_labels
from segmint_core.grouping import graph
from segmint_core.grouping.model import Model
from segmint_core.grouping.unions import unions

TEMPERATURE = 0.03
STEPS = 300  # of gradient ascent on the expected ARI, after the conditional logit


@dataclass
class CaseLevels:
    levels: Levels
    ari: np.ndarray  # per level
    commits: int


def case_levels(sample: Sample, model: Model) -> CaseLevels:
    units, links = sample.units, sample.links
    affinity = graph.affinities(links, units, model)
    weights = [float(max(1, u.size)) for u in units]
    together = graph.forced_pairs(links)
    found = cutting.levels(
        [u.path for u in units], affinity, weights, together, sample.files, model.threshold(sample.files)
    )
    return CaseLevels(found, level_ari(found, _votes(sample)), sample.k)


def predictors(model: Model, training: list[Sample]) -> dict[str, Predict]:
    """The dendrogram of ``model`` cut three ways: where a cut model fit on ``training`` scores
    best, at the level with the best ARI (a ceiling), and at as many groups as commits."""
    fitted = fit_cut_model([case_levels(s, model) for s in training])
    memo: dict[int, CaseLevels] = {}

    def levels_of(sample: Sample) -> CaseLevels:
        if id(sample) not in memo:
            memo[id(sample)] = case_levels(sample, model)
        return memo[id(sample)]

    def chosen(sample: Sample, pick) -> list:
        found = levels_of(sample)
        return unit_line_labels(sample, sample.units, found.levels.labels(pick(found)))

    return {
        CUT: lambda s: chosen(s, lambda c: int(np.argmax(fitted.scores(c.levels.names, c.levels.rows)))),
        BEST_CUT: lambda s: chosen(s, lambda c: int(np.argmax(c.ari))),
        TRUE_K: lambda s: chosen(s, lambda c: max(0, len(c.levels.merges) + 1 - s.k)),
    }


CUT = "graph, cut model"
BEST_CUT = "ceiling: best cut"
TRUE_K = "cut at the true k"


def level_ari(found: Levels, votes: list[Counter]) -> np.ndarray:
    """The ARI over scored lines of every level's partition, from one pass over the merges."""
    n = found.size
    content = [Counter(v) for v in votes]
    lines = [sum(v.values()) for v in votes]
    for keep, gone in unions(n, found.together):
        content[keep].update(content[gone])
        lines[keep] += lines[gone]
        content[gone], lines[gone] = Counter(), 0
    total = sum(lines)
    commits: Counter = Counter()
    for v in votes:
        commits.update(v)
    cols = sum(x * (x - 1) / 2 for x in commits.values())
    both = sum(x * (x - 1) / 2 for c in content for x in c.values())
    rows = sum(x * (x - 1) / 2 for x in lines)
    out = [_ari(both, rows, cols, total)]
    for keep, gone in found.merges:
        a, b = content[keep], content[gone]
        both += sum(x * b.get(c, 0) for c, x in a.items())
        rows += lines[keep] * lines[gone]
        a.update(b)
        lines[keep] += lines[gone]
        content[gone], lines[gone] = Counter(), 0
        out.append(_ari(both, rows, cols, total))
    return np.array(out)


def _ari(both: float, rows: float, cols: float, n: int) -> float:
    if n < 2:
        return 1.0
    expected = rows * cols / (n * (n - 1) / 2)
    maximum = (rows + cols) / 2
    if maximum == expected:
        return 1.0 if both == rows == cols else 0.0
    return (both - expected) / (maximum - expected)


def _votes(sample: Sample) -> list[Counter]:
    truth = sample.tangle.truth
    out = []
    for unit in sample.units:
        if unit.hunk is None:
            out.append(Counter())
            continue
        out.append(Counter(truth[(unit.hunk.id, i)] for i in range(unit.start, unit.end) if (unit.hunk.id, i) in truth))
    return out


def fit_cut_model(
    cases: list[CaseLevels],
    temperature: float = TEMPERATURE,
    l2: float = 1.0,
    steps: int = STEPS,
    rate: float = 0.05,
    tangled_weight: float = 1.0,
) -> CutModel:
    """A conditional logit over each case's levels, by Newton's method; then ``steps`` of
    gradient ascent on the expected ARI of the level it picks."""
    names = cases[0].levels.names
    x = np.vstack([c.levels.rows for c in cases])
    center, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - center) / scale
    sizes = np.array([len(c.ari) for c in cases])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    segment = np.repeat(np.arange(len(cases)), sizes)
    target = np.concatenate([_softmax(c.ari / temperature) for c in cases])
    # Cases of more than one commit may weigh more, so single commits kept whole are not bought with them.
    case_weight = np.array([1.0 if c.commits <= 1 else tangled_weight for c in cases])
    row_weight = case_weight[segment]
    beta = np.zeros(z.shape[1])
    for _ in range(50):
        s = z @ beta
        s -= np.maximum.reduceat(s, starts)[segment]
        e = np.exp(s)
        p = e / np.add.reduceat(e, starts)[segment]
        gradient = z.T @ (row_weight * (p - target)) + l2 * beta
        mean = np.add.reduceat(z * p[:, None], starts)  # per case: E_p[z]
        hessian = (
            (z * (row_weight * p)[:, None]).T @ z - (mean * case_weight[:, None]).T @ mean + l2 * np.eye(len(beta))
        )
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    if steps:
        ari = np.concatenate([c.ari for c in cases])
        beta = _expected_ari(z, ari * row_weight, starts, segment, beta, l2 / len(cases), steps, rate)
    return CutModel(names, _rounded(center), _rounded(scale), _rounded(beta))


def _expected_ari(z, ari, starts, segment, beta, l2, steps, rate):
    """Adam on the mean over cases of E_p[ARI] - l2 |beta|^2 / 2."""
    m = np.zeros_like(beta)
    v = np.zeros_like(beta)
    cases = len(starts)
    for t in range(1, steps + 1):
        s = z @ beta
        s -= np.maximum.reduceat(s, starts)[segment]
        e = np.exp(s)
        p = e / np.add.reduceat(e, starts)[segment]
        mean = np.add.reduceat(p * ari, starts)[segment]
        gradient = z.T @ (p * (ari - mean)) / cases - l2 * beta
        m = 0.9 * m + 0.1 * gradient
        v = 0.999 * v + 0.001 * gradient**2
        beta = beta + rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return beta


def _softmax(values: np.ndarray) -> np.ndarray:
    e = np.exp(values - values.max())
    return e / e.sum()


def _rounded(values: np.ndarray) -> tuple[float, ...]:
    return tuple(np.round(values, 6).tolist())
