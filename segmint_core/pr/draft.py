"""A pull-request draft: a title and a Markdown body (summary, tasks, commits, test plan).

The body says what the review's own views do not: never the files with their line counts.

Offline by default; with a chat model configured, the model writes the
summary paragraph from the commit messages, and a failure falls back to the
offline text with a note.
"""

from __future__ import annotations

from collections.abc import Sequence

import re

from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.planning.cases import Case
from segmint_core.planning.messages import VERBS
from segmint_core.planning.titles import TITLE_LIMIT, fit
from segmint_core.planning.voice import PAST
from segmint_core.pr.markdown import markdown
from segmint_core.pr.models import DraftCommit, DraftText
from segmint_core.pr.testplan import Command, test_plan
from segmint_core.wording import capitalized, series, shown

MOST_JOINED = 3  # leading commits whose subjects a title joins; more have no one subject
_RELEASE = re.compile(r"^(?:release|released|releasing|version|bump version to|prepare release)\b", re.IGNORECASE)
IMPORTANCE = ["feat", "fix", "perf", "refactor", "docs", "test", "build", "ci", "style", "chore"]
# Verbs a subject starts with: the message writer's, and common ones of the houses it follows.
SUBJECT_VERBS = frozenset(
    VERBS
    | {
        "drop",
        "set",
        "extract",
        "replace",
        "refactor",
        "simplify",
        "clean",
        "tidy",
        "improve",
        "extend",
        "support",
        "allow",
        "make",
        "avoid",
        "ensure",
        "implement",
        "introduce",
        "reformat",
        "merge",
        "revert",
    }
)
# The same verbs in the past tense, as a house writing "Fixed x" has them: a summary keeps them so.
PAST_VERBS = (
    frozenset(
        set(PAST.values())
        | {v + "d" for v in SUBJECT_VERBS if v.endswith("e")}
        | {v + "ed" for v in SUBJECT_VERBS}
        | {"dropped", "made"}
    )
    - SUBJECT_VERBS
)

SYSTEM_PROMPT = (
    "You write the summary paragraph of a pull request from its commit messages: two to four plain "
    "sentences saying what the change does and why. No headings, no lists, no preamble."
)


def draft_pr(
    plans: list[DraftCommit],
    settings: Settings | None = None,
    tasks: Sequence[str] = (),
    *,
    intent: str | None = None,
    commands: Sequence[Command] = (),
    cases: Sequence[Case] = (),
) -> DraftText:
    """``tasks``: what was asked for the work, one line each, when prompts were recorded for it;
    ``intent``: the one task all of it was done under, if one; ``commands``: the project's test
    commands (``testplan.project_commands``); ``cases``: the tests the commits add, change or remove."""
    if not plans:
        raise SegmintError(
            "No commits to describe: none are planned or applied, and the branch has none a remote-tracking ref lacks"
        )
    lead = leading(plans)
    title = pr_title(plans, lead, intent)
    summary = markdown(_offline_summary(plans, lead))
    note = None
    if settings is not None and settings.chat_enabled:
        from segmint_core.llm import chat

        try:
            summary = chat(settings, SYSTEM_PROMPT, "\n\n".join(p.message for p in plans))
        except SegmintError as exc:
            note = f"Offline summary: {exc}"
    body = "\n\n".join(
        [
            "## Summary\n\n" + summary,
            *(["## Tasks\n\n" + "\n".join(f"- {shown(t)}" for t in tasks)] if tasks else []),
            "## Commits\n\n" + "\n".join(_commit_line(p) for p in plans),
            "## Test plan\n\n" + test_plan(list(commands), list(cases)),
        ]
    )
    return DraftText(title, body + "\n", note)


def pr_title(plans: list[DraftCommit], lead: DraftCommit, intent: str | None = None) -> str:
    """What the pull request is for, in one title: the one task it was asked as, the one
    commit, the release it makes, the one commit of its most important kind (the tests and
    docs around a feature are that feature's), or the subjects of its leading commits
    joined under their common type and scope; never a commit with a count of the others."""
    head = _head(lead.title)
    if intent and intent.strip():
        clause = intent.strip()
        return fit([head, ""], [clause[:1].lower() + clause[1:] if head else capitalized(clause)])
    if len(plans) == 1 or _RELEASE.match(_subject(lead.title)):
        return lead.title
    leads = [p for p in plans if _rank(p.title) == _rank(lead.title)]
    if len(leads) == 1 or len(leads) > MOST_JOINED:
        return lead.title
    heads = list(dict.fromkeys(_head(p.title) for p in leads))
    shared = heads[0] if len(heads) == 1 else _type_head(lead.title)
    subjects = [_subject(p.title) for p in leads]
    subjects = subjects[:1] + [_lowered_verb(x) for x in subjects[1:]]  # "Fix a and fix b"
    title = (shared + " " if shared else "") + _joined(subjects)
    return title if len(title) <= TITLE_LIMIT else lead.title


def _lowered_verb(subject: str) -> str:
    verb, _, rest = subject.partition(" ")
    known = verb.lower() in SUBJECT_VERBS or verb.lower() in PAST_VERBS
    return f"{verb.lower()} {rest}".strip() if known and verb[1:].islower() else subject


def leading(plans: list[DraftCommit]) -> DraftCommit:
    """The commit the others serve: the release, if one is made; else the one of the most important
    kind, the largest of those (a feature's tests and docs are the other commits)."""
    release = next((p for p in plans if _RELEASE.match(_subject(p.title))), None)
    if release is not None:
        return release
    return min(enumerate(plans), key=lambda item: (_rank(item[1].title), -item[1].hunks, item[0]))[1]


