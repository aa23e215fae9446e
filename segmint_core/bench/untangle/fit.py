"""``segmint bench fit``: refitting the grouping model on tangled commits.

    segmint bench fit REPO [REPO ...] [--k 2 3] [--n 80] [--first-parent] [--until 2021-01-01]

gives ``FITTED``, ``bias`` and ``size_prior`` for ``segmint_core/grouping/model.py``,
as Python to paste there (or as JSON with ``--json``). The leave-one-out table
(``segmint bench untangle --leave-one-out``) fits the same way on all but one
repository.

Every pair of units in a case is a training row (``pairs.py``). The fit is an
L2-regularised logistic regression by Newton's method, evidence kinds clipped
at zero (a link is never evidence *against*), plus ``ln(files)`` for the size prior.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

import numpy as np

from segmint_core.bench import BenchReport
from segmint_core.bench.untangle.cache import Cache
from segmint_core.bench.untangle.features import Sample
from segmint_core.bench.untangle.pairs import SIZE, Design, PairRows, fit_logistic, pair_rows
from segmint_core.errors import SegmintError
from segmint_core.grouping.model import DEFAULT, HAND_SET, OVERRIDES, Model

def fit_model(samples: Iterable[Sample]) -> Model:
    """The model fit on these cases (those of two or more commits; one commit has no pair to tell apart)."""
    parts = [_rows(s) for s in samples if s.k >= 2]
    design = Design.stack(parts)
    if not len(design.same):
        raise SegmintError("No tangled cases to fit on: the histories have no eligible commits")
    free = np.array([n.startswith("kinds:") or n == SIZE for n in design.names])
    beta, bias = fit_logistic(design, free)
    coefficients = dict(zip(design.names, beta.tolist()))
    size_prior = coefficients.pop(SIZE)
    return Model(coefficients={**coefficients, **OVERRIDES, **HAND_SET}, bias=bias, size_prior=size_prior)


def _rows(sample: Sample) -> PairRows:
    if "pair_rows" not in sample.memo:
        sample.memo["pair_rows"] = pair_rows(sample, DEFAULT)
    return sample.memo["pair_rows"]


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    from segmint_core.bench.untangle import add_selection_options

    p = subparsers.add_parser(
        "fit", help="refit the grouping model on tangled commits",
        description="Refit the grouping model on the untangle benchmark's cases of any set of "
                    "repositories and give its coefficients.",
    )
    p.add_argument("repos", nargs="+", metavar="REPO", help="repositories (or bundles) with history")
    p.add_argument("--k", type=int, nargs="+", default=[2, 3], help="commits tangled per case (default 2 3)")
    p.add_argument("--n", type=int, default=80, help="cases per repository and k (default 80)")
    add_selection_options(p)
    p.add_argument("--calibration", action="store_true",
                   help="instead, the confidence calibration fit on these cases with the shipped model, "
                        "as the JSON of segmint_core/grouping/calibration.json")
    p.add_argument("--json", action="store_true", help="the coefficients as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    from segmint_core.bench.timing import progress
    from segmint_core.bench.untangle import selections
    from segmint_core.bench.untangle.features import load_samples

    samples: list[Sample] = []
    cache = Cache(args.cache)
    for repo in args.repos:
        for selection in selections(args, args.k):
            samples.extend(load_samples(repo, selection, cache, progress))
    if args.calibration:
        from segmint_core.bench.untangle.calibration import fit_calibration
        from segmint_core.jsonio import to_json

        calibration = fit_calibration(samples, DEFAULT).to_dict()
        return BenchReport(calibration, to_json(calibration))
    model = fit_model(samples)
    coefficients = {k: v for k, v in model.coefficients.items() if k not in HAND_SET and k not in OVERRIDES}
    text = "\n".join([
        "FITTED: dict[str, float] = {",
        *(f'    "{name}": {coefficients[name]:.2f},' for name in sorted(coefficients)),
        "}",
        f"bias = {model.bias:.2f}",
        f"size_prior = {model.size_prior:.2f}",
    ])
    return BenchReport({"coefficients": coefficients, "bias": model.bias, "size_prior": model.size_prior}, text)

