"""A subject's verb in the past tense, and back: "add" is "added", "Fixes" and "fixed" are "fix"."""

from __future__ import annotations

PAST = {
    "add": "added",
    "remove": "removed",
    "fix": "fixed",
    "update": "updated",
    "rename": "renamed",
    "move": "moved",
    "bump": "bumped",
    "handle": "handled",
    "raise": "raised",
    "use": "used",
    "correct": "corrected",
    "format": "formatted",
    "document": "documented",
    "restructure": "restructured",
    "release": "released",
    "extract": "extracted",
    "extend": "extended",
    "replace": "replaced",
    "simplify": "simplified",
    "speed": "sped",
    "pass": "passed",
    "set": "set",
    "delete": "deleted",
    "change": "changed",
    "make": "made",
    "improve": "improved",
    "allow": "allowed",
    "support": "supported",
    "drop": "dropped",
    "clean": "cleaned",
    "refactor": "refactored",
    "implement": "implemented",
    "enable": "enabled",
    "disable": "disabled",
    "avoid": "avoided",
    "ensure": "ensured",
    "prevent": "prevented",
    "deprecate": "deprecated",
    "introduce": "introduced",
    "reformat": "reformatted",
    "sort": "sorted",
    "rearrange": "rearranged",
    "test": "tested",
    "revert": "reverted",
    "upgrade": "upgraded",
    "tweak": "tweaked",
}
PRESENT = {past: verb for verb, past in PAST.items()}


def imperative(word: str) -> str:
    """``added``, ``adds``, ``adding`` -> ``add``: a subject's first word in the form of a command
    (lower case); a word that is no known verb in another form is kept as it is."""
    word = word.lower()
    if word in PRESENT:
        return PRESENT[word]
    for ending, back in (("ies", "y"), ("es", ""), ("s", ""), ("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e")):
        if word.endswith(ending) and (stem := word[: -len(ending)] + back) in PAST:
            return stem
    return word
