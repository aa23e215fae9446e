"""``segmint bench fit``: the grouping model fit on tangled commits of any set of histories.

    segmint bench fit REPO [REPO ...] [--k 1 2 3] [--n 100] [--first-parent] [--trees N] [--out FILE]

writes the model as data (``segmint_core/grouping/model.json`` is one such
file); with ``--calibration``, instead, the confidence calibration fit with
the shipped model (``segmint_core/grouping/calibration.json``). The
leave-one-out table (``segmint bench untangle --leave-one-out``) fits the same
way on all but one repository.

Up to three parts, fit one after the other on the same cases:

- the pair model: every pair of units in a case of two or more commits is a
  row (``pairs.py``; a single commit has no pair to tell apart); an
  L2-regularised logistic regression by Newton's method, evidence kinds
  clipped at zero (a link is never evidence *against*), plus ``ln(files)``
  for the size prior.
- with ``--trees N``, boosted trees on the same rows, each correcting the
  log-odds so far (``boosting.py``); ``BOOSTING`` says what the shipped
  model carries.
- with ``--merge-threshold P``, the merge model too: every merge the
  clustering considers, with that pair model, in cases of every k (single
  commits included), is a row (``merges.py``); a logistic regression on what
  the two clusters look like, merging at P or more. It is not in the shipped
  model (docs/experiments/untangling.md: held out it keeps more single
  commits whole but tells fewer tangled ones apart, and splits the demo's docs from their code); without
  it the engine merges while the mean affinity beats v1's threshold.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from segmint_bench import BenchReport
from segmint_bench.untangle.boosting import Boosting, add_boosting_options, boosting_option, fit_trees
from segmint_bench.untangle.cache import Cache
from segmint_bench.untangle.features import Sample
from segmint_bench.untangle.merges import fit_merge_model, link_kinds, merge_rows
from segmint_bench.untangle.pairs import SIZE, Design, PairRows, fit_logistic, pair_rows
from segmint_core.errors import SegmintError
from segmint_bench.models.boosted import Trees
from segmint_core.grouping.model import DEFAULT, HAND_SET, Model
from segmint_core.wording import counted

MERGE_THRESHOLD = 0.6
# The trees of the shipped pair model (None: linear only). docs/experiments/untangling.md: what they add held out.
BOOSTING: Boosting | None = None
# Set to 0 after the fit, as in v1. The seven histories weigh two changelog
# entries in one file as one intent (about 2.6 and 1.6), and with that weight
# the confidence offers to split the demo's changelog entry from the code it
# names (tests/tui/test_confidence.py). Held out (docs/experiments/untangling.md) zeroing them costs
# about 0.015 of single commits kept whole and nothing at k=2 or 3.
ZEROED = ("kinds:changelog+changelog", "same_file:changelog")


def fit_model(
    samples: Iterable[Sample], *, merge_threshold: float | None = None, boosting: Boosting | None = None
) -> Model:
    """The pair model fit on these cases (with ``boosting``, trees after its linear part), and with
    ``merge_threshold`` the merge model after it."""
    samples = list(samples)
    pair = fit_pair_model([s for s in samples if s.k >= 2])
    if boosting is not None:
        pair = with_trees(pair, fit_trees([s for s in samples if s.k >= 2], pair, boosting))
    if merge_threshold is None:
        return pair
    kinds = link_kinds(samples)
    rows = [row for s in samples for row in merge_rows(s, pair, kinds)]
    if not rows:
        return pair
    return replace(pair, merge=fit_merge_model(rows, kinds, merge_threshold))


def fit_pair_model(samples: list[Sample]) -> Model:
    design = Design.stack(_rows(s) for s in samples)
    if not len(design.same):
        raise SegmintError("No tangled cases to fit on: the histories have no eligible commits")
    free = np.array([n.startswith("kinds:") or n == SIZE for n in design.names])
    beta, bias = fit_logistic(design, free)
    coefficients = dict(zip(design.names, beta.tolist()))
    size_prior = coefficients.pop(SIZE)
    coefficients.update({kind: 0.0 for kind in ZEROED if kind in coefficients})
    return Model(coefficients={**coefficients, **HAND_SET}, bias=bias, size_prior=size_prior)


def with_trees(model: Model, trees: Trees) -> Model:
    """``model`` with ``trees`` added, their value for an unlinked pair in its bias."""
    return replace(model, bias=model.bias + trees.zero, trees=trees)


def _rows(sample: Sample) -> PairRows:
    if "pair_rows" not in sample.memo:
        sample.memo["pair_rows"] = pair_rows(sample, DEFAULT)
    return sample.memo["pair_rows"]


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    from segmint_bench.untangle import add_selection_options

    p = subparsers.add_parser(
        "fit",
        description="Fit the grouping model (the pair model; with --merge-threshold the merge model too) "
        "on the untangle benchmark's cases of any set of repositories, and write it as data.",
    )
    p.add_argument("repos", nargs="+", metavar="REPO", help="repositories (or bundles) with history")
    p.add_argument("--k", type=int, nargs="+", default=[1, 2, 3], help="commits tangled per case (default 1 2 3)")
    p.add_argument("--n", type=int, default=100, help="cases per repository and k (default 100)")
    add_selection_options(p)
    p.add_argument(
        "--calibration",
        action="store_true",
        help="instead, the confidence calibration fit on these cases with the shipped model, "
        "as the JSON of segmint_core/grouping/calibration.json",
    )
    p.add_argument(
        "--one-intent",
        action="store_true",
        help="instead, the one-intent gate fit on these cases with the shipped pair model, "
        "as the JSON of segmint_core/grouping/one_intent.json (prefer_one_commit's gate; --out writes it there)",
    )
    p.add_argument(
        "--merge-threshold",
        type=float,
        metavar="P",
        help=f"also fit the merge model, merging two clusters when it gives at least P "
        f"(the leave-one-out table tries {MERGE_THRESHOLD}); without it, v1's threshold rule",
    )
    add_boosting_options(p, BOOSTING, "fit")
    p.add_argument(
        "--out",
        metavar="FILE",
        help="write the model there (segmint_core/grouping/model.json is the shipped one); "
        "without it, the model is printed",
    )
    p.add_argument("--json", action="store_true", help="print the model as JSON (as without --out)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    from segmint_bench.timing import progress
    from segmint_bench.untangle import selections
    from segmint_bench.untangle.corpus import repo_name
    from segmint_bench.untangle.features import load_samples

    if args.merge_threshold is not None and not 0.0 < args.merge_threshold < 1.0:
        raise SegmintError("--merge-threshold is a probability between 0 and 1")
    boosting = boosting_option(args)
    chosen = selections(args, args.k)
    samples: list[Sample] = []
    cache = Cache(args.cache)
    for repo in args.repos:
        for selection in chosen:
            samples.extend(load_samples(repo, selection, cache, progress))
    if args.calibration:
        from segmint_bench.untangle.calibration import fit_calibration
        from segmint_core.jsonio import to_json

        calibration = fit_calibration(samples, DEFAULT).to_dict()
        return BenchReport(calibration, to_json(calibration))
    if args.one_intent:
        from segmint_bench.untangle.one_intent import fit_one_intent
        from segmint_core.jsonio import to_json

        gate = fit_one_intent(samples, DEFAULT)
        if gate is None:
            raise SegmintError("No split trees of one commit and of several among these cases: no gate to fit")
        if args.out:
            _write(args.out, to_json(gate.to_dict()))
            return BenchReport(gate.to_dict(), f"wrote {args.out}: one-intent gate, cutoff {gate.cutoff:.3f}")
        return BenchReport(gate.to_dict(), to_json(gate.to_dict()))
    progress(f"fitting on {counted(len(samples), 'case')}")
    model = fit_model(samples, merge_threshold=args.merge_threshold, boosting=boosting)
    first = chosen[0]
    data = {
        "about": "Fit by segmint bench fit on tangled commits of these histories; see segmint_core/grouping/model.py.",
        "fitted_on": {
            "repos": [repo_name(r) for r in args.repos],
            "k": list(args.k),
            "n": args.n,
            "seed": first.seed,
            "first_parent": first.first_parent,
            "cases": len(samples),
        },
        **model.to_dict(),
    }
    text = json.dumps(data, indent=1)
    if args.out:
        _write(args.out, text)
        merge = f"merge model of {len(model.merge.features)} features" if model.merge else "no merge model"
        trees = f" and {counted(len(model.trees.values), 'tree')}" if model.trees else ""
        text = (
            f"wrote {args.out}: pair model of {len(model.coefficients) - len(HAND_SET)} coefficients{trees}, "
            f"{merge}, fit on {counted(len(samples), 'case')}"
        )
    return BenchReport(data, text)


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    except OSError as exc:
        raise SegmintError(f"Cannot write the model to {path}: {exc.strerror}") from None
