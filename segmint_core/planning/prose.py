"""A small edit of prose, named by what it adds or removes: a handle, a name, a link.

"docs: update Readme.md" says only where; an engineer titles a one-line edit
of a team list, a link or a name by what it is ("add @krzysdz to the triage
team", "remove reference to gitter", "fix logo link"). The salient terms are
read off the changed lines of docs files: a handle (``@name``, or a link to
a GitHub profile), a link's text or a code span, else a word that looks like
a name (capitals, digits, ``_`` or ``-`` inside, a capital inside a
sentence). A term is added when the added lines hold it more
often than the removed ones, and removed the other way round. Only edits
small enough to be about one thing, and that only add or only remove names,
are read; a rewritten sentence says nothing a single term could name.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from segmint_core.changes.markup import is_fence

MAX_LINES = 6  # changed lines per side; past that the edit is about more than one thing
MAX_TERMS = 2
_URL = re.compile(r"(?:https?://|www\.)[^\s)\]>\"'`]+")
_HANDLE = re.compile(r"(?<![\w/.])@[A-Za-z0-9][A-Za-z0-9_-]*")
# A code span: reStructuredText's ``literal`` whole, else Markdown's `code` (not a link's `text`_).
_SPAN = re.compile(r"``([^`\n]{1,40}?)``|(?<!`)`([^`\n]{2,40})`(?![_`])")
# A Sphinx or MyST role's target marks (``{attr}`~Context.width```: "show the last part"), not its name.
_ROLE_MARK = re.compile(r"(?<=[}:])`[~!]")
# The text of a link: Markdown's ``[text](url)``, reStructuredText's ``\`text\`_``.
_LINK_TEXT = re.compile(r"(?<!!)\[([^\]\n]{2,40})\]\(([^)\s]*)|`([^`\n]{2,80})`__?")
_PROFILE = re.compile(r"https?://(?:www\.)?github\.com/([A-Za-z0-9][\w-]*)/?")
_RST_TARGET = re.compile(r"\s*<[^>]*>$")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[._-][A-Za-z0-9]+)*")
# Markup a prose line starts with: a list item, a quote, a table cell, a heading.
_ITEM = re.compile(r"^\s*(?:[-*+|>#]|\d+[.)])\s*")


Line = tuple[str, str]  # (path, text)


@dataclass(frozen=True)
class ProseEdit:
    added: tuple[str, ...] = ()  # salient terms the edit adds
    removed: tuple[str, ...] = ()  # and those it takes out
    links: int = 0  # links changed, where the lines differ in nothing else
    paths: tuple[str, ...] = ()  # the files the named terms are in
    instructions: str | None = None  # "install instructions", "instructions": a block of commands only added
    badges: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # (added, removed): every line a badge
    references: tuple[str, ...] = ()  # "PR 2543", "#12": all the lines gain, the rest as it was
    quoted: tuple[str, ...] = ()  # terms put in quote marks, the words as they were: "'black[d]'"

    @property
    def links_only(self) -> bool:
        return self.links > 0 and not self.added and not self.removed


def read_edit(added: list[Line], removed: list[Line]) -> ProseEdit | None:
    """The edit's salient terms, or None where it is too large or names nothing."""
    added = [(path, text) for path, text in added if text.strip()]
    removed = [(path, text) for path, text in removed if text.strip()]
    if not (added or removed) or len(added) > MAX_LINES or len(removed) > MAX_LINES:
        return None
    if badges := _badges(added, removed):
        return badges
    if references := _references(added, removed):
        return references
    if quoted := _quoted(added, removed):
        return quoted
    if links := _links_edit(added, removed):  # before terms: a link's new target is no new name
        return links
    shown: dict[str, str] = {}
    plus, minus = _terms(added, shown), _terms(removed, shown)
    gained = _named(_salient(_recased(plus - minus, removed)))
    lost = _named(_salient(_recased(minus - plus, added)))
    if gained and lost:
        return None  # words rewritten: a clean swap of one word is a rename (``facts.renames``)
    if gained or lost:
        side = added if gained else removed
        paths = tuple(
            dict.fromkeys(path for path, text in side if any(_terms([(path, text)], {})[t] for t in gained + lost))
        )
        said = tuple(shown.get(t, t) for t in gained)
        return ProseEdit(
            said, tuple(shown.get(t, t) for t in lost), paths=paths, instructions=_instructions(added, removed)
        )
    return None


