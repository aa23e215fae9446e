"""A link: evidence that two units share an intent, as every signal emits it and every decision reads it."""

from __future__ import annotations

from typing import NamedTuple


class Link(NamedTuple):
    """Evidence that units ``a`` and ``b`` (a < b) share an intent.

    ``kind`` names the evidence (``def_use``, ``same_hunk:code``...), ``detail``
    the thing both touch (an identifier, a path); reasons are written from
    them. ``weight`` is the raw strength; the model turns it into log-odds.
    """

    a: int
    b: int
    weight: float
    kind: str
    detail: str = ""


_new_tuple = tuple.__new__


def link(i: int, j: int, weight: float, kind: str, detail: str = "") -> Link:
    # What ``Link(...)`` makes, without its Python-level ``__new__``: signals make 10^5 links.
    return _new_tuple(Link, (i, j, weight, kind, detail) if i < j else (j, i, weight, kind, detail))
