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

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field

from segmint_core.changes.models import Change
from segmint_core.grouping import graph, lexicon
from segmint_core.grouping.model import Model
from segmint_core.grouping.links import Link
from segmint_core.grouping.signals import dependencies
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


@dataclass
class Timing:
    """Where in the record each unrecorded unit was found and each task asked for: lines found
    before a task was asked for are not its work."""

    found_of_unit: list[int | None]  # the latest snapshot that found one of its lines (None: on disk only)
    asked: dict[str, int]  # task -> its first prompt

    def excluded(self, unit: int, tasks: Iterable[str]) -> set[str]:
        """The tasks ``unit`` cannot belong to: asked for after its lines were found."""
        found = self.found_of_unit[unit]
        if found is None:
            return set()
        return {task for task in tasks if self.asked.get(task, -1) > found}


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
    prompt before it in the same agent session, unless that one was declared finished; or an earlier
    task of the session whose prompts it names more of ("now also document the undefined links of
    res.links" after a res.links task and then another)."""
    tasks = Tasks()
    last_in_session: dict[tuple[str, str], Intent] = {}
    prompts_of: dict[str, list[Intent]] = {}  # task id -> its prompts, in order
    for intent in sorted(provenance.intents.values(), key=lambda i: (i.created, i.number)):
        key = (intent.source, intent.session_id or "")
        before = last_in_session.get(key)
        last_in_session[key] = intent
        if before is not None and before.id not in provenance.ended and is_follow_up(intent.text):
            task = _followed_task(intent, tasks.task_of.get(before.id, before.id), prompts_of, key)
            tasks.task_of[intent.id] = task
            tasks.follows[intent.id] = prompts_of[task][-1].id
        else:
            tasks.task_of[intent.id] = intent.id
        prompts_of.setdefault(tasks.task_of[intent.id], []).append(intent)
    # Only what the tree holds matters; a follow-up whose task left nothing keeps its own id.
    return Tasks(
        {i: t for i, t in tasks.task_of.items() if i in present},
        {i: t for i, t in tasks.follows.items() if i in present},
    )


def _followed_task(intent: Intent, previous: str, prompts_of: dict[str, list[Intent]], session: tuple[str, str]) -> str:
    """The task a follow-up goes on with: the previous one, unless the opening prompt of an earlier
    task of the same session says more of the names in code the follow-up says (a file named by
    several tasks' follow-ups says nothing of which task it is)."""
    words = _prompt_names(intent.text)

    def shared(task: str) -> int:
        return len(words & _prompt_names(prompts_of[task][0].text))  # what the task was asked as

    best, most = previous, shared(previous)
    for task, prompts in prompts_of.items():
        if (prompts[0].source, prompts[0].session_id or "") == session and shared(task) > most:
            best, most = task, shared(task)
    return best


def _prompt_names(text: str) -> set[str]:
    """The names in code a prompt says (``res.links``, ``sendStatus``, ``core.py``, ``load_config``),
    lower-cased: its other words ("fix", "update", "tests") would tie any two tasks."""
    return {w.strip(".,:;!?`'\"()[]<>").lower() for w in text.split() if _CODE_NAME.search(w)}


_CODE_NAME = re.compile(r"\w[._]\w|[a-z][A-Z]|\w\(")  # a dotted or snake name, camelCase, a call


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
    timing: Timing | None = None,
    offline: Callable[[], list[int]] | None = None,
) -> list[int]:
    """A cluster label per unit: tasks first, then the unrecorded units where the evidence takes them
    (``constrained_labels``, ``named_by_a_prompt``, then ``unrecorded_placed``). An unrecorded unit
    the engine always joins to one task's unit (a release's version bump and its changelog entry;
    a manifest and its lock file when only one task was asked for) is taken as that task's.
    Unrecorded lines written in one step (found in one snapshot) are one burst of editing: the
    timeline's burst weights apply; ``timing`` keeps them from a task asked
    for after they were found. ``prompts``: per task, the words of its prompts (a task may have no
    recorded line); ``claims`` is filled with the units a prompt's words took, and the task they
    went to. ``offline``: the offline engine's labels for the same units, asked for only when some
    unit is unrecorded (``leaning_of``)."""
    forced = graph.forced_pairs(links)
    tasks = sorted({t for t in task_of_unit if t is not None} | set(prompts or ()))
    # With one task asked for, nobody else can have changed the lock file: its manifest is that task's too.
    task_of_unit = tied_by_forced_pairs(task_of_unit, forced, _lock_pairs(links) if len(tasks) > 1 else ())
    affinity = graph.affinities(links, units, model)
    excluded = (
        {i: timing.excluded(i, tasks) for i, task in enumerate(task_of_unit) if task is None}
        if timing is not None
        else {}
    )
    if None in task_of_unit:
        telling = graph.affinities(
            [item for item in links if item.kind.split(":", 1)[0] not in POSITIONAL], units, model
        )
        affinity = with_bursts(across_tasks(affinity, telling, task_of_unit), task_of_unit, step_of_unit, model)
    labels = constrained_labels(units, affinity, model, files, task_of_unit, forced, excluded)
    if None not in task_of_unit:
        return labels
    labels = named_by_a_prompt(labels, units, task_of_unit, prompts, claims, excluded)
    leaning = leaning_of(offline(), task_of_unit, units) if offline is not None else None
    return unrecorded_placed(labels, affinity, model.threshold(files), task_of_unit, units, prompts, excluded, leaning)


