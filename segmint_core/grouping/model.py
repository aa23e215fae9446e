"""How evidence becomes a decision: the pair model and when groups merge, loaded from data.

Signals emit raw strengths (a rarity, a distance decay, a cosine). Per pair
of units, the strengths of each kind are added up (``log1p`` for kinds that
pile up, like many shared names), multiplied by the kind's coefficient and
summed, plus a coefficient for the two units' file kinds when linked: the
pair's log-odds of sharing an intent, less the bias and the size prior
(``bias + size_prior * ln(min(files, 5))``, the log-odds of two units with no
link). That is the pair model; ``probability.py`` turns it into P(same intent).

Clusters merge best first by the mean of that affinity over all their unit
pairs (average linkage), while the mean is at least ``threshold(files)``.

A model may also carry a merge rule that decides each merge from what the two
clusters look like, and a lift added to a linked pair's affinity (boosted
trees). The benchmarks fit and measure both (``segmint bench untangle``); the
shipped model carries neither (docs/experiments/untangling.md: held out, the
merge rule keeps more single commits whole but tells fewer tangled ones apart,
and the trees gain at k=3 only), so the product holds only what they answer to.
A gate asking, after clustering, whether the whole change is one intent
(``one_intent.py``) is held to cost tangled trees little (held out it keeps
more single commits whole, and k=2 and k=3 move within their error), so the
offline engine asks it unless ``prefer_one_commit`` is off: its model then
carries the gate fit on the nine histories (``one_intent.json``, as
``segmint bench fit --one-intent`` prints it); ``DEFAULT`` is the pair model alone.

The pair model ships as data, ``model.json``, as ``segmint bench fit --out``
writes it: fit on the seven histories, two changelog kinds set to 0
(docs/experiments/untangling.md: held out it beats the model fit on click and
httpx alone at every k; the confidence calibration, ``calibration.json``, is
fit with it). The timeline coefficients have no history to learn from and are
set by hand.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

    from segmint_core.grouping.links import Link
    from segmint_core.grouping.one_intent import OneIntent
    from segmint_core.grouping.pair_evidence import PairEvidence
    from segmint_core.grouping.units import Unit


class MergeRule(Protocol):
    """Clusters units by deciding each merge itself, instead of the threshold on mean affinity."""

    def cluster(
        self,
        units: list[Unit],
        affinity: dict[tuple[int, int], float],
        weights: list[float],
        links: list[Link],
        files: int,
        together: list[tuple[int, int]],
    ) -> list[int]: ...

    def to_dict(self) -> dict[str, Any]: ...


class PairLift(Protocol):
    """What is added to each linked pair's affinity beyond the weighted sum of its links."""

    def lift(self, evidence: PairEvidence, units: list[Unit]) -> np.ndarray: ...

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Model:
    coefficients: dict[str, float] = field(default_factory=dict)
    bias: float = -4.35
    # Prior on the number of intents: with more files changed, any two are
    # likelier to share one (log-odds += size_prior * ln(files)).
    size_prior: float = 2.30
    # Files beyond this add nothing: the fit saw 1-16 files, and trees far
    # larger (a hundred new files) hold many intents, not one big one.
    size_prior_cap: int = 5
    # Structural limits (not learned): they keep cost linear in large change sets.
    max_shared_units: int = 12  # a name more units use says nothing
    same_file_scale: float = 80.0  # lines over which the nearness of two edits halves
    file_window: int = 40  # units of one file each unit is paired with
    near_window: int = 8
    similarity_neighbours: int = 8
    file_pair_cap: int = 256  # unit pairs expanded for one pair of files
    merge: MergeRule | None = None  # None: merge while the mean affinity is at least ``threshold``
    trees: PairLift | None = None  # added to a linked pair's affinity
    one_intent: OneIntent | None = None  # after clustering: the whole change in one group where it says so

    def coefficient(self, kind: str) -> float:
        return self.coefficients.get(kind, 0.0)

    def threshold(self, files: int) -> float:
        """Minus the log-odds of two units with no link, in a change set of ``files`` files:
        the mean affinity two groups need to merge."""
        return -(self.bias + self.size_prior * math.log(min(max(files, 1), self.size_prior_cap)))

    def to_dict(self) -> dict:
        pair = {
            "coefficients": {k: round(v, 6) for k, v in sorted(self.coefficients.items()) if k not in HAND_SET},
            "bias": round(self.bias, 6),
            "size_prior": round(self.size_prior, 6),
        }
        if self.trees is not None:
            pair["trees"] = self.trees.to_dict()
        return {"pair": pair, **({"merge": self.merge.to_dict()} if self.merge else {})}

    @classmethod
    def from_dict(cls, data: dict) -> "Model":
        """The pair model of ``data``; a merge rule or trees in it are read by the benchmarks that fit them."""
        pair = data["pair"]
        return cls(
            coefficients={**pair["coefficients"], **HAND_SET},
            bias=float(pair["bias"]),
            size_prior=float(pair["size_prior"]),
        )


HAND_SET = {
    "same_intent": 3.0,  # recorded under the same intent by the trajectory recorder
    "same_burst": 1.0,  # edited within one burst of snapshots
    # Both recorded under intents, none shared: the person named them apart. Strong
    # enough that two edits of one file with every diff-only link (same file,
    # nearby, shared names: about +4) still lean apart; weaker pulls cannot undo it.
    # A stale intent joins by mistake (+3 above); a switched one rarely does.
    "different_intent": -8.0,
    "different_burst": -0.5,  # both have a history, never in the same burst, intents silent
}

MODEL_FILE = Path(__file__).with_name("model.json")
ONE_INTENT_FILE = Path(__file__).with_name("one_intent.json")


@lru_cache(maxsize=4)
def load_model(path: Path) -> Model:
    """A model written by ``segmint bench fit``."""
    with open(path, encoding="utf-8") as f:
        return Model.from_dict(json.load(f))


DEFAULT = load_model(MODEL_FILE)


def offline_model(prefer_one_commit: bool = False) -> Model:
    """The model the offline engine groups with: the shipped one, with the one-intent gate when asked."""
    return _with_gate() if prefer_one_commit else DEFAULT


@lru_cache(maxsize=1)
def _with_gate() -> Model:
    from segmint_core.grouping.one_intent import OneIntent

    with open(ONE_INTENT_FILE, encoding="utf-8") as f:
        return replace(DEFAULT, one_intent=OneIntent.from_dict(json.load(f)))
