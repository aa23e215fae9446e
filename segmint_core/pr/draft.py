"""A pull-request draft: a title and a Markdown body (summary, commits, files, test plan).

Offline by default; with a chat model configured, the model writes the
summary paragraph from the commit messages, and a failure falls back to the
offline text with a note.
"""

from __future__ import annotations

from collections.abc import Sequence

import re

from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.changes.kinds import is_test_path
from segmint_core.planning.messages import VERBS
from segmint_core.planning.voice import PAST
from segmint_core.pr.models import DraftCommit, DraftText, FileLine
from segmint_core.wording import shown

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
    plans: list[DraftCommit], files: list[FileLine], settings: Settings | None = None, tasks: Sequence[str] = ()
) -> DraftText:
    """``tasks``: what was asked for the work, one line each, when prompts were recorded for it."""
    if not plans:
        raise SegmintError("No commits to describe: none are planned or applied")
    _, lead = min(enumerate(plans), key=lambda item: (_rank(item[1].title), item[0]))
    title = lead.title if len(plans) == 1 else f"{lead.title} (+{len(plans) - 1} more)"
    summary = _markdown(_offline_summary(plans, lead))
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
            "## Files changed\n\n"
            + ("\n".join(f"- {_code(shown(f.path))} (+{f.added} -{f.removed})" for f in files) or "- none"),
            "## Test plan\n\n" + _test_plan(files),
        ]
    )
    return DraftText(title, body + "\n", note)


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


def _sentence(subject: str) -> str:
    text = _third_person(subject.rstrip("."))
    return text[:1].upper() + text[1:] + "."


def _clause(subject: str) -> str:
    """What "It also ..." says of a commit: its subject in the third person, or, where the subject
    does not start with a verb (a house's ``Version 0.11.1``), that it includes that commit."""
    verb = subject.partition(" ")[0]
    if verb.isalpha() and (verb.islower() or verb.lower() in SUBJECT_VERBS or verb.lower() in PAST_VERBS):
        return _third_person(subject)
    return f'includes "{subject}"'


def _third_person(subject: str) -> str:
    """``add x`` -> ``adds x``: commit subjects are imperative, summaries are not; a subject
    in the past tense (``Fixed x``) stays so, its verb in lower case.

    A house that capitalizes its subjects (``Fix x``, click's) has its verb read the same way,
    in lower case (``fixes x``), when it is one the message writer starts a subject with; a
    capitalized word that is not, a name perhaps, is left as it is.
    """
    verb, _, rest = subject.partition(" ")
    if verb.isalpha() and verb[1:].islower() and verb.lower() in PAST_VERBS:
        return f"{verb.lower()} {rest}".strip()  # "Fixed x": it fixed x
    if verb.isalpha() and verb[:1].isupper() and verb[1:].islower() and verb.lower() in SUBJECT_VERBS:
        verb = verb.lower()
    if not verb.isalpha() or not verb.islower():
        return subject
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        verb += "es"
    elif verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        verb = verb[:-1] + "ies"
    else:
        verb += "s"
    return f"{verb} {rest}".strip()


def _commit_line(plan: DraftCommit) -> str:
    sha = f"`{plan.sha[:7]}` " if plan.sha else ""
    return f"- {sha}{_markdown(plan.title)}"


def _test_plan(files: list[FileLine]) -> str:
    """The changed test files to run; those the change removes are named as removed, not to run."""
    tests = [f for f in files if is_test_path(f.path)]
    lines = [f"- [ ] {_code(shown(f.path))}" for f in tests if not f.deleted]
    if not lines:
        lines = [
            f"- No {'changed test file is left to run' if tests else 'test files changed'}; "
            "describe how this was checked."
        ]
    return "\n".join(lines + [f"- {_code(shown(f.path))} removed" for f in tests if f.deleted])


# A code span of a commit title (a house quoting names in backticks), kept as it is.
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)")
# Outside code spans: what Markdown would take for emphasis, HTML (``<!--`` hides all after it),
# strikethrough or an escape. An underscore inside a word (``load_config``) is none of these.
_SIGNIFICANT = re.compile(r"[*<~`]|\\(?=[!-/:-@\[-`{-~])|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])")


def _markdown(text: str) -> str:
    """A commit title or sentence as Markdown that shows it as written: ``add __init__.py``
    not in bold, ``add <!-- x.md`` hiding nothing, its code spans kept."""
    out, at = [], 0
    for m in _CODE_SPAN.finditer(text):
        out += [_escaped(text[at : m.start()]), m.group()]
        at = m.end()
    return "".join(out + [_escaped(text[at:])])


def _escaped(text: str) -> str:
    return _SIGNIFICANT.sub(lambda m: "".join("\\" + ch for ch in m.group()), text)


def _code(text: str) -> str:
    """``text`` as one code span, whatever backticks it holds (a file named ``a`b.py``)."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith(("`", " ")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"
