"""What a prompt says: its actionable clause, the why it gives, whether it follows up on the task before.

People ask agents in sentences ("Hey, can you please fix the crash on an
empty config? It happens because ..."); a commit title wants the clause that
says what to do ("fix the crash on an empty config"), a body wants the why,
and grouping wants to know whether "now also handle the empty case" goes on
with the task before it or starts another.
"""

from __future__ import annotations

import re

from segmint_core.wording import uncapitalized

# Openers that carry no task: greetings, acknowledgements, politeness.
_FILLER = re.compile(
    r"^(?:(?:ok(?:ay)?|so|hey|hi|hello|great|nice|good|perfect|thanks|thank you|cool|alright|all right|right|"
    r"yes|yeah|well|hmm+|oh|oops|wait|actually|please|pls|kindly|now|next|then|and|also|additionally|"
    r"one more thing|one more|btw|by the way)\b[\s,.!:;-]*)+",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^(?:(?:can|could|would|will) you(?: please)?(?: also)?|i(?:'d| would) like you to|i want you to|i need you to|"
    r"i(?:'d| would) like to|i want to|i need to|let'?s|let us|we (?:need|should|must|have) to|"
    r"you (?:need|should|must|have) to|go ahead and|try to|help me|make sure to|make sure you|"
    r"it would be (?:great|nice) (?:if you could|to)|please)\b[\s,]*",
    re.IGNORECASE,
)
# Where the what ends and the why (or more detail) begins.
# Started only where a run of blanks starts, as _TRAILING below.
_WHY = re.compile(
    r"(?<!\s)(?:\s*+,\s*+|\s++)(because|so that|since|as otherwise|otherwise|in order to)\s+(.+)",
    re.IGNORECASE | re.DOTALL,
)
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)\]`'\"])[.!?](?:\s|$)|\n|;\s|\s[-–—]\s", re.IGNORECASE)
_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
# Started only where a run of blanks and stops starts: each run is read once, not once per
# character (a prompt with 6,400 blanks in a row took 1 s before).
_TRAILING = re.compile(
    r"(?<![\s,.!?:;])[\s,.!?:;]*+(?:\b(?:please|thanks|thank you|for me|if you can|if possible)\b[\s,.!?]*+)*+$",
    re.IGNORECASE,
)

# How a follow-up opens: going on with the task just asked, or reacting to its result.
_FOLLOW_UP = re.compile(
    r"^(?:now also|and also|also|now|then|next|additionally|but|still|again|same|one more|oh and|and|plus|"
    r"that (?:broke|didn't|did not|doesn't|does not|failed|fails|isn't|is not|works|worked)|this (?:broke|didn't|"
    r"doesn't|fails)|it (?:still|doesn't|does not|didn't|broke|fails|failed)|the tests? (?:fail|still|broke|are)|"
    r"tests? (?:fail|still)|revert that|undo that|fix that|fix it|fix this|do the same|do that|make it|"
    r"looks good|lgtm|almost|not quite|close|nope|no,|oops|actually|wait|instead|rather|as well|too)\b",
    re.IGNORECASE,
)
_OPENER = re.compile(
    r"^(?:(?:ok(?:ay)?|great|nice|good|perfect|thanks|thank you|cool|alright|yes|yeah|hmm+)\b[\s,.!]*)+", re.IGNORECASE
)
# A follow-up's reference back to the work just done.
_ANAPHORA = re.compile(r"\b(?:it|that|this|those|these|them|as well|too|there|the same)\b", re.IGNORECASE)

_IRREGULAR = {
    "making": "make",
    "writing": "write",
    "using": "use",
    "moving": "move",
    "removing": "remove",
    "handling": "handle",
    "updating": "update",
    "creating": "create",
    "changing": "change",
    "deleting": "delete",
    "renaming": "rename",
    "replacing": "replace",
    "improving": "improve",
    "raising": "raise",
    "caching": "cache",
    "parsing": "parse",
    "closing": "close",
    "running": "run",
    "setting": "set",
    "getting": "get",
    "putting": "put",
    "stopping": "stop",
    "dropping": "drop",
    "splitting": "split",
    "adding": "add",
    "fixing": "fix",
    "added": "add",
    "fixed": "fix",
    "removed": "remove",
    "updated": "update",
    "renamed": "rename",
    "moved": "move",
    "made": "make",
    "used": "use",
    "changed": "change",
    "handled": "handle",
    "created": "create",
    "replaced": "replace",
    "deleted": "delete",
    "improved": "improve",
    "wrote": "write",
    "fixes": "fix",
    "adds": "add",
    "removes": "remove",
    "updates": "update",
    "makes": "make",
    "uses": "use",
    "handles": "handle",
    "changes": "change",
    "renames": "rename",
    "moves": "move",
    "bumped": "bump",
    "bumps": "bump",
    "allows": "allow",
    "allowed": "allow",
    "supports": "support",
    "supported": "support",
    "ensures": "ensure",
    "ensured": "ensure",
    "refactored": "refactor",
    "refactors": "refactor",
    "documented": "document",
    "documents": "document",
    "tests": "test",
    "tested": "test",
    "improves": "improve",
    "implemented": "implement",
    "implements": "implement",
    "reverted": "revert",
    "reverts": "revert",
    "dropped": "drop",
    "drops": "drop",
}


def actionable(text: str) -> str:
    """The clause of a prompt that says what to do, imperative, without politeness or the why.

    ``"Hey, can you please fix the crash on an empty config? Users hit it."``
    gives ``"fix the crash on an empty config"``. Empty when nothing is left.
    """
    text = _CODE_BLOCK.sub(" ", text or "").strip()
    for sentence in _sentences(text):
        clause = _strip_request(sentence)
        clause = _WHY.split(clause, maxsplit=1)[0]
        clause = _unquoted(_TRAILING.sub("", clause).strip())
        if len(clause.split()) >= 2 or (clause and len(_sentences(text)) == 1):
            return _imperative(clause)
    return ""


def _unquoted(clause: str) -> str:
    """The clause without the quotes around the whole of it, or one left open at an end; quotes that
    open and close inside it stay ("... should say 'them'")."""
    for mark in "\"'`":
        if clause.count(mark) == 2 and len(clause) > 2 and clause[0] == clause[-1] == mark:
            return clause[1:-1].strip()
        if clause.count(mark) % 2:
            clause = clause[1:] if clause.startswith(mark) else clause[:-1] if clause.endswith(mark) else clause
    return clause.strip()


