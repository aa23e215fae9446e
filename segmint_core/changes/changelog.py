"""The entry a change adds to a changelog, as a sentence: the author's own words for it.

Bullets, issue and pull-request references (and what led in to them: "see",
"fixes"), Sphinx and MyST roles and Markdown links are taken out; a
reStructuredText title (a version's heading over its underline) is not an
entry, nor is a version or release line.
"""

from __future__ import annotations

import re

from segmint_core.changes.markup import is_fence, is_underline, list_item, without_list_marker

# An issue or pull request an entry is labelled with: an rst link to it (pathspec's "`Issue #84`_",
# "`#12`_"), or its name before a colon ("Issue #84: ...").
_KIND = r"(?:[Ii]ssue|[Pp]ull(?: [Rr]equest)?|PR|GH)"
ISSUE_LABEL = rf"`{_KIND}?\s*#\d+`__?|\b{_KIND}\s+#\d+(?=\s*:)"
# Issue and PR references say nothing in a summary; other roles keep their name.
_REFERENCE = re.compile(
    r"\{(?:issue|pr|user|ghuser|commit)\}`[^`]*`"  # MyST roles
    r"|:(?:issue|pr|user|ghuser|commit):`[^`]*`"  # Sphinx roles
    rf"|{ISSUE_LABEL}|\(#\d+\)|\[#\d+\](?!\()|#\d+"  # labels, GitHub numbers (python-dotenv's "[#456]")
    r"|\(\[#\d+\]\([^)]*\)\)"  # markdown links to an issue
)
# What led in to the references taken out: "faster, see #720 and #853" leaves "faster, see and",
# "broken by {pr}`3126`." leaves "broken by.", build's "(PR :pr:`752`)" leaves "(PR )".
_LEAD_IN = re.compile(
    r"[,;]?\s*(?<!:)\b(?:see|fixes|fixed|closes|in|via|refs?|by|from|pr|issues?)\b"
    r"(?:\s*(?:and|,|&))*\s*(?=[().;]|:(?!\w)|$)",  # not a role's name (":ref:")
    re.I,
)
# Left where references were taken out; not a call's ("echo()").
EMPTY_BRACKETS = r"(?<![\w`])\([\s,;]*\)"
_EMPTY_BRACKETS = re.compile(EMPTY_BRACKETS)
# A MyST or Sphinx role (``{func}`run```, ``:py:meth:`run```), from its start only.
_ROLE = re.compile(r"\{([\w:]+)\}`([^`]*)`|(?<![\w:]):([\w:]+):`([^`]*)`")
# A role's explicit title (``:func:`unblock <pluggy.PluginManager.unblock>```) or, after a tilde,
# the target's last part (``:class:`~pluggy.Warning``` shows ``Warning``), as Sphinx renders it.
_TITLED = re.compile(r"^(.*?)\s*<[^<>]*>$")
# A reStructuredText hyperlink, named or anonymous: ```#463 <https://...>`_`` reads "#463".
RST_LINK = re.compile(r"`([^`<]*?)\s*<[^<>`]+>`__?")
_RST_NAMED = re.compile(r"`([^`<]+)`__?(?!\w)")  # a reference to a target named elsewhere: "`foo`_" reads "foo"
_HANDLE_REFERENCE = re.compile(r"\[(@[\w-]+)\](?![(\[:])")  # "[@eumiro]", its address defined below
_OPENED = re.compile(r"\(\s+")  # what "([#456] by @bob)" leaves: "( by @bob)"
_LINK = re.compile(r"\[([^\[\]]*)\]\([^)]*\)")  # the innermost brackets: a run of "[" is read once
# A handle credited at the end: "(@alexmaco)", "(pull #581) (@bob)", "by @bob", "thanks to @bob".
_CREDIT = re.compile(
    r"\s*(?:\(\s*(?:by\s+)?\[?@[\w-]+\]?\s*\)|\b(?:by|thanks to)\s+\[?@[\w-]+\]?)", re.I
)  # a handle may be a Markdown reference: "by [@eumiro]"
# A sentence ends at its stop, not at an abbreviation's: "specifiers (e.g. `<23`) for Black".
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<!\bcf\.)\s")
MIN_CHARS = 8


