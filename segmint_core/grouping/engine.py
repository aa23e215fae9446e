"""``group_changes``: from a ChangeSet to groups of hunks, one per intent.

units (hunk atoms) -> embeddings -> signal links -> average-linkage clusters
-> hunks cut where their atoms landed in different clusters -> ordered groups
with summaries and reasons. Same input, same output: every step iterates in
file order and breaks ties by position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from segmint_core.changes import ChangeSet
from segmint_core.changes.models import Change
from segmint_core.config import Settings
from segmint_core.cycles import cycles_left_uncollected
from segmint_core.git import Git
from segmint_core.grouping import companions, graph, leftovers, one_intent, siblings, signals, vendored
from segmint_core.grouping.assemble import cut_hunks, effective_changes, ordered_groups
from segmint_core.grouping.embeddings import get_provider
from segmint_core.grouping.embeddings.base import EmbeddingProvider, embedding_text
from segmint_core.grouping.history import History
from segmint_core.grouping.model import DEFAULT, Model, offline_model
from segmint_core.grouping.models import ChangeGroup, Grouping
from segmint_core.grouping import provenance as by_intent
from segmint_core.grouping.reasons import ACROSS, MAX_REASONS, group_reasons
from segmint_core.grouping.links import Link
from segmint_core.grouping.signals import cochange, similarity
from segmint_core.grouping.signals.base import Context
from segmint_core.grouping.summaries import GroupText, describe
from segmint_core.grouping.repository import Repository
from segmint_core.grouping.timeline import lookup_provenance, lookup_timeline
from segmint_core.grouping.units import Unit, build_units
from segmint_core.wording import capitalized

Progress = Callable[[int, int, str], None]
# Another clustering of the units, one label per unit from (changes, units, embedder, progress):
# the benchmarks compare the engine's with others through it.
Labeller = Callable[[list[Change], list[Unit], EmbeddingProvider, Progress | None], list[int]]


@cycles_left_uncollected
def group_changes(
    changes: ChangeSet,
    *,
    change_ids: list[str] | None = None,
    provider: str = "local",
    labeller: Labeller | None = None,
    settings: Settings | None = None,
    timeline: Any = ...,
    progress: Progress | None = None,
    root: str | None = None,
    model: Model | None = None,
    provenance: Any = ...,
) -> Grouping:
    """Group the selected changes' hunks by intent.

    ``timeline``: ``{hunk id: HunkHistory}`` from the trajectory recorder; by
    default it is looked up under ``root`` (or ``changes.root``) when there is
    one, ``None`` turns it off. ``provenance``: the intents recorded for each
    line (``trajectory.provenance``), looked up the same way; lines recorded
    under one task are grouped together and apart from other tasks. ``progress(done, total, message)`` is called
    during long steps. ``labeller``: cluster the units with it instead of the
    engine's links (which then only explain the groups). ``settings`` (default: loaded from the environment when
    needed) configure remote providers and model-written summaries; ``model`` (default: the offline model
    ``settings`` ask for, with the one-intent gate unless ``prefer_one_commit`` is off; without
    ``settings``, the pair model alone) links and clusters the units.
    """
    if model is None:
        model = offline_model(settings.prefer_one_commit) if settings is not None else DEFAULT
    selected = changes.resolve_changes(change_ids) if change_ids is not None else list(changes.changes)
    embedder = get_provider(provider, settings)
    root = root or getattr(changes, "root", None)
    if timeline is ...:
        timeline = lookup_timeline(root, changes)
    if provenance is ...:
        provenance = lookup_provenance(root, changes)
    if provenance is not None and not provenance.recorded():
        provenance = None
    repository = Repository(Git(root) if root else None)
    units = repository.units(selected, _cuts(selected, provenance, timeline))
    history = repository.history() if cochange.weighed(model) else None
    # Read only when the gate is asked: a change clustering leaves in one group never reads the history.
    house = (lambda: (history or repository.history()).sizes) if model.one_intent is not None else None
    recorded = None
    if labeller is not None:
        labels = labeller(selected, units, embedder, progress)
        links = _links(units, embedder, model, timeline, progress, history, embed=False)  # for the reasons only
    else:
        links = _links(units, embedder, model, timeline, progress, history)
        _report(progress, 0, 1, "clustering")
        if provenance is None:
            labels = cluster(units, links, model, len(selected), house)
        else:
            recorded = Recorded.of(units, provenance)
            labels = by_intent.labels_by_intent(
                units,
                links,
                model,
                len(selected),
                recorded.task_of_unit,
                by_intent.unit_steps(units, provenance, recorded.owner_of_unit),
                recorded.prompts(),
                recorded.claims,
                by_intent.unit_timing(units, provenance, recorded.task_of_unit),
                lambda: cluster(units, links, model, len(selected), house),
            )
    labels = vendored.kept_whole(units, labels)
    grouping = _assemble(selected, units, labels, links, model, settings, progress, recorded)
    offline = model is DEFAULT or model is offline_model(prefer_one_commit=True)  # the gate leaves the links alone
    if labeller is None and provider == "local" and timeline is None and offline and recorded is None:
        grouping.evidence = (units, links)  # what ``evidence(units)`` would compute again
    return grouping


def _cuts(selected: list[Change], provenance: Any, timeline: Any) -> dict[str, list[int]] | None:
    """Where hunks are cut beyond their atoms: where the recorded intent of their lines changes, and
    where the commit that wrote them does (a split range's commits, known line by line)."""
    cuts = by_intent.line_cuts(selected, provenance) if provenance else {}
    for hunk_id, history in (timeline or {}).items():
        if more := history.cuts():
            cuts[hunk_id] = sorted({*cuts.get(hunk_id, ()), *more})
    return cuts or None


@dataclass
class Recorded:
    """What provenance says of a grouping's units: the intent and task of each, the tasks."""

    provenance: Any
    tasks: by_intent.Tasks
    owner_of_unit: list[str | None]
    task_of_unit: list[str | None]
    claims: dict[int, str] = field(default_factory=dict)  # unrecorded unit -> the task whose prompt named it

    @classmethod
    def of(cls, units: list[Unit], provenance: Any) -> "Recorded":
        owners = by_intent.unit_owners(units, provenance)
        tasks = by_intent.tasks_of(provenance, by_intent.in_play(provenance, owners))
        return cls(provenance, tasks, owners, [tasks.task_of.get(o) if o else None for o in owners])

    def prompts(self) -> dict[str, str]:
        """Per task, the text of all its prompts."""
        found: dict[str, list[str]] = {}
        for intent in sorted(self.tasks.task_of, key=by_intent.intent_number):
            if intent in self.provenance.intents:
                found.setdefault(self.tasks.task_of[intent], []).append(self.provenance.intents[intent].text)
        return {task: "\n".join(texts) for task, texts in found.items()}

    def describe(self, members: set[int]) -> tuple[list[str], str | None, list[str]]:
        """For a group's units: the reasons naming its prompts, the summary its task gives (None when
        most of its lines were not recorded), and its intents in order."""
        from segmint_core.trajectory.provenance.prompts import actionable

        intents: list[str] = sorted(
            {owner for i in members if (owner := self.owner_of_unit[i])}, key=by_intent.intent_number
        )
        named = [
            self.provenance.intents[t]
            for t in sorted({self.claims[i] for i in members if i in self.claims}, key=by_intent.intent_number)
        ]
        if not intents:
            return by_intent.provenance_reasons([], self.tasks, 0, named), None, []
        known = [self.provenance.intents[i] for i in intents if i in self.provenance.intents]
        unrecorded = sum(1 for i in members if self.owner_of_unit[i] is None and i not in self.claims)
        reasons = by_intent.provenance_reasons(known, self.tasks, unrecorded, named)
        openers = [i for i in known if i.id not in self.tasks.follows] or known
        clause = actionable(openers[0].text) if openers else ""
        summary = capitalized(clause) if clause and unrecorded * 2 <= len(members) else None
        return reasons, summary, intents


@cycles_left_uncollected
def evidence(units: list[Unit], model: Model = DEFAULT, history: History | None = None) -> list[Link]:
    """The links between units that ``group_changes`` computes offline, without a timeline;
    ``history``: the repository's (``Repository.history``), for its co-changes."""
    return _links(units, get_provider("local"), model, None, None, history)


def cluster(
    units: list[Unit], links: list[Link], model: Model, files: int, house: one_intent.House = None
) -> list[int]:
    """A cluster label per unit, from the links between units of a change set of ``files`` files;
    ``house``: the files each recent commit of the repository touched (``History.sizes``), or what
    reads them, for the gate."""
    affinity = graph.affinities(links, units, model)
    weights = [float(max(1, u.size)) for u in units]  # a unit counts for its changed lines
    together = graph.forced_pairs(links)
    if model.merge is None:
        labels = graph.average_linkage(len(units), affinity, model.threshold(files), weights, together=together)
    else:
        labels = model.merge.cluster(units, affinity, weights, links, files, together)
    labels = companions.joined_to_their_code(units, links, leftovers.kept_with_their_file(units, labels))
    labels = siblings.joined(units, labels)
    return one_intent.joined_if_one(model.one_intent, units, labels, affinity, model.threshold(files), files, house)


def summarize_group(
    changes: list[Change],
    hunk_ids: list[str],
    *,
    change_ids: list[str] | None = None,
    settings: Settings | None = None,
) -> tuple[str, list[str]]:
    """Summary and reasons for any set of hunks (as when a person or agent reshapes groups).

    ``changes`` are effective changes (split hunks as sub-hunks). A hunkless
    change (rename, mode change, binary) is a member when its id is in
    ``change_ids``, or, without ``change_ids``, when it is among ``changes``.
    Evidence is recomputed from these hunks alone, with the offline provider.
    """
    text, reasons = describe_group(changes, hunk_ids, change_ids=change_ids, settings=settings)
    return text.summary, reasons


def describe_group(
    changes: list[Change],
    hunk_ids: list[str],
    *,
    change_ids: list[str] | None = None,
    settings: Settings | None = None,
) -> tuple[GroupText, list[str]]:
    """Like ``summarize_group``, keeping the note a failed model summary leaves."""
    wanted = set(hunk_ids)
    hunkless = set(change_ids) if change_ids is not None else {c.id for c in changes if not c.hunks}
    members = [
        c.with_hunks([h for h in c.hunks if h.id in wanted])
        for c in changes
        if any(h.id in wanted for h in c.hunks) or (not c.hunks and c.id in hunkless)
    ]
    units = build_units(members)
    links = _links(units, get_provider("local"), DEFAULT, None, None)
    reasons = group_reasons(units, links, set(range(len(units))), DEFAULT)
    return describe(members, units, wanted, reasons, settings), reasons


def _links(
    units: list[Unit],
    embedder: EmbeddingProvider,
    model: Model,
    timeline: Any,
    progress: Progress | None,
    history: History | None = None,
    *,
    embed: bool = True,
) -> list[Link]:
    vectors = None
    if embed and len(units) > 1:
        texts = [embedding_text(u.path, u.hunk.header if u.hunk else "", u.lines) for u in units]
        sparse = getattr(embedder, "embed_sparse", None)  # the local provider's: rows as their nonzeros
        vectors = (
            sparse(texts, progress) if sparse and similarity.coarse(len(units)) else embedder.embed(texts, progress)
        )
    _report(progress, 0, 1, "linking")
    ctx = Context(units, model, timeline, vectors, embedder.similarity_floor, history=history)
    return signals.collect(ctx)


def _assemble(
    selected: list[Change],
    units: list[Unit],
    labels: list[int],
    links: list[Link],
    model: Model,
    settings: Settings | None,
    progress: Progress | None,
    recorded: Recorded | None = None,
) -> Grouping:
    cut = cut_hunks(units, labels)
    effective = effective_changes(selected, cut)
    groups = ordered_groups(effective, cut)
    intents = _explain(groups, effective, units, labels, links, model, settings, progress, recorded)
    return Grouping(effective, list(groups.values()), cut.splits, intents=intents)


def _explain(
    groups: dict[int, ChangeGroup],
    effective: list[Change],
    units: list[Unit],
    labels: list[int],
    links: list[Link],
    model: Model,
    settings: Settings | None,
    progress: Progress | None,
    recorded: Recorded | None = None,
) -> dict[str, list[str]]:
    """Fill each group's reasons (from the links inside it) and summary."""
    members: dict[int, set[int]] = {label: set() for label in groups}
    inside: dict[int, list[Link]] = {label: [] for label in groups}
    for unit, label in zip(units, labels):
        members[label].add(unit.index)
    for item in links:
        first, second = labels[item[0]], labels[item[1]]  # item.a, item.b: indexing is quicker on 10^5 links
        if first == second:
            inside[first].append(item)
        elif item.kind in ACROSS:  # repelling evidence explains both groups it kept apart
            inside[first].append(item)
            inside[second].append(item)
    position = {c.id: i for i, c in enumerate(effective)}  # a group's changes in order, without reading them all
    total = len(groups)
    coarse = [coarse_reason(len(units))] if similarity.coarse(len(units)) else []
    intents: dict[str, list[str]] = {}
    for n, (label, group) in enumerate(groups.items()):
        _report(progress, n, total, "summarizing groups")
        group.reasons = group_reasons(units, inside[label], members[label], model, others=total > 1) + coarse
        changes = [effective[i] for i in sorted(position[c] for c in set(group.change_ids) if c in position)]
        member_units = [units[i] for i in sorted(members[label])]
        told, summary, ids = recorded.describe(members[label]) if recorded is not None else ([], None, [])
        if told and not ids:
            group.reasons = told + group.reasons[: MAX_REASONS - len(told)]
        if ids and recorded is not None:  # (only a record names intents)
            intents[group.id] = ids
            evidence = group.reasons if any(recorded.owner_of_unit[i] is None for i in members[label]) else []
            group.reasons = told + evidence[: max(1, MAX_REASONS - len(told))]
        if summary is not None:
            group.summary = summary
        else:
            text = describe(changes, member_units, set(group.hunk_ids), group.reasons, settings)
            group.summary, group.note = text.summary, text.note
    _report(progress, total, total, "summarizing groups")
    return intents


def coarse_reason(units: int) -> str:
    """What a group of a change set too large to compare every unit with every other says of it."""
    return (
        f"grouped on coarser evidence: {units:,} units are more than the {similarity.FULL_UNITS:,} whose "
        f"texts are all compared, so text similarity was weighed only between units sharing an uncommon word"
    )


def _report(progress: Progress | None, done: int, total: int, message: str) -> None:
    if progress is not None:
        progress(done, total, message)
