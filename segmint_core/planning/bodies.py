"""A commit's body: what the title and git do not already say, or nothing.

git shows which files changed and by how many lines (``git show --stat``); a
body repeating that is noise. What git does not show at a glance is why, and
what the change does to behaviour. So a body holds, each only where the
change itself says it:

- the entries the change adds to a changelog (the author's own words for it,
  read as ``changes.changelog`` reads one);
- the issues its added lines reference (``#123``, ``GH-123``, ``:issue:`123```);
- the first line of the docstrings of the code it adds, unless a changelog
  entry names the definition (the author's words already say what it does);
- the comments it adds that say why (``because``, ``otherwise``, ``so that``...);
- behaviour: a flag added, an error now raised or handled, a parameter added;
- the tests it adds, their names in words, when it changes code too;
- each dependency bumped, with its versions, where the title does not say both.

Nothing the title already names. Paragraphs wrapped at 72 columns, as git's
own tools show a body.
"""

from __future__ import annotations

import re
import textwrap
from itertools import islice
from pathlib import PurePosixPath

from segmint_core.changes.changelog import (
    BARE_REFERENCE,
    ROLE_REFERENCE,
    changelog_entry,
    entry_lines,
    roles_written,
)
from segmint_core.changes.kinds import is_doc_path, is_test_path
from segmint_core.changes.models import Change, Hunk
from segmint_core.planning.cases import ADDED, cases
from segmint_core.planning.facts import Facts
from segmint_core.planning.messages import intent, is_changelog, is_code
from segmint_core.planning.titles import one_line

WIDTH = 72
MOST_ENTRIES = 5  # changelog entries quoted; a release's whole list stays in its file
MOST_DOCSTRINGS = 3
MOST_ISSUES = 5
MOST_TESTS = 3

Parts = list[tuple[Change, list[Hunk]]]

# Words a comment saying why uses; a comment without one labels code ("Bugbear opinions").
_WHY = re.compile(
    r"\b(?:because|since|so that|so the|so it|otherwise|to avoid|to prevent|to keep|to make sure|"
    r"in order|ensures?|needs?|needed|must|required|requires|workaround|work around|can't|cannot|won't|"
    r"would|doesn't|does not|don't|fails?|breaks?|bug|instead|unless|until|only when|never|why|note)\b",
    re.IGNORECASE,
)
# Words a sentence has and a label does not.
_FUNCTION = re.compile(
    r"\b(?:the|a|an|is|are|was|were|be|been|to|of|for|when|if|that|this|it|its|we|you|than|with|not|no|"
    r"should|can|will|only|before|after|first|then|means|uses?)\b",
    re.IGNORECASE,
)
_ISSUE = re.compile(
    rf"\bGH-(\d{{1,6}})\b|{ROLE_REFERENCE}|github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull)/(\d{{1,6}})",
    re.IGNORECASE,
)
# A bare ``#123``: in a changelog or the docs any, in code only after a word naming an issue (``#333`` is a colour).
_BARE_ISSUE = re.compile(BARE_REFERENCE)
_ISSUE_WORD = re.compile(
    r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|see|refs?|issues?|pr|pull request|bug|ticket)\b[^#]{0,12}#\d",
    re.IGNORECASE,
)
_LITERAL = re.compile(r"``([^`]+)``")
_PY_DEF = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)")
_DOCSTRING_OPEN = re.compile(r"""^\s*[rRbBuU]?("{3}|'{3})\s*(.*)$""")
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)[.!?](?=\s)")
_URL_FIRST = re.compile(r"^(?:<?https?://\S+>?[\s:,-]*)+")


