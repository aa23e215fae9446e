"""Commit order and the plans a dependency cycle leaves stuck."""

from __future__ import annotations

from segmint_core.planning.order import cycles, order_plans


def test_both_plans_of_a_two_way_dependency_are_stuck() -> None:
    # Only the first used to be named, and its note then listed no other plan.
    needs = {"a": {"b"}, "b": {"a"}}
    assert cycles(["a", "b"], needs) == ["a", "b"]


def test_a_plan_needing_a_cycle_is_not_in_it() -> None:
    needs = {"a": {"b"}, "b": {"a"}, "c": {"a"}, "d": set()}
    assert cycles(["a", "b", "c", "d"], needs) == ["a", "b"]
    assert cycles(["x", "y", "z"], {"y": {"x"}, "z": {"y"}}) == []


def test_order_puts_what_is_needed_first() -> None:
    assert order_plans(["a", "b", "c"], {"a": {"c"}}) == ["b", "c", "a"]
