"""Checking that every planned commit builds on its own, before any is made.

For the open plans in order, HEAD plus the plans up to each one is built as a
tree (``trees``) and checked (``runner``): by the person's command in a scratch
work tree under ``.git/segmint/check/`` (``scratch``, ``command``), or, with no
command configured, by the zero-config check (``static``). A failing commit
gets a proposal, checked again before it is offered (``fixes``).
"""

from segmint_core.checking.models import FAILED, NOT_CHECKED, PASSED, CheckReport, CheckResult, PlanSpec

__all__ = ["FAILED", "NOT_CHECKED", "PASSED", "CheckReport", "CheckResult", "PlanSpec"]