def leaning_of(offline: list[int], task_of_unit: list[str | None], units: list[Unit]) -> list[str | None]:
    """Per unit, the task that wrote most of the recorded lines in its group of the offline engine
    (``offline``: its labels for these units); None where that group holds no recorded line."""
    votes: dict[int, Counter[str]] = {}
    for i, task in enumerate(task_of_unit):
        if task is not None:
            votes.setdefault(offline[i], Counter())[task] += max(1, units[i].size)
    found: list[str | None] = []
    for label in offline:
        counter = votes.get(label)
        found.append(min(counter, key=lambda t: (-counter[t], intent_number(t), t)) if counter else None)
    return found


def tied_by_forced_pairs(
    task_of_unit: list[str | None], forced: list[tuple[int, int]], locks: Collection[tuple[int, int]] = ()
) -> list[str | None]:
    """``task_of_unit`` with each unrecorded unit that a forced pair ties to one task's units (and to
    no other task's) given that task: the engine never splits such a pair, so neither does the record.
    Not the pairs in ``locks`` (a manifest with its lock file): a lock file is one unit that several
    tasks may have changed, so the task it went to says nothing of its manifest's lines."""
    offered: dict[int, set[str]] = {}
    for a, b in forced:
        if (a, b) in locks:
            continue
        first, second = task_of_unit[a], task_of_unit[b]
        if first is None and second is not None:
            offered.setdefault(a, set()).add(second)
        elif second is None and first is not None:
            offered.setdefault(b, set()).add(first)
    if not offered:
        return task_of_unit
    tied = list(task_of_unit)
    for unit, tasks in offered.items():
        if len(tasks) == 1:
            tied[unit] = next(iter(tasks))
    return tied


def _lock_pairs(links: list[Link]) -> set[tuple[int, int]]:
    return set(dependencies.together([item for item in links if item.kind == dependencies.DEPENDENCIES]))


def unrecorded_placed(
    labels: list[int],
    affinity: dict[tuple[int, int], float],
    threshold: float,
    task_of_unit: list[str | None],
    units: list[Unit],
    prompts: dict[str, str] | None,
    excluded: dict[int, set[str]] | None = None,
    leaning: list[str | None] | None = None,
) -> list[int]:
    """``labels`` with the groups holding no recorded unit placed by what the record says of the
    tasks. One task asked for with none of its edits recorded: the unrecorded lines that can be its
    own (found after it was asked for) are most likely its own, so they go to one group (its), never
    into a task that has recorded lines. The rest join a task on a strong link
    (``joined_by_strong_links``); a group that only one task can have written (the others asked for
    later) goes to that task."""
    excluded = excluded or {}
    lined = {task for task in task_of_unit if task is not None}
    tasks = lined | set(prompts or ())
    silent = tasks - lined  # tasks asked for, none of whose edits were recorded
    barred = _barred_by_group(labels, task_of_unit, excluded)
    if len(silent) == 1:
        only = next(iter(silent))
        labels, kept = _loose_together(labels, task_of_unit, lambda label: only not in barred.get(label, ()))
        barred = _barred_by_group(labels, task_of_unit, excluded)
        if kept is not None:
            barred[kept] = set(lined)  # the silent task's group, not to be joined to another
    weights = [float(max(1, u.size)) for u in units]
    labels = joined_by_strong_links(labels, affinity, threshold, task_of_unit, weights, barred, leaning)
    return _left_to_the_only_task(labels, task_of_unit, tasks, _barred_by_group(labels, task_of_unit, excluded))