# A badge: an image in a link, ``[![Go Reference](https://.../badge.svg)](https://...)``, by its text.
_BADGE = re.compile(r"\[!\[([^\]\n]{0,60})\]\([^)\s]{0,400}\)\]\(")
# A reference to a pull request or an issue: Sphinx's ``:pr:`2543``` or ``:issue:`12```, ``#12``, ``GH-12``.
_REFERENCE = re.compile(r":(pr|issue|gh|ghpr|bug):`#?(\d{1,7})`|(?<![\w&/#])(#|GH-)(\d{1,7})\b")
_ROLES = {"pr": "PR ", "ghpr": "PR ", "issue": "issue ", "gh": "issue ", "bug": "issue "}


def _badges(added: list[Line], removed: list[Line]) -> ProseEdit | None:
    """An edit whose every changed line shows a badge: the badges by their text."""
    if not all(_BADGE.search(text) for _, text in added + removed):
        return None
    new = [alt.strip() for _, text in added for alt in _BADGE.findall(text)]
    old = [alt.strip() for _, text in removed for alt in _BADGE.findall(text)]
    paths = tuple(dict.fromkeys(path for path, _ in added + removed))
    return ProseEdit(badges=(tuple(new), tuple(old)), paths=paths)


def _references(added: list[Line], removed: list[Line]) -> ProseEdit | None:
    """References to pull requests or issues the lines gain, where nothing else of them changed."""
    gained = Counter(_cited(added)) - Counter(_cited(removed))
    bare = [(path, _REFERENCE.sub(" ", text)) for path, text in added]
    if not gained or _plain_words(bare) != _plain_words([(p, _REFERENCE.sub(" ", t)) for p, t in removed]):
        return None
    paths = tuple(dict.fromkeys(path for path, text in added if _REFERENCE.search(text)))
    return ProseEdit(references=tuple(gained), paths=paths)


# A term in quote marks: ``'black[d]'``, ``"*.py"``; not an apostrophe's word.
_QUOTED = re.compile(r"""(?<![\w'"])(['"])([^'"\s]{1,60})\1(?![\w'"])""")


def _quoted(added: list[Line], removed: list[Line]) -> ProseEdit | None:
    """Terms the lines put in quote marks, where nothing else of them changed (a line may wrap)."""
    unquoted = lambda lines: _QUOTED.sub(r"\2", " ".join(text for _, text in lines)).split()  # noqa: E731
    if not added or unquoted(added) != unquoted(removed):
        return None
    before = Counter(term for _, text in removed for _, term in _QUOTED.findall(text))
    now = Counter(term for _, text in added for _, term in _QUOTED.findall(text))
    terms = tuple(now - before)
    if not terms:
        return None
    paths = tuple(dict.fromkeys(path for path, text in added if any(t in text for t in terms)))
    return ProseEdit(quoted=terms, paths=paths)


def _cited(lines: list[Line]) -> list[str]:
    found = [m for _, text in lines for m in _REFERENCE.findall(text)]
    return [f"{_ROLES[role]}{number}" if role else f"{mark}{bare}" for role, number, mark, bare in found]


# A line that runs a command: ``cargo install fd-find``, ``> go get -v ...``, ``$ pip install x``.
_COMMAND = re.compile(
    r"^\s*(?:[$>%]\s*)?(?:sudo\s+)?(?:cargo|go|pip3?|pipx|npm|npx|yarn|pnpm|brew|apt(?:-get)?|gem|conda|choco|"
    r"scoop|winget|dnf|pacman|snap|docker|make|git)\s+[\w-]"
)
_INSTALL = re.compile(r"\b(?:install|get|add)\b")


def runs_command(text: str) -> bool:
    return bool(_COMMAND.match(text))


def _instructions(added: list[Line], removed: list[Line]) -> str | None:
    """What a page gains that holds commands to run (a line that runs one, or a fenced block
    only added): steps, as engineers call them (``install instructions`` where they install)."""
    fenced, inside = [], False
    if not removed:
        for _, text in added:
            if is_fence(text):
                inside = not inside
            elif inside:
                fenced.append(text)
    commands = [text for _, text in added if runs_command(text)]
    if not fenced and not commands:
        return None
    installs = any(_INSTALL.search(text) for text in commands) or any(_INSTALL.search(t) for t in fenced)
    return "install instructions" if installs else "instructions"


