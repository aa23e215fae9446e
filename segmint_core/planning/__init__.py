"""Commit plans: one per group, in an order where each builds on the ones before.

The message writer loads most of this package (its facts, wording and house style), so
it is loaded when first asked for: a command that only groups never needs it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from segmint_core.planning.order import cycles, order_plans
    from segmint_core.planning.writer import Message, offline_message, write_message

__all__ = ["Message", "cycles", "offline_message", "order_plans", "write_message"]
_HOMES = {
    "Message": "writer",
    "offline_message": "writer",
    "write_message": "writer",
    "cycles": "order",
    "order_plans": "order",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)