def _barred_by_group(
    labels: list[int], task_of_unit: list[str | None], excluded: dict[int, set[str]]
) -> dict[int, set[str]]:
    """Per group holding no recorded unit, the tasks one of its units cannot belong to."""
    taken = {labels[i] for i, task in enumerate(task_of_unit) if task is not None}
    barred: dict[int, set[str]] = {}
    for unit, tasks in excluded.items():
        if labels[unit] not in taken:
            barred.setdefault(labels[unit], set()).update(tasks)
    return barred


def _left_to_the_only_task(
    labels: list[int], task_of_unit: list[str | None], tasks: set[str], barred: dict[int, set[str]]
) -> list[int]:
    """``labels`` with each group holding no recorded unit that only one task can have written given
    to it (one group per task with no recorded line)."""
    task_label: dict[str, int] = {}
    for i, task in enumerate(task_of_unit):
        if task is not None:
            task_label.setdefault(task, labels[i])
    moved: dict[int, int] = {}
    for label in sorted({label for label in labels if label not in task_label.values()}):
        left = tasks - barred.get(label, set())
        if len(left) == 1 and len(tasks) > 1:  # the order of the record ruled the others out
            only = next(iter(left))
            moved[label] = task_label.setdefault(only, label)
    return [moved.get(label, label) for label in labels]


def _loose_together(
    labels: list[int], task_of_unit: list[str | None], wanted: Callable[[int], bool]
) -> tuple[list[int], int | None]:
    """``labels`` with every ``wanted`` group holding no recorded unit made one group, and its label."""
    taken = {labels[i] for i, task in enumerate(task_of_unit) if task is not None}
    loose = sorted({label for label in labels if label not in taken and wanted(label)})
    if not loose:
        return labels, None
    return [loose[0] if label in loose else label for label in labels], loose[0]


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


def unit_timing(units: list[Unit], provenance: Provenance, task_of_unit: list[str | None]) -> Timing:
    """When each unrecorded unit was found (its last line to be found; None when a line was found
    only on disk) and when each task was first asked for."""
    found: list[int | None] = []
    for unit, task in zip(units, task_of_unit):
        row = provenance.unrecorded.get(unit.hunk.id, []) if task is None and unit.hunk is not None else []
        steps = {row[i] for i in range(unit.start, min(unit.end, len(row))) if row[i] is not None}
        places = [provenance.found[step] for step in steps if step in provenance.found]
        found.append(max(places) if places and len(places) == len(steps) else None)
    return Timing(found, dict(provenance.asked))


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
    excluded: dict[int, set[str]] | None = None,
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
    for unit, tasks in (excluded or {}).items():  # never into a task asked for after it was found
        for task in tasks:
            if task in first_of:
                rep = first_of[task]
                affinity[(min(unit, rep), max(unit, rep))] = APART
    weights = [float(max(1, u.size)) for u in units]
    return graph.average_linkage(len(units), affinity, model.threshold(files), weights, together=together)


def named_by_a_prompt(
    labels: list[int],
    units: list[Unit],
    task_of_unit: list[str | None],
    prompts: dict[str, str] | None,
    claims: dict[int, str] | None = None,
    excluded: dict[int, set[str]] | None = None,
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
    barred = _barred_by_group(labels, task_of_unit, excluded or {})
    for label, names in loose.items():
        naming = [task for task in sorted(words) if words[task] & names and task not in barred.get(label, ())]
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
    barred: dict[int, set[str]] | None = None,
    leaning: list[str | None] | None = None,
) -> list[int]:
    """``labels`` with each group still holding no recorded unit moved into a task it has a strong
    link to (one link that alone would merge two units: at least ``threshold``); of several such
    tasks, the one with the highest mean affinity to the group (weighted by changed lines). Never
    into a task ``barred`` for the group. ``leaning``: per unit, the task the offline engine puts it
    with (``leaning_of``); a unit the engine puts among another task's lines lends no strong link:
    one link does not outweigh all the evidence the engine weighed."""
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
            if group in label_task or target not in label_task or label_task[target] in (barred or {}).get(group, ()):
                continue
            total[(group, target)] = total.get((group, target), 0.0) + weights[loose] * weights[other] * value
            if value >= threshold and (leaning is None or leaning[loose] in (None, label_task[target])):
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
