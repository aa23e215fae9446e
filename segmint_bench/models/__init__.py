"""Grouping models the product does not ship, kept to be measured beside it.

The benchmarks fit and score them (``segmint bench untangle``, ``segmint bench fit``):
a merge model deciding each merge (``merging.py``), boosted trees over a pair's
evidence (``boosted.py``), the greedy centroid clustering Segmint started from
(``seed.py``), and the pair model shipped before the refit on seven histories,
fit on click and httpx (``model_v1.json``, ``V1``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from segmint_bench.models.boosted import Trees
from segmint_bench.models.merging import MergeModel
from segmint_core.grouping.model import Model


def read_model(data: dict) -> Model:
    """A model as ``segmint bench fit --out`` writes it, with its merge model and trees when it has them."""
    pair = data["pair"]
    merge = MergeModel.from_dict(data["merge"]) if data.get("merge") else None
    trees = Trees.from_dict(pair["trees"]) if pair.get("trees") else None
    return replace(Model.from_dict(data), merge=merge, trees=trees)


def load_model(path: Path) -> Model:
    with open(path, encoding="utf-8") as f:
        return read_model(json.load(f))


# The baseline of ``segmint bench untangle``.
V1 = load_model(Path(__file__).with_name("model_v1.json"))
