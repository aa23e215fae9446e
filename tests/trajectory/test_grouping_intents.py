"""Recorded intents decide grouping: edits named apart split a file, edits named alike join files.

Real repositories, a real recorder with a settable clock; the timeline is read
back with ``hunk_histories`` as ``group_changes`` would find it.
"""

from __future__ import annotations

from pathlib import Path

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping.engine import group_changes
from segmint_core.grouping.model import DEFAULT
from segmint_core.grouping.signals import timeline as signal
from segmint_core.grouping.signals.base import Context
from segmint_core.grouping.units import build_units
from segmint_core.trajectory.recorder import Recorder
from segmint_core.trajectory.timeline import HunkHistory, hunk_histories
from tests.support.repo import Repo
from tests.trajectory.support import FakeClock

PAD = "".join(f"    # keep step {n}\n" for n in range(3))


def _function(name: str, line: str) -> str:
    return f"def {name}(ledger):\n{PAD}    {line}\n{PAD}    return ledger\n"


def _edit(repo: Repo, path: str, old: str, new: str) -> None:
    text = repo.read(path).decode()
    assert text.count(old) == 1
    repo.write(path, text.replace(old, new))


def _record(repo: Repo, saves: list[tuple[str, str, str, str]]) -> None:
    """Each save: (intent, path, old line, new line), five minutes after the one before."""
    clock = FakeClock()
    recorder = Recorder(str(repo.path), clock=clock)
    recorder.open()
    for intent, path, old, new in saves:
        clock.advance(300.0)
        recorder.intent = intent
        _edit(repo, path, old, new)
        recorder.record([path])


def _groups_by_line(repo: Repo, *, timeline: bool) -> tuple[dict[str, int], list[list[str]]]:
    """Which group holds the hunk adding each line (by its text), and the groups' reasons."""
    changes = capture(Git(str(repo.path)))
    found = hunk_histories(str(repo.path), changes) if timeline else None
    grouping = group_changes(changes, provider="local", timeline=found)
    group_of = grouping.hunk_groups()
    where = {}
    for change in grouping.changes:
        for hunk in change.hunks:
            for line in hunk.lines:
                if line.startswith("+"):
                    where[line[1:].strip()] = group_of[hunk.id]
    return where, [g.reasons for g in grouping.groups]


def _ledger(repo: Repo) -> None:
    repo.write(
        "ledger.py",
        _function("post", "ledger.total = ledger.amount")
        + "\n\n"
        + _function("close", "ledger.closed = ledger.amount"),
    )
    repo.commit("ledger")


TWO_INTENTS = [
    (
        "Track currency",
        "ledger.py",
        "ledger.total = ledger.amount",
        "ledger.total = ledger.amount.with_currency(ledger.currency)",
    ),
    (
        "Round totals",
        "ledger.py",
        "ledger.closed = ledger.amount",
        "ledger.closed = ledger.amount.quantize(ledger.cent)",
    ),
]


def test_two_intents_in_one_file_split_with_the_timeline(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "one")
    _ledger(repo)
    _record(repo, TWO_INTENTS)
    currency, rounding = TWO_INTENTS[0][3], TWO_INTENTS[1][3]

    without, _ = _groups_by_line(repo, timeline=False)
    assert without[currency] == without[rounding]  # one file, nearby edits, shared names

    with_timeline, reasons = _groups_by_line(repo, timeline=True)
    assert with_timeline[currency] != with_timeline[rounding]
    assert ['recorded under the intent "Track currency", kept apart from "Round totals"'] in reasons
    assert ['recorded under the intent "Round totals", kept apart from "Track currency"'] in reasons


def test_one_intent_across_two_files_joins_them(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "two")
    repo.write("shop/orders.py", "def order(cart):\n    order_total = 1\n    return cart\n")
    repo.write("mail/notify.py", "def notify(user):\n    subject = 'Hello'\n    return user\n")
    repo.commit("shop")
    _record(
        repo,
        [
            ("Localise the shop", "shop/orders.py", "order_total = 1", "order_total = translate_number(1)"),
            ("Localise the shop", "mail/notify.py", "subject = 'Hello'", "subject = gettext('Hello')"),
        ],
    )
    order, mail = "order_total = translate_number(1)", "subject = gettext('Hello')"

    without, _ = _groups_by_line(repo, timeline=False)
    assert without[order] != without[mail]  # nothing in the diff ties them

    with_timeline, reasons = _groups_by_line(repo, timeline=True)
    assert with_timeline[order] == with_timeline[mail]
    assert any("recorded under the same intent: Localise the shop" in rs for rs in reasons)


def test_edits_without_recorded_intents_are_not_pushed_apart(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "silent")
    _ledger(repo)
    _record(repo, [(None, *save[1:]) for save in TWO_INTENTS])  # type: ignore[misc]
    currency, rounding = TWO_INTENTS[0][3], TWO_INTENTS[1][3]

    with_timeline, _ = _groups_by_line(repo, timeline=True)
    assert with_timeline[currency] == with_timeline[rounding]  # bursts apart lean, they do not split


def test_intents_decide_before_bursts(tmp_path: Path) -> None:
    """Same intent in two bursts: no lean apart; different intents: a repelling link, not a burst one."""
    repo = Repo(tmp_path / "kinds")
    for name in "abc":
        repo.write(f"{name}.py", f"{name} = 1\n")
    repo.commit()
    for name in "abc":
        repo.write(f"{name}.py", f"{name} = 2\n")
    units = build_units(capture(Git(str(repo.path))).changes)
    timeline = {
        "change-1:1": HunkHistory("change-1:1", ("s1",), (0,), ("Round totals",)),
        "change-2:1": HunkHistory("change-2:1", ("s2",), (1,), ("Round totals",)),
        "change-3:1": HunkHistory("change-3:1", ("s3",), (2,), ("Track currency",)),
    }
    found = {(units[i.a].path, units[i.b].path, i.kind) for i in signal.links(Context(units, DEFAULT, timeline))}
    assert found == {
        ("a.py", "b.py", signal.SAME_INTENT),
        ("a.py", "c.py", signal.DIFFERENT_INTENT),
        ("b.py", "c.py", signal.DIFFERENT_INTENT),
    }