def _head(title: str) -> str:
    """A title's ``type(scope):`` or area prefix, without the space after it; "" if none."""
    m = _PREFIX.match(title)
    return m.group().rstrip() if m else ""


def _type_head(title: str) -> str:
    """The ``type:`` of a Conventional title, its scope left out (the joined commits have several)."""
    head = _head(title)
    kind = head.split("(", 1)[0].rstrip(":!")
    return f"{kind}:" if kind in IMPORTANCE else ""


def _rank(title: str) -> int:
    kind = title.split("(", 1)[0].split(":", 1)[0].strip().rstrip("!")
    return IMPORTANCE.index(kind) if kind in IMPORTANCE else len(IMPORTANCE)


# ``fix(x): ``, ``docs: ``, ``walk: ``: a type, scope or area before the sentence, one word.
_PREFIX = re.compile(r"^[^\s:()]+(?:\([^()]*\))?!?: ")


def _subject(title: str) -> str:
    """The sentence of a title, without its ``type(scope):``; a colon inside the sentence
    (``Document Step 1: Install``) is the sentence's own."""
    m = _PREFIX.match(title)
    return title[m.end() :] if m else title


def _offline_summary(plans: list[DraftCommit], lead: DraftCommit) -> str:
    text = _sentence(_subject(lead.title))
    others = [_clause(_subject(p.title).rstrip(".")) for p in plans if p is not lead]
    if others:
        listed = "; ".join(others[:4]) + ("; and more" if len(others) > 4 else "")
        text += f" It also {listed}."
    return text


def _joined(subjects: list[str]) -> str:
    """``Add docs for X and Y`` of ``Add docs for X`` and ``add docs for Y``: words the subjects all
    start with (two or more: ``Bump a`` and ``bump b from 1 to 2`` would read as both bumped so)
    are said once; else each whole (``Fix a and fix b``)."""
    split = [subject.split(" ") for subject in subjects]
    shared = 0
    while all(len(words) > shared + 1 and words[shared].lower() == split[0][shared].lower() for words in split):
        shared += 1
    if shared < 2:
        return series(subjects)
    return " ".join(split[0][:shared] + [series([" ".join(words[shared:]) for words in split])])


def _sentence(subject: str) -> str:
    text = _third_person(subject.rstrip("."))
    return text[:1].upper() + text[1:] + "."


def _clause(subject: str) -> str:
    """What "It also ..." says of a commit: its subject in the third person, or, where the subject
    does not start with a verb (a house's ``Version 0.11.1``), that it includes that commit."""
    verb = subject.partition(" ")[0]
    led = verb.isalpha() and (verb.islower() or verb.lower() in SUBJECT_VERBS or verb.lower() in PAST_VERBS)
    return _third_person(subject) if led and not _statement(subject) else f'includes "{subject}"'


# Words that make the subject's first word its grammatical subject, not a verb: "autoescape is enabled".
_AUXILIARIES = frozenset({"is", "are", "was", "were", "will", "can", "now", "no", "has", "have", "does", "should"})


def _statement(subject: str) -> bool:
    """A subject written as a statement (a changelog entry's ``autoescape is enabled by default``)."""
    words = subject.split(" ", 2)
    return len(words) > 1 and words[0].lower() not in SUBJECT_VERBS and words[1].lower() in _AUXILIARIES


def _third_person(subject: str) -> str:
    """``add x`` -> ``adds x``: commit subjects are imperative, summaries are not; a subject
    in the past tense (``Fixed x``) stays so, its verb in lower case.

    A house that capitalizes its subjects (``Fix x``, click's) has its verb read the same way,
    in lower case (``fixes x``), when it is one the message writer starts a subject with; a
    capitalized word that is not, a name perhaps, is left as it is.
    """
    verb, _, rest = subject.partition(" ")
    if _statement(subject):
        return subject  # a changelog entry's "autoescape is enabled ...": no verb leads it
    if verb.isalpha() and verb[1:].islower() and verb.lower() in PAST_VERBS:
        return f"{verb.lower()} {rest}".strip()  # "Fixed x": it fixed x
    if verb.isalpha() and verb[:1].isupper() and verb[1:].islower() and verb.lower() in SUBJECT_VERBS:
        verb = verb.lower()
    if not verb.isalpha() or not verb.islower():
        return subject
    return f"{_conjugated(verb)} {_second_verbs(rest)}".strip()


def _conjugated(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# A second thing done, after "and": a verb the writer knows, after a comma or before what it acts on
# ("..., and note it", "and test it"); "read and write modes" keeps its words.
_SECOND_VERB = re.compile(
    r"(?:(?<=, and )|(?<= and )(?=\w+ (?:it|its|them|the|a|an|this|that|these|those)\b))([a-z]+)\b"
)


# Verbs a prompt asks a second thing with that no subject starts with.
_SECOND_VERBS = SUBJECT_VERBS | {"note", "mention", "explain", "describe", "cover", "keep", "log", "show", "check"}


def _second_verbs(rest: str) -> str:
    """The rest of a subject whose imperative verb became a summary's: any second verb after "and" too."""
    return _SECOND_VERB.sub(lambda m: _conjugated(m[1]) if m[1] in _SECOND_VERBS else m[1], rest)


def _commit_line(plan: DraftCommit) -> str:
    sha = f"`{plan.sha[:7]}` " if plan.sha else ""
    return f"- {sha}{markdown(plan.title)}"
