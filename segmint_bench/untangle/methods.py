"""What the leave-one-out table compares, each a function from a sample to a label per scored line.

The engine runs from the sample's cached units and links (the same
``cluster`` and hunk cutting as ``group_changes``, without summaries), so a
model can be scored on thousands of cases in seconds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from segmint_bench.models.seed import seed_labels
from segmint_bench.untangle import labels as baseline
from segmint_bench.untangle.features import Sample
from segmint_core.changes.split import part_ranges
from segmint_core.config import Settings
from segmint_core.grouping import group_changes
from segmint_core.grouping.assemble import cut_hunks
from segmint_core.grouping.engine import cluster
from segmint_core.grouping.model import Model
from segmint_core.grouping.models import ChangeGroup, Grouping
from segmint_core.grouping.units import Unit

Predict = Callable[[Sample], list]


def unit_line_labels(sample: Sample, units: list[Unit], labels: list[int]) -> list[int]:
    """Each scored line's label once hunks are cut where their atoms' labels change."""
    cut = cut_hunks(units, labels)
    out = []
    for hunk_id, index in sample.tangle.keys:
        cuts = cut.splits.get(hunk_id)
        if not cuts:
            out.append(cut.hunk_label[hunk_id])
            continue
        parts = part_ranges(sample.tangle.changes.hunk(hunk_id).lines, cuts)
        number = next(n for n, (start, end) in enumerate(parts, start=1) if start <= index < end)
        out.append(cut.hunk_label[f"{hunk_id}.{number}"])
    return out


def engine(model: Model) -> Predict:
    def predict(sample: Sample) -> list:
        return unit_line_labels(
            sample, sample.units, cluster(sample.units, sample.links, model, sample.files, sample.house)
        )

    return predict


def refined(settings: Settings, provider: str, tally: Counter) -> Predict:
    """The engine's grouping as ``group_changes`` makes it, then refined by the chat model (one
    refinement per case, as ``segmint group --refine`` asks); ``tally`` counts cases applied and kept."""
    from segmint_core.grouping.refine import ask

    def predict(sample: Sample) -> list:
        changes = sample.tangle.changes
        grouping = group_changes(changes, provider=provider, timeline=None)
        refinement = ask(settings, grouping.changes, grouping.groups)
        tally["applied" if refinement.proposals else "kept"] += 1
        tally.update(f"note: {note.split(': ', 1)[-1][:60]}" for note in refinement.notes)
        hunkless = {c.id for c in grouping.changes if not c.hunks}
        items = {g.id: g.hunk_ids + [c for c in g.change_ids if c in hunkless] for g in grouping.groups}
        groups = [
            ChangeGroup(gid, [i for i in members if i in hunkless], [i for i in members if i not in hunkless], "", [])
            for gid, members in refinement.regrouped(items).items()
        ]
        return baseline.grouping_labels(
            Grouping(grouping.changes, groups, grouping.splits), changes, sample.tangle.keys
        )

    return predict


def seed(sample: Sample) -> list:
    changes = sample.tangle.changes
    grouping = group_changes(changes, labeller=seed_labels, timeline=None)
    return baseline.grouping_labels(grouping, changes, sample.tangle.keys)


def per_file(sample: Sample) -> list:
    return baseline.per_file(sample.tangle.changes, sample.tangle.keys)


def per_hunk(sample: Sample) -> list:
    return baseline.per_hunk(sample.tangle.changes, sample.tangle.keys)


def all_in_one(sample: Sample) -> list:
    return baseline.all_in_one(sample.tangle.changes, sample.tangle.keys)


def oracle_hunks(sample: Sample) -> list:
    return baseline.hunk_majority(sample.tangle.truth, sample.tangle.keys)


def oracle_atoms(sample: Sample) -> list:
    """The best grouping of the engine's own atoms: each to the commit owning most of its lines."""
    owners = sample.owners()
    labels = [owner[0] if owner is not None else -1 - n for n, owner in enumerate(owners)]
    return unit_line_labels(sample, sample.units, labels)


BASELINES: dict[str, Predict] = {
    "seed": seed,
    "per-file": per_file,
    "all-in-one": all_in_one,
    "per-hunk": per_hunk,
    "ceiling: hunks": oracle_hunks,
    "ceiling: atoms": oracle_atoms,
}