def body(facts: Facts, parts: Parts, title: str = "") -> str:
    """The body for the change ``parts`` make, titled ``title``: why and what it does, or ""."""
    said = title.lower()
    written = changelog_entries(parts)
    entries = [e for e in written if not _repeats(e, title)]
    paragraphs = [_list(entries[:MOST_ENTRIES]) + _more(len(entries) - MOST_ENTRIES)]
    said_in_entries = " ".join(entries)
    unsaid = (i for i in issue_references(parts) if i not in said_in_entries and i not in title)
    issues = list(islice(unsaid, MOST_ISSUES))  # the first few: a line may name thousands
    if issues:
        paragraphs.append(f"Refs {', '.join(issues)}.")
    documented = [
        (name, line)
        for name, line in docstrings(parts)
        if not _repeats(line, title) and not _names(" ".join(written), name)  # the author's words say it
    ]
    paragraphs.append(_list([f"{name}: {line}" for name, line in documented]))
    paragraphs.append(_prose(why_comments(facts)))
    paragraphs.append(_prose(_behaviour(facts, said)))
    paragraphs.append(_tested(parts, facts, said))
    if intent(facts) == "deps":  # each version moved, where the title does not say both ends
        bumps = [b for b in facts.bumps if not (b.name in title and b.old in title and b.new in title)]
        paragraphs.append("\n".join(f"{one_line(b.name)}: {one_line(b.old)} -> {one_line(b.new)}" for b in bumps))
    return "\n\n".join(wrap(p) for p in paragraphs if p)


def changelog_entries(parts: Parts) -> list[str]:
    """The entries the change adds to changelog files, each as one line of plain text; an entry it
    also takes out (a changelog moved, or converted to another format) is none."""
    out: dict[str, None] = {}  # in the order added, each once
    gone: set[str] = set()
    for change, hunks in parts:
        if not is_changelog(change.file_path):
            continue
        for hunk in hunks:
            out.update(dict.fromkeys(_entries([line[1:] for line in hunk.lines if line[:1] == "+"])))
            gone.update(_entries([line[1:] for line in hunk.lines if line[:1] == "-"]))
    return [e for e in out if e not in gone]


def _entries(added: list[str]) -> list[str]:
    """Each bulleted entry, its wrapped lines joined, as ``changes.changelog`` reads an entry."""
    entries = (changelog_entry(lines) for lines in entry_lines(added))
    return [_LITERAL.sub(r"`\1`", one_line(e)) + "." for e in entries if e]


def issue_references(parts: Parts) -> list[str]:
    """The issues and pull requests the change's added lines name: ``#123``, ``owner/repo#123``."""
    found: dict[str, None] = {}  # in the order named, each once
    for change, hunks in parts:
        prose = is_changelog(change.file_path) or is_doc_path(change.file_path)
        for hunk in hunks:
            for line in hunk.lines:
                if line[:1] != "+":
                    continue
                refs = [
                    f"#{m.group(1) or m.group(2)}" if m.group(1) or m.group(2) else f"{m.group(3)}#{m.group(4)}"
                    for m in _ISSUE.finditer(line)
                ]
                if prose or _ISSUE_WORD.search(line):
                    refs += [f"#{m.group(1)}" for m in _BARE_ISSUE.finditer(line)]
                found.update(dict.fromkeys(refs))
    # A link whose text is ``#463`` and whose target is the issue's address names one issue, once.
    return [r for r in found if r.startswith("#") or r[r.index("#") :] not in found]


def docstrings(parts: Parts) -> list[tuple[str, str]]:
    """The first line of the docstring of each Python definition the change adds, in code."""
    out: list[tuple[str, str]] = []
    for change, hunks in parts:
        path = change.file_path
        if PurePosixPath(path).suffix != ".py" or is_test_path(path) or is_doc_path(path):
            continue
        for hunk in hunks:
            out += _hunk_docstrings(hunk.lines)
    return list(dict.fromkeys(out))[:MOST_DOCSTRINGS]  # overloads of one function share a docstring


