"""Small helpers for the sentences Segmint prints."""

from __future__ import annotations


def counted(n: int, noun: str) -> str:
    """``1 hunk``, ``3 hunks``, ``1,200 hunks``: a count with its noun, plural unless it is one."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"

