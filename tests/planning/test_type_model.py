"""The type model: the house's evidence for each type, weighed by weights fit on other houses."""

from __future__ import annotations

import numpy as np

from segmint_core.planning.style import HouseStyle
from segmint_core.planning.precedent import Precedent
from segmint_core.planning.type_model import (
    EVIDENCE,
    Candidates,
    TypeModel,
    choose,
    fit,
    fit_classifier,
    house_classifier,
    load_model,
    save_model,
)


def _case(real: str, near: dict[str, float], rule: str) -> tuple[Candidates, str]:
    types = sorted(set(near) | {rule, real})
    rows = [
        [near.get(t, 0.0)] * 3 + [near.get(t, 0.0), float(t == rule), float(t == rule), 0.3, np.log(0.31)]
        for t in types
    ]
    return Candidates(types, np.array(rows)), real


def test_fit_weighs_the_evidence_that_named_the_engineers_type() -> None:
    """Past commits named the real type in most cases, the rules in few: the neighbours weigh more."""
    cases = [_case("fix", {"fix": 1.0}, "docs") for _ in range(8)] + [_case("docs", {"fix": 1.0}, "docs")]
    model = fit(cases)
    assert model == fit(cases)  # deterministic: same cases, same weights
    near, rule = model.weights[EVIDENCE.index("near3")], model.weights[EVIDENCE.index("rule")]
    assert near > rule
    assert choose(model, _case("fix", {"fix": 1.0}, "docs")[0]) == "fix"


def test_a_case_whose_type_is_no_candidate_teaches_nothing() -> None:
    found, _ = _case("fix", {"feat": 1.0}, "feat")
    assert "perf" not in found.types
    assert fit([(found, "perf")]).weights == (0.0,) * len(EVIDENCE)


def test_shipped_model_loads_and_round_trips(tmp_path) -> None:
    shipped = load_model()
    assert len(shipped.weights) == len(EVIDENCE)
    assert shipped.weights[EVIDENCE.index("near8")] > 0 and shipped.weights[EVIDENCE.index("house")] > 0
    save_model(TypeModel((1.0,) * len(EVIDENCE)), tmp_path / "m.json")
    assert load_model(tmp_path / "m.json").weights == (1.0,) * len(EVIDENCE)


def test_house_classifier_learns_which_features_go_with_which_type() -> None:
    past = [Precedent(("k:doc", "s:contributing"), "fix", "docs")] * 5 + [
        Precedent(("k:doc", "s:guide"), "docs", None)
    ] * 5
    found = fit_classifier(past)
    assert found.probabilities(("k:doc", "s:contributing"))["fix"] > 0.5
    assert found.probabilities(("k:doc", "s:guide"))["docs"] > 0.5
    assert fit_classifier([]).probabilities(("k:doc",)) == {}


def test_house_classifier_is_fit_once_per_style() -> None:
    style = HouseStyle(seen=20, conventional=20, precedents=[Precedent(("k:code",), "feat", None)])
    assert house_classifier(style) is house_classifier(style)
