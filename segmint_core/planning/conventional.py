"""Reading a commit subject: Conventional Commits' ``type(scope)!: text``, or a plain sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass

# A lower-case word as the type, as Conventional Commits' own examples write it:
# "docs/ssl: fix typo" or "Merge pull request #1: ..." are not read as types.
_CONVENTIONAL = re.compile(r"^(?P<type>[a-z]{2,12})(?:\((?P<scope>[^()\n]{0,40})\))?(?P<bang>!)?:\s+(?P<text>\S.*)$")
# "(#1234)" or "(#12, #13)" a hosting service appends to a squashed pull request.
_REFS = re.compile(r"\s*\((?:#\d+(?:,\s*)?)+\)\s*$")
_WORD = re.compile(r"[a-z0-9]+")
# The types of @commitlint/config-conventional (the Angular convention): a house may use
# others ("deps: qs@2.3.0"), but these are what "Conventional Commits" means in practice.
STANDARD_TYPES = frozenset(
    {"build", "chore", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test"}
)
# Other spellings houses write for a type (express's ``tests:`` and ``deps:``).
TYPE_WORDS = STANDARD_TYPES | {"tests", "doc", "documentation", "feature", "bugfix", "lint", "deps"}


@dataclass(frozen=True)
class Subject:
    type: str | None  # None: not a Conventional subject
    scope: str | None
    text: str  # the description after the colon (all of a plain subject), without PR numbers
    breaking: bool = False


def parse_subject(subject: str) -> Subject:
    subject = strip_refs(subject.strip())
    m = _CONVENTIONAL.match(subject)
    if not m:
        return Subject(None, None, subject)
    scope = (m.group("scope") or "").strip() or None
    return Subject(m.group("type"), scope, m.group("text").strip(), bool(m.group("bang")))


def strip_refs(text: str) -> str:
    return _REFS.sub("", text).strip()


def words(text: str) -> list[str]:
    """Lower-case words of a description, for comparing two of them."""
    return _WORD.findall(text.lower())