def _terms(lines: list[Line], shown: dict[str, str]) -> Counter:
    """Candidate terms in order of appearance, counted; a term is kept as written, and
    ``shown`` learns how to write one that links to its GitHub profile (``@bob``)."""
    out: Counter = Counter()
    for _, line in lines:
        text = _ROLE_MARK.sub("`", _ITEM.sub("", line))
        for markdown, url, rst in _LINK_TEXT.findall(text):
            name = (markdown or _RST_TARGET.sub("", rst)).strip()  # `Heroku <https://...>`_ is "Heroku"
            name = name.removeprefix("![")  # a badge (an image in a link) is known by its image's text
            profile = _PROFILE.fullmatch(url)
            if profile and profile.group(1).lower() == name.lower():
                shown[name] = f"@{profile.group(1)}"  # [bob](https://github.com/bob) is @bob
            if name:
                out[name] += 1
        text = _LINK_TEXT.sub(" ", text)
        bare = without_links(text)
        for handle in _HANDLE.findall(bare):
            out[handle] += 1
        for literal, code in _SPAN.findall(text):
            span = literal or code
            if _WORD.search(span) and not _URL.search(span):  # not the `: ` between two spans, nor an address
                out[f"`{span}`"] += 1
        text = _SPAN.sub(" ", _HANDLE.sub(" ", bare))
        end = 0
        for found in _WORD.finditer(text):
            gap = text[end : found.start()].rstrip(_OPENERS)  # what the word follows since the last one
            if _name_like(found.group(), first=(end == 0 and not gap) or gap.endswith(_SENTENCE_ENDS)):
                out[found.group()] += 1
            end = found.end()
    return out


def _recased(terms: Counter, other: list[Line]) -> Counter:
    """``terms`` without those the other side still holds in another case: ``Usage`` -> ``usage``
    in a heading removes no name."""
    text = " ".join(line for _, line in other).casefold()
    words = set(re.findall(r"\w+", text))  # a one-word term is looked up, not searched for: a blob has thousands
    return Counter(
        {
            t: n
            for t, n in terms.items()
            if not (
                t.casefold() in words
                if re.fullmatch(r"\w+", t)
                else re.search(rf"(?<!\w){re.escape(t.casefold())}(?!\w)", text)
            )
        }
    )


# What a sentence's first word follows: nothing, a full stop, a colon or a comment's mark
# (``them.  For some examples``, ``# Replace by any tag``), then blanks, emphasis or quotes.
_SENTENCE_ENDS = (".", "!", "?", ":", "#", "//")
_OPENERS = " \t*_>([\"'"


def _name_like(word: str, first: bool = False) -> bool:
    """A word that names something: ``GitHub``, ``v4``, ``python-gitlab``, a capitalized
    word inside a sentence (``Gitter``); ``the`` and a sentence's first word are not."""
    inner = word[1:]
    return len(word) >= 3 and (
        any(c.isupper() for c in inner)
        or any(c.isdigit() for c in word)
        or any(c in "_-." for c in word)
        or (word[0].isupper() and not first)
    )


def _salient(terms: Counter) -> list[str]:
    """Handles, then link texts and code spans, then name-like words; each in order of appearance."""
    order = [t for t, n in terms.items() if n > 0]
    return [t for _, t in sorted(enumerate(order), key=lambda at: (_rank(at[1]), at[0]))]


def _rank(term: str) -> int:
    return 0 if term.startswith("@") else 1 if term.startswith("`") or " " in term else 2


def _named(terms: list[str]) -> tuple[str, ...]:
    """The first term, and the second where both are handles, code spans or link texts (a word
    that only looks like a name is shown alone: ``zip_safe=False`` removed is ``zip_safe``)."""
    return tuple(t for n, t in enumerate(terms[:MAX_TERMS]) if n == 0 or _rank(t) == _rank(terms[0]) < 2)


def without_links(text: str) -> str:
    """``text`` with its web addresses blanked out."""
    return _URL.sub(" ", text)


def _links_edit(added: list[Line], removed: list[Line]) -> ProseEdit | None:
    """Links pointed elsewhere, the words around them as they were: web addresses, and the
    targets of Markdown links (``[parallel requests](../parallel/)`` -> ``(parallel.md)``)."""
    new, old = _links(added), _links(removed)
    if new == old or _plain_words(added) != _plain_words(removed):
        return None
    changed = new ^ old
    paths = tuple(dict.fromkeys(path for path, text in added + removed if _links([(path, text)]) & changed))
    return ProseEdit(links=max(len(new - old), len(old - new)), paths=paths)


# The target of a Markdown link, ``[text](target)``, relative or not; not an image's (a new
# image is no link fixed) nor an address to write to (a new email is no link fixed).
_LINK_TARGET = re.compile(r"(?<!!)\[[^\[\]]*\]\((?!mailto:)([^()\s]+)(?:\s+\"[^\"]*\")?\)")


def _links(lines: list[Line]) -> set[str]:
    return {url for _, line in lines for url in [*_URL.findall(line), *_LINK_TARGET.findall(line)]}


def _untargeted(link: re.Match) -> str:
    """``[text](target)`` -> ``[text]()``."""
    return link.string[link.start() : link.start(1)] + link.string[link.end(1) : link.end()]


def _plain_words(lines: list[Line]) -> Counter:
    return Counter(
        w.lower() for _, line in lines for w in _WORD.findall(without_links(_LINK_TARGET.sub(_untargeted, line)))
    )
