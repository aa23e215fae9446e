"""Grouping by recorded provenance: lines written under one task go together, two tasks never meet.

The recorded intents come first. Hunks are cut wherever the intent of their
changed lines changes (finer than hunks, down to single lines), and every
atom written under an intent is put in its task's group before any evidence
is weighed. A task is an intent and the follow-ups that join it: a later
prompt of the same agent session worded as going on with it ("now also ...",
"that broke the test, fix it"). Two tasks never share a group: the clustering
is told they cannot link. Lines with no intent recorded go through the
offline engine as always, and join a task's group only where the engine's own
evidence would merge them with the whole of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from collections import Counter
from dataclasses import dataclass, field

from segmint_core.changes.models import Change
from segmint_core.grouping import graph, lexicon
from segmint_core.grouping.model import Model
from segmint_core.grouping.links import Link
from segmint_core.grouping.signals.files import SAME_DIRECTORY, SAME_STEM
from segmint_core.grouping.signals.proximity import NEARBY, SAME_FILE, SAME_HUNK
from segmint_core.grouping.signals.timeline import DIFFERENT_BURST, SAME_BURST
from segmint_core.grouping.units import Unit
from segmint_core.trajectory.provenance.attribution import Provenance
from segmint_core.trajectory.provenance.capture import Intent
from segmint_core.trajectory.provenance.prompts import is_follow_up

CHANGED = ("+", "-")
# Links that only say where lines sit: not evidence enough for unrecorded lines to join a task.
POSITIONAL = frozenset({SAME_FILE, SAME_HUNK, NEARBY, SAME_DIRECTORY, SAME_STEM})
APART = -1e15  # the affinity that keeps two tasks apart: no mean over their pairs can reach a threshold
SILENT_SLACK = 3600.0  # seconds before the first recorded edit a prompt may have been given
QUOTED = 60  # characters of a prompt quoted in a reason


@dataclass
class Tasks:
    """Which task each recorded intent belongs to, and the follow-ups that joined one."""

    task_of: dict[str, str] = field(default_factory=dict)  # intent id -> the task's opening intent id
    follows: dict[str, str] = field(default_factory=dict)  # follow-up intent id -> the intent it goes on with


def line_cuts(changes: list[Change], provenance: Provenance) -> dict[str, list[int]]:
    """Per hunk, the line indices before which the intent of its changed lines changes."""
    cuts: dict[str, list[int]] = {}
    for change in changes:
        for hunk in change.hunks:
            owners = provenance.owners.get(hunk.id)
            if not owners or not any(owners):
                continue
            found, previous, seen = [], None, False
            for i, line in enumerate(hunk.lines):
                if line[:1] not in CHANGED:
                    continue
                owner = owners[i] if i < len(owners) else None
                if seen and owner != previous:
                    found.append(i)
                previous, seen = owner, True
            if found:
                cuts[hunk.id] = found
    return cuts


def in_play(provenance: Provenance, owners: list[str | None]) -> set[str]:
    """The intents that matter to this tree: those owning lines, and those given since its first
    recorded edit (a task whose edits all went unrecorded still names what it asked for)."""
    present = {o for o in owners if o is not None}
    if provenance.since is not None:
        present |= {i.id for i in provenance.intents.values() if i.created >= provenance.since - SILENT_SLACK}
    return present


def tasks_of(provenance: Provenance, present: set[str]) -> Tasks:
    """Group the recorded intents into tasks: a prompt worded as a follow-up joins the task of the
    prompt before it in the same agent session, unless that one was declared finished."""
    tasks = Tasks()
    last_in_session: dict[tuple[str, str], Intent] = {}
    for intent in sorted(provenance.intents.values(), key=lambda i: (i.created, i.number)):
        key = (intent.source, intent.session_id or "")
        before = last_in_session.get(key)
        last_in_session[key] = intent
        if before is not None and before.id not in provenance.ended and is_follow_up(intent.text):
            tasks.task_of[intent.id] = tasks.task_of.get(before.id, before.id)
            tasks.follows[intent.id] = before.id
        else:
            tasks.task_of[intent.id] = intent.id
    # Only what the tree holds matters; a follow-up whose task left nothing keeps its own id.
    return Tasks(
        {i: t for i, t in tasks.task_of.items() if i in present},
        {i: t for i, t in tasks.follows.items() if i in present},
    )


def unit_owners(units: list[Unit], provenance: Provenance) -> list[str | None]:
    """Each unit's intent: the one that wrote most of its recorded lines (None: nothing recorded)."""
    found: list[str | None] = []
    for unit in units:
        votes: Counter[str] = Counter()
        spans = (
            [(unit.hunk, unit.start, unit.end)]
            if unit.hunk is not None
            else [(h, 0, len(h.lines)) for h in unit.change.hunks]
        )
        for hunk, start, end in spans:
            owners = provenance.owners.get(hunk.id, [])
            for i in range(start, min(end, len(owners))):
                owner = owners[i]
                if owner is not None and hunk.lines[i][:1] in CHANGED:
                    votes[owner] += 1
        if not votes and unit.hunk is None:
            owner = provenance.files.get(unit.change.id)
            found.append(owner)
            continue
        found.append(min(votes, key=lambda o: (-votes[o], intent_number(o))) if votes else None)
    return found


