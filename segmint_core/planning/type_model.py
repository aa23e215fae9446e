"""The Conventional type of a change: the house's own evidence, weighed by a model fit on other houses.

Each type the house uses is a candidate, described by what this house's history
says for it: the shares of the 1, 3 and 8 past commits most like the change
that carry it (``precedent.vote``), the probability a classifier fit on the
whole history gives it (``HouseClassifier``: a softmax regression over the
past commits' features), whether the offline rules give it, and how often the
house writes it. A conditional logit over these, with one weight per evidence
and the same weights for every house, picks the candidate. The weights ship as
data, ``type_model.json``, written by ``segmint bench messages --leave-one-out
... --save-type-model``, which fits them on the largest proposals of the
benchmark's cases (docs/guide/commit-messages.md has the held-out figures).
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from segmint_core.planning import messages
from segmint_core.planning.facts import Facts
from segmint_core.planning.precedent import Precedent, Touched, content_features, features, vote
from segmint_core.planning.style import HouseStyle

if TYPE_CHECKING:
    import numpy as np

# numpy is imported where a type is chosen, not with the module: opening a session must not pay for it.

EVIDENCE = ("near1", "near3", "near8", "house", "ours", "rule", "prior", "log_prior")
MODEL_FILE = Path(__file__).with_name("type_model.json")
CLASSIFIER_L2 = 1.0
CLASSIFIER_STEPS = 100
STEP = 0.5
PRIOR_FLOOR = 0.01  # a type the house never wrote still has a finite log prior
KEPT_CLASSIFIERS = 8  # house classifiers kept in memory (one per house style learned)


@dataclass(frozen=True)
class TypeModel:
    weights: tuple[float, ...]  # one per EVIDENCE

    def to_dict(self) -> dict:
        return {"evidence": list(EVIDENCE), "weights": list(self.weights)}

    @classmethod
    def from_dict(cls, data: dict) -> "TypeModel":
        if tuple(data["evidence"]) != EVIDENCE:
            raise ValueError("type model written for other evidence")
        return cls(tuple(float(w) for w in data["weights"]))


def load_model(path: Path = MODEL_FILE) -> TypeModel:
    return TypeModel.from_dict(json.loads(path.read_text("utf-8")))


def save_model(model: TypeModel, path: Path = MODEL_FILE) -> None:
    path.write_text(json.dumps(model.to_dict(), indent=1) + "\n", "utf-8")


@dataclass
class Candidates:
    types: list[str]
    evidence: np.ndarray  # one row per type, one column per EVIDENCE


def candidates(style: HouseStyle, facts: Facts, touched: list[Touched], rule: str, ours: str | None) -> Candidates:
    """The house's types (and the rules' own), each with what the house's history says for it."""
    import numpy as np

    wanted = features(touched) + content_features(facts, rule)
    why = messages.intent(facts)
    pool = [p for p in style.precedents if p.intent == why] if why else style.precedents
    pool = pool or style.precedents
    near = {k: vote(pool, wanted, lambda p: p.type, k=k).shares() for k in (1, 3, 8)}
    house = house_classifier(style).probabilities(wanted)
    total = sum(style.types.values()) or 1
    types = sorted(set(style.types) | {rule} | ({ours} if ours else set()))
    rows = []
    for t in types:
        prior = style.types.get(t, 0) / total
        rows.append(
            [
                near[1].get(t, 0.0),
                near[3].get(t, 0.0),
                near[8].get(t, 0.0),
                house.get(t, 0.0),
                float(t == ours),
                float(t == rule),
                prior,
                math.log(prior + PRIOR_FLOOR),
            ]
        )
    return Candidates(types, np.array(rows, dtype=float).reshape(len(types), len(EVIDENCE)))


def choose(model: TypeModel, found: Candidates) -> str:
    import numpy as np

    scores = found.evidence @ np.array(model.weights)
    return found.types[int(np.argmax(scores))]


def fit(cases: list[tuple[Candidates, str]], l2: float = 0.01, steps: int = 2000) -> TypeModel:
    """The weights making each case's real type most likely among its candidates (a conditional
    logit, fit by gradient descent from zero: deterministic). Cases whose real type is not a
    candidate teach nothing and are left out."""
    import numpy as np

    rows = [(c.evidence, c.types.index(real)) for c, real in cases if real in c.types]
    w = np.zeros(len(EVIDENCE))
    if not rows:
        return TypeModel(tuple(w))
    for _ in range(steps):
        grad = l2 * w
        for x, y in rows:
            p = _softmax(x @ w)
            grad += (x.T @ p - x[y]) / len(rows)
        w -= STEP * grad
    return TypeModel(tuple(float(v) for v in w))


@dataclass
class HouseClassifier:
    """A softmax regression from a past commit's features to the type its author wrote."""

    types: list[str]
    vocabulary: dict[str, int]
    weights: np.ndarray  # (features + bias) x types

    def probabilities(self, wanted: tuple[str, ...]) -> dict[str, float]:
        import numpy as np

        if not self.types:
            return {}
        x = np.zeros(len(self.vocabulary) + 1)
        x[-1] = 1.0
        for f in wanted:
            if f in self.vocabulary:
                x[self.vocabulary[f]] = 1.0
        return dict(zip(self.types, _softmax(x @ self.weights).tolist()))


_classifiers: OrderedDict[int, tuple[HouseStyle, HouseClassifier]] = OrderedDict()


def house_classifier(style: HouseStyle) -> HouseClassifier:
    """The classifier of ``style``'s history, fit once per style object."""
    kept = _classifiers.get(id(style))
    if kept is not None and kept[0] is style:
        _classifiers.move_to_end(id(style))
        return kept[1]
    found = fit_classifier(style.precedents)
    _classifiers[id(style)] = (style, found)
    while len(_classifiers) > KEPT_CLASSIFIERS:
        _classifiers.popitem(last=False)
    return found


def fit_classifier(precedents: list[Precedent]) -> HouseClassifier:
    import numpy as np

    typed = [(p, p.type) for p in precedents if p.type]
    types = sorted({t for _, t in typed})
    vocabulary: dict[str, int] = {}
    for p, _ in typed:
        for f in p.features:
            vocabulary.setdefault(f, len(vocabulary))
    x = np.zeros((len(typed), len(vocabulary) + 1))
    x[:, -1] = 1.0
    y = np.zeros((len(typed), len(types)))
    for i, (p, kind) in enumerate(typed):
        x[i, [vocabulary[f] for f in p.features]] = 1.0
        y[i, types.index(kind)] = 1.0
    w = np.zeros((x.shape[1], len(types)))
    n = max(len(typed), 1)
    for _ in range(CLASSIFIER_STEPS if typed else 0):
        w -= STEP * (x.T @ (_softmax(x @ w) - y) / n + CLASSIFIER_L2 * w / n)
    return HouseClassifier(types, vocabulary, w)


def _softmax(z: np.ndarray) -> np.ndarray:
    import numpy as np

    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
