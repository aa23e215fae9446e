"""The verb a plain house's title leads with: what the diff backs, weighed by what the house writes.

Our wordings of an edit start with a verb that only says code changed (``update``,
``correct``). The diff often says more: lines only added (or far more added than
removed) back ``add``; lines only removed (or far more removed) back ``remove``.
The past commits most like the change (``precedent.vote``) say which verb the
house writes for such a change; a verb the diff does not allow never wins, and
``fix`` needs evidence (``claims.fix_evidence``, or fix-worded neighbours). The
verb the diff backs adds ``Voting.evidence`` to the neighbours' shares. A house's
own synonym for a verb (``drop`` for ``remove``, ``update`` for ``bump``), the
one it writes most often for it, is used in its place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from segmint_core.planning.facts import Facts
from segmint_core.planning.precedent import Precedent, Weights
from segmint_core.planning.tense import imperative

PURE = 2  # how many times more the verb of lines only added or only removed weighs
# Our verbs that say only that code changed: a plain house's own verb for such a change replaces them.
REPLACEABLE = {"update", "correct", "restructure", "simplify", "extend", "change"}
COMMENTS = ("a comment", "comments")  # what ``facts.lines_named`` calls lines of comments alone
GROWS = 3  # added lines at least this many times the removed (and 2 more) read as an addition
# What a house may write for one of our verbs: the one it writes most replaces ours.
HOUSE_SYNONYMS = {
    "remove": ("remove", "drop", "delete"),
    "bump": ("bump", "update", "upgrade"),
}


def shape_verb(facts: Facts) -> str | None:
    """``add`` where the change only adds lines or far more than it removes, ``remove`` the other way."""
    added, removed = facts.added, facts.removed
    if added and added >= GROWS * removed + (2 if removed else 0):
        return "add"
    if removed and removed >= GROWS * added + (2 if added else 0):
        return "remove"
    return None


def allowed(facts: Facts, fixes: bool) -> set[str]:
    """The verbs the diff backs for a change our rules only word as an edit."""
    found = {"update", "improve", "change", "refactor", "clean"}
    if fixes:
        found.add("fix")
    if facts.added > facts.removed:
        found.add("add")
    if facts.removed > facts.added:
        found.update(("remove", "drop"))
    return found


def choose(shares: Weights, facts: Facts, fixes: bool, share: float, evidence: float) -> str | None:
    """The verb for an edit: the neighbours' shares (``fix`` among them only where the diff or the
    house backs it), the diff's own verb adding ``evidence``; None where none reaches ``share``."""
    backed = shape_verb(facts)
    ok = allowed(facts, fixes or shares.get("fix", 0.0) >= share)
    scores = Weights({v: s for v, s in shares.items() if v in ok})
    if backed is not None:  # lines only added (or removed) weigh twice as much as far more added
        scores[backed] += evidence * (1 if facts.added and facts.removed else PURE)
    if not scores:
        return None
    verb, score = max(scores.items(), key=lambda item: (item[1], item[0] == backed))
    return verb if score >= share else None


def house_word(verb: str, phrasings: list[Precedent]) -> str:
    """``verb`` as the house writes it: its most written synonym (``drop``; ``update`` for a
    bump, read from its past bumps alone), else ``verb``."""
    options = HOUSE_SYNONYMS.get(verb)
    if not options:
        return verb
    pool = [p for p in phrasings if "c:bump" in p.features] if verb == "bump" else phrasings
    used = Counter(p.type for p in pool if p.type in options)
    return max(options, key=lambda v: (used[v], v == verb))


def first_verb(text: str) -> str:
    return imperative(text.partition(" ")[0])


def worded(text: str, verb: str | None, facts: Facts, q: Callable[[str], str]) -> list[str]:
    """``text`` (``update X``) led by ``verb``: ``add`` says what it adds where the change writes
    new names (``add gcc_prefix to make_deb``), else what its lines are (``add a comment to
    CHANGELOG.md``, never ``add CHANGELOG.md``, which says the file is new, nor the object-less
    ``add to CHANGELOG.md``); ``remove`` likewise."""
    ours, _, rest = text.partition(" ")
    if not verb or not rest or ours.lower() not in REPLACEABLE:
        return [text]
    if verb not in ("add", "remove", "drop"):
        return [f"{verb} {rest}"]
    if rest.startswith("tests "):  # "remove tests for x" only where no line is added
        pure = not (facts.removed if verb == "add" else facts.added)
        return [f"{verb} {rest}" if pure or verb == "add" else text]
    what = facts.new_lines if verb == "add" else facts.gone_lines  # never an object-less "add to X"
    # a name that is the place itself says nothing ("add parse_docstring to parse_docstring": a message
    # naming it), nor does one a comment mentions (black's `Remove setup.cfg from .flake8` took two
    # comment lines that named it for the setting removed)
    place = rest.split(" in ", 1)[0]  # "SessionMiddleware" of "SessionMiddleware in middleware.md"
    names = [n for n in (facts.new_names if verb == "add" else facts.gone_names) if q(n) not in (rest, place)]
    names = [] if what in COMMENTS else names
    joint = "to" if verb == "add" else "from"
    named = [f"{verb} {q(n)} {joint} {rest}" for n in names[:1]] + [f"{verb} {q(n)}" for n in names[:1]]
    if not what:
        return named + [text]
    if what.endswith(" entries"):  # forty contributors added are not the one of them a name was read from
        return [f"{verb} {what} {joint} {rest}"] + named
    return named + [f"{verb} {what} {joint} {rest}"]
