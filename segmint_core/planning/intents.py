"""A commit message from the task it was recorded under: the person's own words, in the house's voice.

When most of a commit's lines were written under recorded prompts, its title
is the task's actionable clause ("fix the crash on an empty config", not
"please can you ..."), worded as the house words its subjects: under the
type and scope voted for the commit's files in a Conventional house, in its
case, tense and full stops otherwise, at most 72 characters. The body starts
with the why the prompt gave, if it gave one; nothing else of the prompt is
copied (never a transcript).
"""

from __future__ import annotations

from dataclasses import dataclass

from segmint_core.planning import voice
from segmint_core.planning.bodies import wrap
from segmint_core.planning.describe import CODE_TYPES
from segmint_core.planning.facts import Facts
from segmint_core.planning.precedent import Touched
from segmint_core.planning.style import HouseStyle
from segmint_core.planning.titles import TITLE_LIMIT, cut_short, fit
from segmint_core.trajectory.provenance.prompts import actionable, reason


VERB_TYPES = {
    "feat": {"add", "implement", "introduce", "support", "allow", "enable", "create", "expose", "provide", "let"},
    "fix": {"fix", "handle", "prevent", "avoid", "correct", "repair", "resolve", "stop", "guard", "restore"},
    "refactor": {
        "refactor",
        "rename",
        "extract",
        "simplify",
        "restructure",
        "reorganize",
        "inline",
        "split",
        "consolidate",
        "clean",
        "move",
        "tidy",
    },
    "perf": {"speed", "optimize", "optimise", "cache"},
}


@dataclass(frozen=True)
class Asked:
    """What was asked for a commit's lines: the task's prompt, and the other tasks' it also holds."""

    task: str  # the opening prompt of the task holding most of the lines (redacted)
    follow_ups: tuple[str, ...] = ()
    others: tuple[str, ...] = ()  # opening prompts of other tasks merged in by a person or agent

    @property
    def clause(self) -> str:
        return actionable(self.task)

    @property
    def other_clauses(self) -> list[str]:
        return [c for c in map(actionable, self.others) if c]


def intent_title(style: HouseStyle, facts: Facts, touched: list[Touched], asked: Asked) -> str | None:
    """The title in the house's voice; None when the prompt holds no clause to title with."""
    clause = asked.clause
    if not clause:
        return None
    if not style.follows_conventional:
        heads = voice.area_heads(style, facts, touched)  # the prefix the house gives the area ("docs:"), if any
        worded = voice.plain_voice(style, clause)
        return fit(heads, [worded, cut_short(worded, TITLE_LIMIT - len(heads[0]) - 1)] if heads[0] else [worded])
    heads, _ = voice.title_parts(style, facts, touched)
    said = said_type(clause)
    if said is not None and heads and heads[0]:
        voted = heads[0].split("(", 1)[0].rstrip(":")
        if voted in CODE_TYPES and voted != said:  # the person said what kind of change it is
            heads = [said + h[len(voted) :] for h in heads]
    said = voice.conventional_voice(style, clause)
    # a long ask is cut short under the house's head (type and scope) before the head is shortened
    return fit(heads, [said, cut_short(said, TITLE_LIMIT - len(heads[0]) - 1)] if heads else [said])


def said_type(clause: str) -> str | None:
    """The Conventional type the clause's verb says of code ("add ..." a feature, "fix ..." a fix)."""
    verb = clause.split(" ", 1)[0].lower()
    return next((kind for kind, verbs in VERB_TYPES.items() if verb in verbs), None)


def intent_body(asked: Asked, offline_body: str) -> str:
    """The why the prompts gave, then the other tasks merged in, then the offline body."""
    lines = []
    why = reason(asked.task)
    if why:
        lines.append(why)
    lines += [f"Also: {clause}." for clause in (actionable(t) for t in asked.others) if clause]
    head = "\n".join(wrap(line) for line in lines)
    return f"{head}\n\n{offline_body}".strip() if head else offline_body