def labels_by_intent(
    units: list[Unit],
    links: list[Link],
    model: Model,
    files: int,
    task_of_unit: list[str | None],
    step_of_unit: list[str | None],
    prompts: dict[str, str] | None = None,
    claims: dict[int, str] | None = None,
) -> list[int]:
    """A cluster label per unit: tasks first, then the unrecorded units where the evidence takes them
    (``constrained_labels``, ``named_by_a_prompt``, then ``joined_by_strong_links``). Unrecorded
    lines written in one step (found in one snapshot) are one burst of editing: the timeline's burst
    weights apply. ``prompts``: per task, the words of its prompts (a task may have no recorded line);
    ``claims`` is filled with the units a prompt's words took, and the task they went to."""
    affinity = graph.affinities(links, units, model)
    if None in task_of_unit:
        telling = graph.affinities(
            [item for item in links if item.kind.split(":", 1)[0] not in POSITIONAL], units, model
        )
        affinity = with_bursts(across_tasks(affinity, telling, task_of_unit), task_of_unit, step_of_unit, model)
    labels = constrained_labels(units, affinity, model, files, task_of_unit, graph.forced_pairs(links))
    if None not in task_of_unit:
        return labels
    labels = named_by_a_prompt(labels, units, task_of_unit, prompts, claims)
    return joined_by_strong_links(
        labels, affinity, model.threshold(files), task_of_unit, [float(max(1, u.size)) for u in units]
    )


def across_tasks(
    affinity: dict[tuple[int, int], float], telling: dict[tuple[int, int], float], task_of_unit: list[str | None]
) -> dict[tuple[int, int], float]:
    """Between an unrecorded unit and a recorded one, only the evidence that tells (``telling``:
    without where the lines sit): lines left unrecorded beside a task's lines were written by
    someone else, so sitting in its file is no reason to join it."""
    found = {}
    for pair, value in affinity.items():
        a, b = pair
        if (task_of_unit[a] is None) != (task_of_unit[b] is None):
            if pair in telling:
                found[pair] = telling[pair]
        else:
            found[pair] = value
    return found


def with_bursts(
    affinity: dict[tuple[int, int], float], task_of_unit: list[str | None], step_of_unit: list[str | None], model: Model
) -> dict[tuple[int, int], float]:
    """``affinity`` with the timeline's burst evidence on every linked pair involving an unrecorded
    unit: written in the same step, together; in another step or under a task, apart (weakly)."""
    same, apart = model.coefficient(SAME_BURST), model.coefficient(DIFFERENT_BURST)
    adjusted = dict(affinity)
    for (a, b), value in affinity.items():
        first, second = step_of_unit[a], step_of_unit[b]
        if first is None and second is None:
            continue
        origin_a, origin_b = first or task_of_unit[a], second or task_of_unit[b]
        if origin_a is None or origin_b is None:
            continue
        adjusted[(a, b)] = value + (same if origin_a == origin_b else apart)
    return adjusted


def unit_steps(units: list[Unit], provenance: Provenance, owners: list[str | None]) -> list[str | None]:
    """Each unrecorded unit's step (the one that brought most of its lines); None for recorded units."""
    found: list[str | None] = []
    for unit, owner in zip(units, owners):
        if owner is not None or unit.hunk is None:
            found.append(None)
            continue
        row = provenance.unrecorded.get(unit.hunk.id, [])
        votes = Counter(row[i] for i in range(unit.start, min(unit.end, len(row))) if row[i] is not None)
        found.append(min(votes, key=lambda s: (-votes[s], s)) if votes else None)
    return found


def constrained_labels(
    units: list[Unit],
    affinity: dict[tuple[int, int], float],
    model: Model,
    files: int,
    task_of_unit: list[str | None],
    forced: Sequence[tuple[int, int]] = (),
) -> list[int]:
    """A cluster label per unit: each task's units start together, tasks cannot link, the rest
    clusters by the offline evidence (average linkage at the model's threshold). ``forced``: pairs
    the engine always joins (a release's changelog entry and its version bump), kept where they
    join unrecorded units, or units of one task."""
    affinity = dict(affinity)
    first_of: dict[str, int] = {}
    together = [(a, b) for a, b in forced if task_of_unit[a] == task_of_unit[b]]
    for i, task in enumerate(task_of_unit):
        if task is None:
            continue
        if task in first_of:
            together.append((first_of[task], i))
        else:
            first_of[task] = i
    reps = list(first_of.values())
    for n, a in enumerate(reps):
        for b in reps[n + 1 :]:
            affinity[(a, b)] = APART
    weights = [float(max(1, u.size)) for u in units]
    return graph.average_linkage(len(units), affinity, model.threshold(files), weights, together=together)


