"""A subject in the repository's own voice: its types, its scopes, its wording.

The offline rules (``messages.py``) say what the change is; the house style
(``style.py``) says how this repository would title it. With Conventional
Commits, the type and scope are voted by the past commits most like this one
(``precedent.vote``), the rules' own type counting as one more voter, and a
scope the house already uses that names a folder or file of the change
counting too. Without them, the subject is a plain sentence in the house's
capitalization and mood. Dependency bumps and releases use the house's own
wording of them.
"""

from __future__ import annotations

from collections import Counter

from segmint_core.planning import messages
from segmint_core.planning.facts import Facts
from segmint_core.planning.precedent import Touched, features, path_words, vote
from segmint_core.planning.style import HouseStyle

RULE_WEIGHT = 0.5     # the rules' type, against neighbour votes that sum to 1
PATH_WEIGHT = 0.5     # a known scope named by the change's paths, likewise
QUOTES_SHARE = 0.3    # a house quoting names in backticks this often gets them quoted
SYNONYMS = {"test": ("tests",), "docs": ("doc", "documentation"), "feat": ("feature",), "fix": ("bugfix",),
            "style": ("lint",), "build": ("deps", "chore"), "ci": ("build", "chore")}
PAST = {"add": "added", "remove": "removed", "fix": "fixed", "update": "updated", "rename": "renamed",
        "move": "moved", "bump": "bumped", "handle": "handled", "raise": "raised", "use": "used",
        "correct": "corrected", "format": "formatted", "document": "documented", "restructure": "restructured",
        "release": "released"}


def title_parts(style: HouseStyle, facts: Facts, touched: list[Touched]) -> tuple[list[str], list[str]]:
    """The title's possible heads (``type(scope):``, then shorter) and wordings, most detailed first."""
    rule = messages.commit_type(facts)
    q = (lambda name: f"`{name}`") if style.learned and style.quotes >= QUOTES_SHARE else messages.plain
    wordings = _house_wordings(style, facts, q) + messages.subjects(rule, facts, q)
    if not style.follows_conventional:
        return [""], [_plain_voice(style, w) for w in wordings]
    kind, scope = type_and_scope(style, facts, touched, rule)
    wordings = [_conventional_voice(style, w) for w in wordings]
    heads = [f"{kind}({scope}):", f"{kind}:"] if scope else [f"{kind}:"]
    return heads, wordings


def type_and_scope(style: HouseStyle, facts: Facts, touched: list[Touched], rule: str) -> tuple[str, str | None]:
    if not style.learned:
        return rule, messages.scope(facts)
    why = messages.intent(facts)
    pool = [p for p in style.precedents if p.intent == why] if why else style.precedents
    votes = vote(pool or style.precedents, features(touched))
    ours = _house_type(style, rule)
    types: Counter = Counter({t: w / votes.weight for t, w in votes.types.items() if t}) if votes.weight else Counter()
    if ours:
        types[ours] += RULE_WEIGHT
    kind = max(types, key=lambda t: (types[t], t == ours)) if types else ours or rule
    scopes: Counter = Counter({s: w / votes.weight for s, w in votes.scopes.items()}) if votes.weight else Counter()
    words = path_words(facts.paths)
    for known in style.scopes:
        if known.lower() in words or all(part in words for part in known.lower().split("-")):
            scopes[known] += PATH_WEIGHT
    if not scopes:
        return kind, messages.scope(facts) if style.scope_share >= 0.5 else None
    return kind, max(scopes, key=lambda s: (scopes[s], s is None))


def _house_type(style: HouseStyle, rule: str) -> str | None:
    """The house's word for the rules' type: itself if the house uses it, else a synonym it uses."""
    if rule in style.types:
        return rule
    return next((s for s in SYNONYMS.get(rule, ()) if s in style.types), None)


def _house_wordings(style: HouseStyle, facts: Facts, q) -> list[str]:
    why = messages.intent(facts)
    if why == "deps" and style.bump and len(facts.bumps) == 1:
        b = facts.bumps[0]
        pattern = style.bump.pattern
        if "{old}" not in pattern or b.old:
            return [pattern.format(name=b.name, old=_unv(pattern, "old", b.old), new=_unv(pattern, "new", b.new))]
    if why == "release" and style.release:
        version = messages.release_version(facts) or ""
        pattern = style.release.pattern
        if pattern.endswith("v{version}") and version.startswith("v"):
            version = version[1:]
        return [pattern.format(version=version)]
    return []


def _unv(pattern: str, slot: str, version: str) -> str:
    """A version without its ``v`` where the pattern writes one before the slot."""
    return version[1:] if f"v{{{slot}}}" in pattern and version.startswith("v") else version


def _conventional_voice(style: HouseStyle, text: str) -> str:
    if not style.learned:
        return text
    return _finish(style, text[:1].upper() + text[1:] if style.capitalized >= 0.5 else text[:1].lower() + text[1:])


def _plain_voice(style: HouseStyle, text: str) -> str:
    verb, _, rest = text.partition(" ")
    verb = verb.lower()
    if verb == "correct":
        verb = "fix"
    if style.past_tense >= 0.5:
        verb = PAST.get(verb, verb)
    text = f"{verb} {rest}".strip()
    text = text[:1].upper() + text[1:] if style.capitalized >= 0.5 else text
    return _finish(style, text)


def _finish(style: HouseStyle, text: str) -> str:
    return text + "." if style.period >= 0.5 and not text.endswith(".") else text
