"""The model's answer: whatever it says, a refinement either refuses it whole or keeps every hunk
in exactly one group (property-based), and a fenced JSON block is read as JSON."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from segmint_core.grouping.refine.answer import InvalidAnswer, apply, parse

SHOWN = {"group-1": ["change-1:1", "change-1:2"], "group-2": ["change-2:1"], "group-3": ["change-3:1", "change-4"]}
IDS = [i for items in SHOWN.values() for i in items] + ["change-9:1"]
GROUPS = [*SHOWN, "group-9"]

reasons = st.sampled_from(["r", "", " "])
moves = st.fixed_dictionaries(
    {"hunk_ids": st.lists(st.sampled_from(IDS), max_size=3), "to_group": st.sampled_from(GROUPS), "reason": reasons}
)
merges = st.fixed_dictionaries({"group_ids": st.lists(st.sampled_from(GROUPS), max_size=3), "reason": reasons})
splits = st.fixed_dictionaries(
    {
        "group_id": st.sampled_from(GROUPS),
        "parts": st.lists(st.lists(st.sampled_from(IDS), max_size=3), max_size=3),
        "reason": reasons,
    }
)
answers = st.fixed_dictionaries(
    {
        "moves": st.lists(moves, max_size=3),
        "merges": st.lists(merges, max_size=2),
        "splits": st.lists(splits, max_size=2),
    }
)


@given(answers)
def test_an_answer_is_refused_whole_or_keeps_every_hunk_once(data: dict) -> None:
    try:
        proposal = parse(json.dumps(data), SHOWN)
    except InvalidAnswer as exc:
        assert str(exc)
        return
    numbers = itertools.count(1)
    result = apply(SHOWN, proposal, lambda: f"new-{next(numbers)}")
    assert sorted(i for items in result.values() for i in items) == sorted(i for v in SHOWN.values() for i in v)
    assert all(result.values()), "no empty group"


@given(st.data())
def test_a_valid_answer_is_applied_with_every_hunk_in_one_group(data) -> None:
    home = {i: gid for gid, items in SHOWN.items() for i in items}
    moved = data.draw(st.lists(st.sampled_from(list(home)), unique=True))
    moves = []
    for hunk in moved:
        target = data.draw(st.sampled_from([g for g in SHOWN if g != home[hunk]]))
        moves.append({"hunk_ids": [hunk], "to_group": target, "reason": "r"})
    merged = data.draw(st.lists(st.sampled_from(list(SHOWN)), unique=True, max_size=3))
    merges = [{"group_ids": merged, "reason": "r"}] if len(merged) > 1 else []
    proposal = parse(json.dumps({"moves": moves, "merges": merges, "splits": []}), SHOWN)
    result = apply(SHOWN, proposal, lambda: "new")
    assert sorted(i for items in result.values() for i in items) == sorted(home)
    for move in moves:
        (hunk,) = move["hunk_ids"]
        where = next(g for g, items in result.items() if hunk in items)
        assert where == (merged[0] if move["to_group"] in merged else move["to_group"])


def test_a_fenced_json_block_is_read_and_anything_around_it_is_not() -> None:
    body = json.dumps({"moves": [], "merges": [{"group_ids": ["group-1", "group-2"], "reason": "r"}], "splits": []})
    assert parse(f"```json\n{body}\n```", SHOWN).merges[0].group_ids == ("group-1", "group-2")
    with pytest.raises(InvalidAnswer, match="not JSON"):
        parse(f"Here you go:\n```json\n{body}\n```", SHOWN)


def test_an_answer_nested_too_deep_to_parse_is_refused_not_a_crash() -> None:
    with pytest.raises(InvalidAnswer, match="not JSON"):
        parse("[" * 100_000, SHOWN)


@pytest.mark.parametrize(
    ("reply", "kind"), [("[]", "list"), ("null", "null"), ('"moves"', "string"), ("3", "number"), ("true", "boolean")]
)
def test_an_answer_that_is_not_an_object_is_named_by_its_json_kind(reply: str, kind: str) -> None:
    with pytest.raises(InvalidAnswer, match=f"^the answer is a JSON {kind}, not an object"):
        parse(reply, SHOWN)
