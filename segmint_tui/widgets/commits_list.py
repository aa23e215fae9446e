"""The commits pane: the proposed commits in order, with their status."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from segmint_core.session.models import (
    APPLIED,
    APPROVED,
    AWAITING_APPROVAL,
    FAILED,
    PROPOSED,
    CommitPlan,
)
from segmint_core.wording import counted

STATUS_STYLE = {
    PROPOSED: ("○ proposed", Style(color="#a0a4b8")),
    AWAITING_APPROVAL: ("◐ awaiting approval", Style(color="#e5c07b", bold=True)),
    APPROVED: ("✓ approved", Style(color="#5fd77a", bold=True)),
    APPLIED: ("● applied", Style(color="#61afef", bold=True)),
    FAILED: ("✗ failed", Style(color="#ff6b6b", bold=True)),
}


def status_text(plan: CommitPlan) -> Text:
    label, style = STATUS_STYLE.get(plan.status, (plan.status, Style()))
    text = Text(label, style)
    if plan.status == APPLIED and plan.sha:
        text.append(f" {plan.sha[:7]}", style)
    return text


CHECK_STYLE = {
    "passed": ("✓ builds", Style(color="#5fd77a")),
    "failed": ("✗ fails", Style(color="#ff6b6b", bold=True)),
    "not_checked": ("– not checked", Style(color="#a0a4b8")),
}


def check_text(plan: CommitPlan) -> Text | None:
    """The commit's last check on its own (C checks, F fixes), or None if it was not checked."""
    if not plan.check or plan.status == APPLIED:
        return None
    label, style = CHECK_STYLE.get(plan.check.get("status", ""), ("", Style()))
    return Text(label, style) if label else None


def check_detail(plan: CommitPlan) -> list[Text]:
    """The check's output, for the highlighted commit: a failure's tail, or why it was not checked."""
    mark = check_text(plan)
    if mark is None:
        return []
    check = plan.check or {}
    by = "zero-config check" if check.get("check") == "zero-config" else f"`{check.get('check', '')}`"
    lines = [Text.assemble(mark, (f" on its own ({by})", "dim"))]
    style = "#ff6b6b" if check.get("status") == "failed" else "dim"
    lines += [Text(line, style) for line in (check.get("output") or "").splitlines()[-20:]]
    if check.get("status") == "failed":
        lines.append(Text("F proposes a fix, checked first; z takes it back", "dim"))
    return lines


def failure_text(plan: CommitPlan) -> Text | None:
    """Why the last commit attempt failed, or why the next one would (an out-of-date plan)."""
    if plan.out_of_date:
        return Text(plan.out_of_date + " (p)", Style(color="#e5c07b"))
    if plan.status != FAILED or not plan.error:
        return None
    return Text(plan.error, Style(color="#ff6b6b"))


def plan_prompt(position: int, plan: CommitPlan) -> Text:
    hunks = len(plan.hunk_ids) + len(plan.change_ids)
    where = f"  {plan.id} · {', '.join(plan.change_group_ids)} · {counted(hunks, 'hunk')}"
    prompt = Text.assemble(
        (f"{position:>2}. ", Style(color="#8b8fa3")),
        (plan.title, Style(bold=True)),
        "\n    ",
        status_text(plan),
    )
    checked = check_text(plan)
    if checked is not None:
        prompt.append(" · ", Style(color="#8b8fa3"))
        prompt.append_text(checked)
    prompt.append(where, Style(color="#8b8fa3"))
    failure = failure_text(plan)
    if failure is not None:
        prompt.append("\n    ")
        prompt.append_text(failure)
    return prompt


class CommitsList(OptionList):
    BINDINGS = [
        Binding("enter,e", "screen.edit_message", "Edit"),
        Binding("a", "screen.approve", "Approve"),
        Binding("A", "screen.approve_all", "Approve all"),
        Binding("x", "screen.apply_commit", "Commit"),
        Binding("X", "screen.apply_approved", "Commit approved"),
        Binding("K,shift+up", "screen.reorder(-1)", "Earlier"),
        Binding("J,shift+down", "screen.reorder(1)", "Later"),
        Binding("u", "screen.undo", "Undo"),
        Binding("C", "screen.check_commits", "Check"),
        Binding("F", "screen.fix_commits", "Fix"),
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.plans: list[CommitPlan] = []
        self._signature: object = None

    def populate(self, plans: list[CommitPlan]) -> None:
        # Everything a row shows (plan_prompt): a plan goes out of date with the same hunks (HEAD moved).
        signature = [
            (
                p.id,
                p.title,
                p.status,
                p.sha,
                p.error,
                p.out_of_date,
                tuple(p.hunk_ids),
                tuple(p.change_ids),
                tuple(p.change_group_ids),
                (p.check or {}).get("status"),
            )
            for p in plans
        ]
        current = self.highlighted_plan.id if self.highlighted_plan else None
        index = self.highlighted
        self.plans = list(plans)
        if signature == self._signature:
            return
        self._signature = signature
        self.set_options([Option(plan_prompt(n, p), id=p.id) for n, p in enumerate(plans, 1)])
        if not plans:
            return
        ids = [p.id for p in plans]
        self.highlighted = ids.index(current) if current in ids else min(index or 0, len(plans) - 1)

    @property
    def highlighted_plan(self) -> CommitPlan | None:
        if self.highlighted is None or not (0 <= self.highlighted < len(self.plans)):
            return None
        return self.plans[self.highlighted]

    def highlight(self, commit_id: str) -> None:
        ids = [p.id for p in self.plans]
        if commit_id in ids:
            self.highlighted = ids.index(commit_id)
