"""Model-assisted regrouping: a chat model reviews the engine's groups and may move, merge or split.

``ask`` sends the groups, their evidence and the engine's least certain
decisions (``prompt``: hunks summarised, bounded requests, nothing of a
git-ignored or secret file, secret-looking lines masked) and validates each answer
strictly (``answer``). A request whose answer is invalid, or whose call
fails, keeps its groups as the engine made them, and a note says why.
``Refinement.regrouped`` is the grouping with the valid answers applied.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence, Set as AbstractSet
from dataclasses import dataclass, field

from segmint_core.changes.models import Change
from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.grouping.refine import answer, prompt
from segmint_core.grouping.refine.answer import Assignment, InvalidAnswer, Proposal
from segmint_core.grouping.refine.prompt import GroupLike
from segmint_core.wording import counted

ANSWER_TOKENS = 1_500
NO_MODEL = (
    "Refining the groups needs a chat model: set SEGMINT_CHAT_MODEL (and SEGMINT_BASE_URL for a local "
    "OpenAI-compatible server, or OPENAI_API_KEY)"
)
KEPT = "kept the offline grouping"


@dataclass
class Refinement:
    """What the model proposed that passed validation, and notes on everything else."""

    model: str
    proposals: list[Proposal] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    requests: int = 0

    @property
    def applied(self) -> list[str]:
        return [s for p in self.proposals for s in p.sentences()]

    def regrouped(self, assignment: Assignment, new_id: Callable[[], str] | None = None) -> Assignment:
        """``assignment`` with every valid proposal applied (each names only the groups it was shown)."""
        counter = itertools.count(1)
        new_id = new_id or (lambda: f"new-{next(counter)}")
        for proposal in self.proposals:
            assignment = answer.apply(assignment, proposal, new_id)
        return assignment

    def declined(self, why: str) -> "Refinement":
        """The same answers, none applied, for ``why``."""
        return Refinement(self.model, [], [*self.notes, f"{KEPT}: {why}"], self.requests)

    def sentence(self) -> str:
        done = "; ".join(self.applied) if self.applied else KEPT
        notes = f" ({'; '.join(self.notes)})" if self.notes else ""
        return f"{done}{notes}"

    def to_dict(self) -> dict:
        return {"model": self.model, "applied": self.applied, "notes": list(self.notes)}


def ask(
    settings: Settings,
    changes: list[Change],
    groups: Sequence[GroupLike],
    *,
    uncertain: Sequence[str] = (),
    withheld: AbstractSet[str] = frozenset(),
) -> Refinement:
    """The chat model's valid edits to ``groups``. Raises ``SegmintError`` only when no model is configured."""
    if not settings.chat_enabled:
        raise SegmintError(NO_MODEL)
    from segmint_core.llm import chat

    plan = prompt.build(changes, groups, uncertain=list(uncertain), withheld=withheld)
    result = Refinement(settings.chat_model or "", requests=len(plan.requests))
    for n, request in enumerate(plan.requests, 1):
        where = f" for request {n} of {len(plan.requests)}" if len(plan.requests) > 1 else ""
        try:
            reply = chat(
                settings, prompt.SYSTEM, request.text, max_tokens=ANSWER_TOKENS, response_format=answer.RESPONSE_FORMAT
            )
            proposal = answer.parse(reply, request.shown)
            numbers = itertools.count(1)
            answer.apply(request.shown, proposal, lambda: f"new-{next(numbers)}")  # checked before it is kept
        except SegmintError as exc:  # InvalidAnswer, or the model's failure (ModelError)
            result.notes.append(f"{KEPT}{where}: {exc}")
        else:
            if proposal.empty:
                result.notes.append(f"the model found nothing to change{where}")
            else:
                result.proposals.append(proposal)
    if plan.too_large:
        result.notes.append(
            f"{counted(len(plan.too_large), 'group')} not sent (too large for a request even without "
            f"their lines): {', '.join(plan.too_large[:5])}{'…' if len(plan.too_large) > 5 else ''}"
        )
    if plan.decisions_cut:
        result.notes.append(
            f"{counted(plan.decisions_cut, 'uncertain decision')} not sent (no room left in "
            f"its request of about {prompt.TOKENS_PER_REQUEST:,} tokens)"
        )
    if plan.left_out:
        result.notes.append(
            f"{counted(len(plan.left_out), 'group')} not sent (more than {prompt.MAX_REQUESTS} "
            f"requests' worth): {', '.join(plan.left_out[:5])}{'…' if len(plan.left_out) > 5 else ''}"
        )
    return result


__all__ = ["NO_MODEL", "InvalidAnswer", "Proposal", "Refinement", "ask"]
