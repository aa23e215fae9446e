"""Warnings a change tells Python to ignore: ``-W ignore::DeprecationWarning``, pytest's
``filterwarnings = ["ignore::DeprecationWarning"]``, ``@pytest.mark.filterwarnings(...)``,
``PYTHONWARNINGS=ignore::...``.

A change that only adds or removes such filters says which warnings it silences (``ignore
deprecation warnings in test``), where the file alone said nothing (``update test``): the rest
of its lines are as they were.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

# A filter whose action is "ignore", with its category (a message between the colons is allowed).
_FILTER = re.compile(r"""(?:-W\s?["']?|(?<![\w:-])["']?)ignore:[^:"'\n]{0,200}:([\w.]{1,100})["']?""")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@dataclass
class WarningFilters:
    ignored: list[str] = field(default_factory=list)  # categories in words: "deprecation warnings"
    unignored: list[str] = field(default_factory=list)  # those no longer ignored


def read_edit(added: list[str], removed: list[str]) -> WarningFilters | None:
    """The warnings the change starts or stops ignoring, where that is all it does."""
    plus, minus = Counter(_categories(added)), Counter(_categories(removed))
    if plus == minus or _kept(added) != _kept(removed):
        return None
    return WarningFilters(list(plus - minus), list(minus - plus))


def _categories(lines: list[str]) -> list[str]:
    return [_words(c) for line in lines for c in _FILTER.findall(line)]


def _words(category: str) -> str:
    """``DeprecationWarning`` is "deprecation warnings", ``pytest.PytestUnraisableExceptionWarning``
    "pytest unraisable exception warnings"."""
    name = category.rpartition(".")[2].removesuffix("Warning")
    return " ".join([*_CAMEL.sub(" ", name).lower().split(), "warnings"])


def _kept(lines: list[str]) -> Counter:
    """The lines with the filters taken out, where more than brackets and a filter's setting are left."""
    left = (" ".join(_FILTER.sub(" ", line).split()) for line in lines)
    return Counter(s for s in left if s.strip(",[]() ") and "filterwarnings" not in s)