def _hunk_docstrings(lines: list[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    name: str | None = None
    doc: list[str] | None = None  # the docstring's first paragraph, while it is read
    quote = '"""'
    for line in lines:
        text = line[1:]
        if line[:1] != "+":
            name, doc = None, None
        elif doc is not None:
            end = text.find(quote)
            doc.append(text[:end] if end >= 0 else text)
            if end >= 0 or not text.strip():
                out.append((name or "", _first_sentence(doc)))
                name, doc = None, None
        elif m := _PY_DEF.match(text):
            name = m.group(1)
        elif name is not None and (opened := _DOCSTRING_OPEN.match(text)):
            quote, rest = opened.group(1), opened.group(2)
            end = rest.find(quote)
            if end >= 0:
                out.append((name, _first_sentence([rest[:end]])))
                name = None
            else:
                doc = [rest]
        elif name is not None and not text.rstrip().endswith((":", ",", "(", ")")) and text.strip():
            name = None  # the body started with no docstring (a signature's lines keep it open)
    return [(n, d) for n, d in out if n and d]


def _as_code(text: str) -> str:
    """reStructuredText's roles and literals (``:meth:`run```, ````None````) as Markdown code: `run`,
    `None`; a cross-reference (``:ref:```) as its words."""
    return roles_written(_LITERAL.sub(r"`\1`", text))


def _first_sentence(lines: list[str]) -> str:
    """A docstring's first sentence, its lines joined, its roles and literals read as code."""
    text = _as_code(" ".join(" ".join(lines).split()))
    ends = [m.end() for m in _SENTENCE_END.finditer(text + " ")]
    return _sentence(text[: ends[0]] if ends else text) if text else ""


def why_comments(facts: Facts) -> list[str]:
    """The comments the change adds to code that are sentences (a reason, a rule the code keeps):
    not labels ("Bugbear opinions implicit str concat" names a setting), not a line leading in to
    what follows ("by the following command:"), not a generated file's header (a pinned
    requirements file, a manifest, settings: no code, no why)."""
    if not any(is_code(p) for p in facts.paths):
        return []
    return [
        _sentence(_as_code(c))
        for c in facts.comments
        if len(c.split()) >= 3 and not c.endswith(":") and (_WHY.search(c) or _FUNCTION.search(c))
    ]


def _behaviour(facts: Facts, said: str) -> list[str]:
    """What the change does that a reader of the title would want to know, each not in the title."""
    out = [f"New option {o}." for o in facts.options if o.lower() not in said]
    out += [f"{f} takes a new parameter {p}." for f, p in facts.params if p.lower() not in said]
    for verb, names in (("raises", facts.raises), ("handles", facts.handles)):
        new = [e for e in names if e.lower() not in said]
        if new:
            out.append(f"Now {verb} {', '.join(new[:-1])}{' and ' if len(new) > 1 else ''}{new[-1]}.")
    return out[:4]


def _tested(parts: Parts, facts: Facts, said: str) -> str:
    """The tests a change to code adds, in words: what it now does, as its author put it
    (a change of tests alone is titled by them)."""
    if all(is_test_path(p) for p in facts.paths):
        return ""
    named = [c.words for c in cases([(change.file_path, hunks) for change, hunks in parts]) if c.status == ADDED]
    named = [n for n in dict.fromkeys(named) if n and n.lower() not in said][:MOST_TESTS]
    return f"Tested: {'; '.join(named)}." if named else ""


def _sentence(text: str) -> str:
    text = _URL_FIRST.sub("", one_line(text).strip()).rstrip(".,;:")  # a link opening a comment is no word
    if not text:
        return ""
    text = text[:1].upper() + text[1:]
    return text if text.endswith(("?", "!")) else text + "."


def _more(n: int) -> str:
    return f"\nAnd {n} more in the changelog." if n > 0 else ""


def _repeats(text: str, title: str) -> bool:
    """Whether ``text`` says little the title does not (the title was taken from it)."""
    words = set(re.findall(r"\w+", text.lower()))
    return bool(words) and len(words & set(re.findall(r"\w+", title.lower()))) >= 0.8 * len(words)


def _names(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` as a word (``URL.without_query()`` names ``without_query``)."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def _list(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items if item)


def _prose(sentences: list[str]) -> str:
    return "\n".join(s for s in sentences if s)


def wrap(paragraph: str, width: int = WIDTH) -> str:
    """A paragraph, or a list (each item on its own lines, indented under its dash), wrapped at ``width``."""
    out = []
    for line in paragraph.splitlines():
        item = line.startswith("- ")
        out.append(
            textwrap.fill(
                line[2:] if item else line,
                width,
                initial_indent="- " if item else "",
                subsequent_indent="  " if item else "",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return "\n".join(out)


# ``- src/app.py (+3 -1)``, ``app.py | 4 ++--``: a line of what ``git show --stat`` says.
_FILE_COUNTS = re.compile(r"^\s*(?:[-*]\s+)?\S+\s+(?:\(\+\d+\s+-\d+\)|\|\s*\d+\s*[+-]*\s*$)")


def lists_a_file(line: str) -> bool:
    """Whether a body line is a file with its line counts, as a model might write one."""
    return bool(_FILE_COUNTS.match(line))