def changelog_entry(lines: list[str], *, credits: bool = True) -> str | None:
    """The first sentence of the entry ``lines`` (added to a changelog) hold, or None; without
    ``credits``, a handle credited at its end (``(@bob)``) left out, as a commit title has none."""
    text = " ".join(line.strip() for line in _without_titles(lines) if line.strip() and not _markup(line))
    text = text if credits else _CREDIT.sub("", text)
    text = RST_LINK.sub(r"\1", without_list_marker(text))
    text = _EMPTY_BRACKETS.sub("", _LEAD_IN.sub(" ", _RST_NAMED.sub(r"\1", _REFERENCE.sub("", text))))
    text = _HANDLE_REFERENCE.sub(r"\1", _LINK.sub(r"\1", roles_written(text)))
    text = _OPENED.sub("(", " ".join(text.split())).strip(" .,:;-")
    if len(text) < MIN_CHARS or text.lower().startswith(("version", "released", "unreleased", "#")):
        return None
    return _SENTENCE_END.split(text, maxsplit=1)[0].rstrip(".")


# An issue or pull request named by a Sphinx or MyST role (``:issue:`12```, ``{pr}`3777```) or bare
# (``#123``, not ``&#123;`` nor ``docs/#install``); each pattern's one group is the number.
ROLE_REFERENCE = r"(?::(?:issue|pr|ghpull|gh):|\{(?:issue|pr)\})`#?(\d{1,6})`"
BARE_REFERENCE = r"(?<![\w/&#])#(\d{1,6})\b(?![\w-])"
_PULL = re.compile(rf"(?::(?:pr|ghpull):|\{{pr\}})`#?(\d{{1,6}})`|{BARE_REFERENCE}")
_ANY_REFERENCE = re.compile(ROLE_REFERENCE)


def role_shown(target: str) -> str:
    """What a Sphinx or MyST role shows of ``target``."""
    if titled := _TITLED.match(target):
        return titled.group(1)
    return target[1:].rsplit(".", 1)[-1] if target.startswith("~") else target


# Roles that cross-reference a section, a page or a glossary term: what they show is words, not code.
_PROSE_ROLES = frozenset({"ref", "doc", "term", "numref", "abbr"})


def roles_written(text: str) -> str:
    """``text`` with each role as a title or body writes it: a cross-reference's words as they are
    (pluggy's ``:ref:`certain arguments are requested <warn_on_impl>```), anything else as code."""
    return _ROLE.sub(_role_written, text)


def _role_written(m: re.Match[str]) -> str:
    role, target = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    shown = role_shown(target)
    return shown if role.rpartition(":")[2] in _PROSE_ROLES else f"`{shown}`"


def entry_reference(lines: list[str]) -> str | None:
    """The pull request an entry names (``#2991``), else the issue, else None."""
    text = " ".join(lines)
    found = _PULL.search(text) or _ANY_REFERENCE.search(text)
    return f"#{next(g for g in found.groups() if g)}" if found else None


def entry_lines(added: list[str]) -> list[list[str]]:
    """The lines of each bulleted entry in ``added`` (a changelog's added lines), its wrapped
    lines with it; a heading or a blank line ends an entry. Empty where no line is a list item."""
    groups: list[list[str]] = []
    for line in added:
        if list_item(line):
            groups.append([line])
        elif groups and groups[-1] and line.strip() and line[:1].isspace():
            groups[-1].append(line)  # a paragraph indented after a blank line ("  Resolves: #907") is none
        elif groups and groups[-1]:
            groups.append([])
    return [lines for lines in groups if lines]


def _markup(line: str) -> bool:
    """A fence, a reStructuredText directive (``.. include:: ../CHANGES.rst``) or a Markdown link's
    definition (``[@eumiro]: https://github.com/eumiro``): no words of an entry."""
    return is_fence(line) or line.lstrip().startswith(".. ") or _LINK_DEFINITION.match(line) is not None


_LINK_DEFINITION = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s+\S")


def _without_titles(lines: list[str]) -> list[str]:
    """``lines`` without reStructuredText's titles (a line over ``=====``) and their underlines."""
    under = {at for at, line in enumerate(lines) if is_underline(line)}
    return [line for at, line in enumerate(lines) if at not in under and at + 1 not in under]