def named_by_a_prompt(
    labels: list[int],
    units: list[Unit],
    task_of_unit: list[str | None],
    prompts: dict[str, str] | None,
    claims: dict[int, str] | None = None,
) -> list[int]:
    """``labels`` with each group holding no recorded unit given to a task none of whose edits were
    recorded, when its prompts, and no other task's, name something the group changes (a name, a
    version, a file's stem)."""
    if not prompts:
        return labels
    words = {task: _prompt_words(text) for task, text in prompts.items()}
    task_label: dict[str, int] = {}
    for i, task in enumerate(task_of_unit):
        if task is not None:
            task_label.setdefault(task, labels[i])
    taken = set(task_label.values())
    loose: dict[int, set[str]] = {}
    for i, label in enumerate(labels):
        if label not in taken:
            loose.setdefault(label, set()).update(_unit_names(units[i]))
    fresh = max(labels, default=0) + 1
    moved: dict[int, int] = {}
    for label, names in loose.items():
        naming = [task for task in sorted(words) if words[task] & names]
        if len(naming) != 1 or naming[0] in task_label:  # a task with lines of its own has links to weigh
            continue
        if naming[0] not in task_label:
            task_label[naming[0]], fresh = fresh, fresh + 1
        moved[label] = task_label[naming[0]]
        if claims is not None:
            claims.update((i, naming[0]) for i, held in enumerate(labels) if held == label)
    return [moved.get(label, label) for label in labels]


def _prompt_words(text: str) -> set[str]:
    return {w.lower().strip(".,:;!?`'\"()[]") for w in text.split()} - {""}


def _unit_names(unit: Unit) -> set[str]:
    """What a unit changes, as a prompt would name it: specific names (5 characters or more, or
    with a digit), lower-cased."""
    names = set(unit.defines) | set(unit.idents) | set(unit.mentions) | {lexicon.stem(unit.path)}
    if unit.scope:
        names.add(unit.scope)
    return {n.lower() for n in names if len(n) >= 5 or any(ch.isdigit() for ch in n)} - lexicon.STOP_WORDS


def joined_by_strong_links(
    labels: list[int],
    affinity: dict[tuple[int, int], float],
    threshold: float,
    task_of_unit: list[str | None],
    weights: list[float],
) -> list[int]:
    """``labels`` with each group still holding no recorded unit moved into a task it has a strong
    link to (one link that alone would merge two units: at least ``threshold``); of several such
    tasks, the one with the highest mean affinity to the group (weighted by changed lines)."""
    task_label: dict[str, int] = {}
    task_weight: dict[int, float] = {}  # task label -> its units' summed weight
    for i, task in enumerate(task_of_unit):
        if task is not None:
            task_label.setdefault(task, labels[i])
    label_task = {label: task for task, label in task_label.items()}
    for i, label in enumerate(labels):
        if label in label_task:
            task_weight[label] = task_weight.get(label, 0.0) + weights[i]
    strong: dict[int, set[int]] = {}  # loose group -> task labels it has a strong link to
    total: dict[tuple[int, int], float] = {}  # (loose group, task label) -> weighted sum of affinities
    for (a, b), value in affinity.items():
        for loose, other in ((a, b), (b, a)):
            group, target = labels[loose], labels[other]
            if group in label_task or target not in label_task:
                continue
            total[(group, target)] = total.get((group, target), 0.0) + weights[loose] * weights[other] * value
            if value >= threshold:
                strong.setdefault(group, set()).add(target)
    moved: dict[int, int] = {}
    for group, tasks in strong.items():
        moved[group] = max(sorted(tasks), key=lambda t: total.get((group, t), 0.0) / task_weight[t])
    return [moved.get(label, label) for label in labels]


def provenance_reasons(intents: list[Intent], tasks: Tasks, unrecorded: int, named: Sequence[Intent] = ()) -> list[str]:
    """The sentences that say where a group's lines came from: the prompts, then the follow-ups joined."""
    reasons = [f"written under prompt {i.number}: {quoted(i.text)}" for i in intents if i.id not in tasks.follows]
    reasons += [f"named in prompt {i.number}: {quoted(i.text)}" for i in named if i not in intents]
    for intent in intents:
        if intent.id in tasks.follows:
            before = tasks.follows[intent.id]
            reasons.append(
                f"prompt {intent.number} ({quoted(intent.text)}) follows up prompt {intent_number(before)} "
                "in the same session"
            )
    if unrecorded:
        reasons.append(f"{unrecorded} unrecorded part{'s' if unrecorded != 1 else ''} joined by the evidence below")
    return reasons


def quoted(text: str) -> str:
    flat = " ".join(text.split())
    return f"'{flat}'" if len(flat) <= QUOTED else f"'{flat[: QUOTED - 1].rstrip()}…'"


def intent_number(intent_id: str) -> int:
    try:
        return int(intent_id.rsplit("-", 1)[-1])
    except ValueError:
        return 0