def reason(text: str) -> str | None:
    """The why a prompt gives ("... because X", "... so that X"), as a sentence; None when it gives none."""
    text = _CODE_BLOCK.sub(" ", text or "").strip()
    found = _WHY.search(text)
    if found is None:
        return None
    connective, rest = found.group(1).lower(), found.group(2)
    rest = _SENTENCE_END.split(rest, maxsplit=1)[0].strip().rstrip(".!?,;:")
    if len(rest.split()) < 2:
        return None
    lead = {"because": "Because", "so that": "So that", "since": "Since", "in order to": "In order to"}.get(
        connective, "Otherwise"
    )
    return f"{lead} {rest}."


def is_follow_up(text: str) -> bool:
    """Whether a prompt is worded as going on with the task before it ("now also ...", "that broke
    the test, fix it") rather than as a task of its own."""
    head = _OPENER.sub("", (text or "").strip()).strip()
    if _FOLLOW_UP.match(head):
        return True
    # A short prompt that only points back ("fix it", "do that for the docs too").
    words = head.split()
    return 0 < len(words) <= 6 and bool(_ANAPHORA.search(head)) and not _REQUEST.match(head)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def _strip_request(sentence: str) -> str:
    previous = None
    text = sentence.strip()
    while previous != text:
        previous = text
        text = _FILLER.sub("", text).strip()
        text = _REQUEST.sub("", text).strip()
    return text


def _imperative(clause: str) -> str:
    first, _, rest = clause.partition(" ")
    verb = _IRREGULAR.get(first.lower())
    if verb is None and first.lower().endswith("ing") and len(first) > 5 and first[:1].islower():
        verb = first[:-3]
    if verb is not None:
        first = verb
    else:
        first = uncapitalized(first)
    return f"{first} {rest}".strip()
