"""Commit plans: one per group, in an order where each builds on the ones before."""

from segmint_core.planning.order import cycles, order_plans
from segmint_core.planning.writer import Message, offline_message, write_message

__all__ = ["Message", "cycles", "offline_message", "order_plans", "write_message"]
