"""A scripted edit timeline: two intents edited in alternation across the same files.

Three modules each get two edits for "Support currency codes" and two for "Fix
rounding errors", interleaved by position, saved in alternating bursts five
minutes apart. The edits of one intent share no vocabulary on purpose, so a
diff-only grouping has little to go on but files and positions (which mix the
intents); the timeline knows which burst and intent wrote every line.

``adjusted_rand_index`` scores a grouping against the intents.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from segmint_core.changes import ChangeSet, capture
from segmint_core.git import Git
from segmint_core.trajectory.recorder import Recorder
from tests.support.repo import Repo
from tests.trajectory.support import FakeClock

CURRENCY = "Support currency codes"
ROUNDING = "Fix rounding errors"

FILLER = "".join(f"    # step {n}: keep the ledger consistent\n" for n in range(8))


def _module(functions: list[tuple[str, str]]) -> str:
    return "\n\n".join(f"def {name}():\n{FILLER}    {line}\n{FILLER}    return None\n" for name, line in functions)


BASE = {
    "orders.py": _module(
        [
            ("create_order", "order = Order(items=items, total=total)"),
            ("add_item", "total += item.price * item.quantity"),
            ("order_summary", 'text = f"{order.id}: {order.total}"'),
            ("refund_order", "refund = order.total * 0.9"),
        ]
    ),
    "billing.py": _module(
        [
            ("invoice_line", "amount_text = str(amount)"),
            ("apply_tax", "tax = amount * rate"),
            ("split_payment", "share = amount / parts"),
            ("send_invoice", "mailer.send(customer.email, body)"),
        ]
    ),
    "shipping.py": _module(
        [
            ("weight_cost", "cost = weight * per_kg"),
            ("quote", "result = Quote(cost)"),
            ("insurance", "premium = value * 0.02"),
            ("label", 'label = f"{parcel.id} {destination.country}"'),
        ]
    ),
}

# (file, old line, new line, intent); every new line is unique, so it names its hunk.
EDITS = {
    "c1": (
        "orders.py",
        "order = Order(items=items, total=total)",
        "order = Order(items=items, total=total, currency=cart.currency)",
        CURRENCY,
    ),
    "r1": (
        "orders.py",
        "total += item.price * item.quantity",
        "total += Decimal(item.price) * item.quantity",
        ROUNDING,
    ),
    "c2": (
        "orders.py",
        'text = f"{order.id}: {order.total}"',
        'text = f"{order.id}: {order.total} {order.currency}"',
        CURRENCY,
    ),
    "r2": (
        "orders.py",
        "refund = order.total * 0.9",
        'refund = (order.total * Decimal("0.9")).quantize(CENT)',
        ROUNDING,
    ),
    "c3": ("billing.py", "amount_text = str(amount)", "amount_text = format_money(amount, iso_code)", CURRENCY),
    "r3": ("billing.py", "tax = amount * rate", "tax = (amount * rate).quantize(CENT, ROUND_HALF_UP)", ROUNDING),
    "r4": ("billing.py", "share = amount / parts", "share = round(amount / parts, 2)", ROUNDING),
    "c4": (
        "billing.py",
        "mailer.send(customer.email, body)",
        "mailer.send(customer.email, body, locale=customer.locale)",
        CURRENCY,
    ),
    "r5": ("shipping.py", "cost = weight * per_kg", "cost = math.floor(weight * per_kg * 100) / 100", ROUNDING),
    "c5": ("shipping.py", "result = Quote(cost)", "result = Quote(cost, unit=destination.money)", CURRENCY),
    "r6": ("shipping.py", "premium = value * 0.02", "premium = int(value * 2) / 100", ROUNDING),
    "c6": (
        "shipping.py",
        'label = f"{parcel.id} {destination.country}"',
        'label = f"{parcel.id} {destination.country} {destination.symbol}"',
        CURRENCY,
    ),
}

# Bursts in time order: the intent alternates, the files do not follow it.
BURSTS = [
    (CURRENCY, ["c1", "c3"]),
    (ROUNDING, ["r1", "r5"]),
    (CURRENCY, ["c5", "c2"]),
    (ROUNDING, ["r3", "r2", "r6"]),
    (CURRENCY, ["c4", "c6"]),
    (ROUNDING, ["r4"]),
]
BURST_SPACING = 300.0  # seconds between bursts
SAVE_SPACING = 15.0  # seconds between saves in one burst


@dataclass
class ScriptedTimeline:
    repo: Repo
    changes: ChangeSet
    truth: dict[str, str]  # hunk id -> intent


def build_scripted_timeline(path: Path, *, record: bool = True) -> ScriptedTimeline:
    """The project with every edit made (and, with ``record``, recorded burst by burst)."""
    repo = Repo(path)
    for name, text in BASE.items():
        repo.write(name, text)
    repo.commit("ledger")
    clock = FakeClock()
    recorder = Recorder(str(repo.path), clock=clock)
    if record:
        recorder.open()
    for intent, edit_ids in BURSTS:
        clock.advance(BURST_SPACING)
        recorder.intent = intent
        for edit_id in edit_ids:
            clock.advance(SAVE_SPACING)
            file, old, new, _ = EDITS[edit_id]
            text = repo.read(file).decode()
            assert text.count(old) == 1
            repo.write(file, text.replace(old, new))
            if record:
                recorder.record([file])
    changes = capture(Git(str(repo.path)))
    return ScriptedTimeline(repo, changes, _truth(changes))


def _truth(changes: ChangeSet) -> dict[str, str]:
    truth = {}
    for change in changes.changes:
        for hunk in change.hunks:
            added = [line[1:].strip() for line in hunk.lines if line.startswith("+")]
            labels = {intent for file, _, new, intent in EDITS.values() if file == change.file_path and new in added}
            if len(labels) == 1:
                truth[hunk.id] = labels.pop()
    assert len(truth) == len(EDITS), "every edit must be its own hunk"
    # Besides these, the only change is nothing: the recorder writes no tracked file.
    return truth


def adjusted_rand_index(truth: Sequence[Hashable], predicted: Sequence[Hashable]) -> float:
    """Hubert and Arabie's adjusted Rand index: 1 for the same partition, about 0 for chance."""
    rows = {t: n for n, t in enumerate(dict.fromkeys(truth))}
    cols = {p: n for n, p in enumerate(dict.fromkeys(predicted))}
    table = np.zeros((len(rows), len(cols)), dtype=np.int64)
    for t, p in zip(truth, predicted, strict=True):
        table[rows[t], cols[p]] += 1

    def pairs(x):
        return x * (x - 1) / 2

    n = table.sum()
    index = pairs(table).sum()
    row_pairs, col_pairs = pairs(table.sum(axis=1)).sum(), pairs(table.sum(axis=0)).sum()
    expected = row_pairs * col_pairs / pairs(n) if n > 1 else 0.0
    maximum = (row_pairs + col_pairs) / 2
    if maximum == expected:
        return 1.0
    return float((index - expected) / (maximum - expected))
