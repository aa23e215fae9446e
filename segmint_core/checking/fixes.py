"""Fixes for commits that fail their check, each checked again before it is offered.

For the first failing commit, the commits it needs are those defining a name it
uses (the zero-config check's reading), else each later commit, nearest first.
With each, in turn: merge the two (at the failing commit's place, else at the
other's), move the lines that define the names it needs into it, or commit the
needed one first. The first candidate whose commits all pass where they passed
before, and the failing one too, is the fix; then the next failing commit, on
the fixed plans. ``fix_plans`` returns them all, as the plans they lead to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from segmint_core.checking import static
from segmint_core.checking.command import CheckCommand
from segmint_core.checking.models import FAILED, PASSED, CheckReport, PlanSpec, SessionView
from segmint_core.checking.runner import run_check
from segmint_core.checking.trees import head_tree
from segmint_core.wire import to_wire

MERGE, MOVE, REORDER = "merge", "move", "reorder"
PREFERENCE = (MERGE, MOVE, REORDER)
MAX_STEPS = 20


@dataclass
class Step:
    kind: str
    commit_id: str  # the failing commit
    other_id: str  # the commit it needs
    sentence: str


@dataclass
class FixPlan:
    """The fixes found, the open commits they lead to, and those commits' check."""

    steps: list[Step]
    specs: list[PlanSpec]
    report: CheckReport
    left: list[str] = field(default_factory=list)  # commits still failing: no fix was found for them

    @property
    def sentence(self) -> str:
        return "; ".join(s.sentence for s in self.steps)

    def to_dict(self) -> dict:
        return {
            "steps": [to_wire(s) for s in self.steps],
            "commits": [to_wire(s) for s in self.specs],
            "check": self.report.to_dict(),
            "still_failing": self.left,
        }


def fix_plans(
    view: SessionView,
    report: CheckReport,
    specs: list[PlanSpec],
    command: CheckCommand | None,
    preference: tuple[str, ...] = PREFERENCE,
) -> FixPlan:
    """Fixes for the failing commits of ``report`` (of ``specs``), each verified by the check."""
    steps: list[Step] = []
    left: list[str] = []
    for _ in range(MAX_STEPS):
        failing = [r for r in report.results if r.status == FAILED and r.commit_id not in left]
        if not failing:
            break
        found = _fix_one(view, report, specs, command, failing[0].commit_id, preference)
        if found is None:
            left.append(failing[0].commit_id)
            continue
        step, specs, report = found
        steps.append(step)
    left = [r.commit_id for r in report.results if r.status == FAILED]
    return FixPlan(steps, specs, report, left)


def _fix_one(
    view: SessionView,
    report: CheckReport,
    specs: list[PlanSpec],
    command: CheckCommand | None,
    commit_id: str,
    preference: tuple[str, ...],
):
    ids = [s.id for s in specs]
    k = ids.index(commit_id)
    names = static.names_of(view, specs)
    later = static.needed_later(names, specs, view.git, head_tree(view)).get(commit_id, {})
    needed = list(dict.fromkeys(later[n] for n in sorted(later)))
    others = needed or ids[k + 1 :]
    passed = {r.commit_id for r in report.results if r.status == PASSED}
    for other in others:
        for kind in preference:
            for candidate, sentence in _candidates(kind, specs, k, ids.index(other), names, later):
                checked = run_check(view, command, candidate)
                if _better(checked, passed, candidate, {commit_id, other}):
                    return Step(kind, commit_id, other, sentence), candidate, checked
    return None


def _candidates(kind: str, specs: list[PlanSpec], k: int, j: int, names: static.Names, later: dict[str, str]):
    a, b = specs[k], specs[j]
    if kind == MERGE:
        merged = PlanSpec(
            f"{a.id}+{b.id}",
            a.hunk_ids + b.hunk_ids,
            a.change_ids + b.change_ids,
            tuple(dict.fromkeys(a.group_ids + b.group_ids)),
        )
        rest = [s for n, s in enumerate(specs) if n not in (k, j)]
        sentence = f"merge {a.id} with {b.id}, which it needs"
        yield rest[:k] + [merged] + rest[k:], sentence
        if j > k + 1:
            yield rest[: j - 1] + [merged] + rest[j - 1 :], sentence
    elif kind == MOVE:
        wanted = [
            h
            for name, holder in sorted(later.items())
            if holder == b.id
            for h in names.definers.get(b.id, {}).get(name, [])
        ]
        wanted = list(dict.fromkeys(wanted))
        kept = tuple(h for h in b.hunk_ids if h not in wanted)
        if wanted and (kept or b.change_ids):
            moved = [*specs]
            moved[k] = PlanSpec(a.id, a.hunk_ids + tuple(wanted), a.change_ids, a.group_ids)
            moved[j] = PlanSpec(b.id, kept, b.change_ids, b.group_ids)
            yield moved, f"move {', '.join(wanted)} from {b.id} into {a.id}, which uses what they define"
    elif kind == REORDER and j > k:
        order = [s for n, s in enumerate(specs) if n != j]
        order.insert(k, b)
        yield order, f"commit {b.id} before {a.id}, which needs it"


def _better(checked: CheckReport, passed: set[str], specs: list[PlanSpec], fixed: set[str]) -> bool:
    """Whether the fixed commit passes, and every commit that passed before still does."""
    for spec, result in zip(specs, checked.results):
        parts = set(spec.id.split("+"))
        if result.status == FAILED and (parts & passed or parts & fixed):
            return False
    return True
