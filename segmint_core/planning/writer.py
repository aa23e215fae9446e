"""A commit message for one plan: the offline writer, or a chat model if configured.

Both follow the house style (``style.py``): the offline writer through
``voice.py``; the model is shown a handful of the repository's real subjects
and its scopes with the plan's diff. Whatever the model returns is held to the
same rules as the offline title (one printable line of at most 72 characters,
Conventional where the house is); a reply that breaks them, or a failed call,
gives the offline message and a note saying why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from segmint_core.changes.models import ADDED, DELETED, MODIFIED, Change, FilePatch, Hunk
from segmint_core.changes.patch import render_hunks
from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.planning import bodies, voice
from segmint_core.planning.conventional import parse_subject
from segmint_core.planning.facts import Facts, OldText, TreeEntries, entries_about, gather, line_counts
from segmint_core.planning.intents import Asked, intent_body, intent_title
from segmint_core.planning.precedent import Touched
from segmint_core.planning.style import DEFAULT, HouseStyle
from segmint_core.planning.titles import TITLE_LIMIT, fit, one_line, printable

DIFF_LINE_CAP = 400
PROMPT_SCOPES = 15

CONVENTIONAL_RULES = (
    "a title line `type(scope): subject` in the Conventional Commits format (type one of {types}; "
    "a scope only where the repository would use one{scopes})"
)
PLAIN_RULES = "a title line written as this repository writes its subjects: no `type:` prefix, {case}, {mood}"
PROMPT = (
    "You write git commit messages for a repository, in its own style. Reply with the message only: "
    "{rules}, at most 72 characters, on one line; then, only if the diff says why or what the change "
    "does to behaviour beyond the title, a blank line and a short body (1 to 5 lines, wrapped at 72) saying "
    "that. Never list the files or their line counts (git shows those). Never name a test as the thing "
    "fixed. Recent subjects of this repository:\n{examples}"
)
STATUS_CODES = {"added": "A", "deleted": "D", "renamed": "R"}


@dataclass(frozen=True)
class Message:
    title: str
    description: str
    note: str | None = None


Parts = list[tuple[Change, list[Hunk]]]


def write_message(
    parts: Parts,
    settings: Settings | None = None,
    *,
    counts: dict[str, tuple[int, int]] | None = None,
    style: HouseStyle = DEFAULT,
    asked: Asked | None = None,
    old_text: OldText | None = None,
    entries: TreeEntries | None = None,
) -> Message:
    """``counts``: lines added and removed per file where the hunks' own counts would
    mislead (a line staged, then edited again, is one change in the commit). ``asked``: the
    recorded task most of the lines were written under; its words title the commit (no model is asked).
    ``old_text``: reads a changed file as it was (what else it held). ``entries``: those the whole
    change adds to its changelogs (``read_plan``)."""
    if asked is not None:
        message = intent_message(parts, counts, style, asked, old_text)
        if message is not None:
            return message
    offline = offline_message(parts, counts, style, old_text=old_text, entries=entries)
    if settings is None or not settings.chat_enabled:
        return offline
    from segmint_core.llm import chat

    try:
        reply = chat(settings, system_prompt(style), "Diff of the commit:\n\n" + plan_diff(parts))
    except SegmintError as exc:
        return Message(offline.title, offline.description, f"Offline message: {exc}")
    return parse_reply(reply, offline, style)


def offline_message(
    parts: Parts,
    counts: dict[str, tuple[int, int]] | None = None,
    style: HouseStyle = DEFAULT,
    voting: voice.Voting = voice.VOTING,
    old_text: OldText | None = None,
    entries: TreeEntries | None = None,
) -> Message:
    facts, touched = read_plan(parts, counts, old_text, entries)
    title = offline_title(facts, touched, style, voting)
    return Message(title, bodies.body(facts, parts, title))


def offline_title(
    facts: Facts, touched: list[Touched], style: HouseStyle = DEFAULT, voting: voice.Voting = voice.VOTING
) -> str:
    """The offline title of a plan as ``read_plan`` reads it (the bench titles one reading under many votings)."""
    heads, wordings = voice.title_parts(style, facts, touched, voting)
    return fit(heads, wordings)


def intent_message(
    parts: Parts,
    counts: dict[str, tuple[int, int]] | None,
    style: HouseStyle,
    asked: Asked,
    old_text: OldText | None = None,
) -> Message | None:
    facts, touched = read_plan(parts, counts, old_text)
    title = intent_title(style, facts, touched, asked)
    if title is None:
        return None
    return Message(title, intent_body(asked, bodies.body(facts, parts, title)))


def read_plan(
    parts: Parts,
    counts: dict[str, tuple[int, int]] | None = None,
    old_text: OldText | None = None,
    entries: TreeEntries | None = None,
) -> tuple[Facts, list[Touched]]:
    """What the plan's hunks do, and the files it touches with the lines each gains and loses.
    ``entries``: those the whole change adds to its changelogs (``tree_entries``); a plan adding
    none of its own has those about its code (``entries_about``)."""
    parts = [(as_committed(change, hunks), hunks) for change, hunks in parts]
    touched = []
    for change, hunks in parts:
        added, removed = (counts or {}).get(change.file_path) or line_counts(change, hunks)
        touched.append(Touched(change.file_path, STATUS_CODES.get(change.status, "M"), added, removed))
    facts = gather(parts, old_text)
    if entries and not facts.changelog_entries:
        facts.changelog_entries = entries_about(facts, entries)
    return facts, touched


def as_committed(change: Change, hunks: list[Hunk]) -> Change:
    """``change`` with the status a commit of only ``hunks`` gives its file (``apply.states``):
    a deletion takes the file away only with all of the deleting layer's lines, a creation
    brings it only with a creating line. So of a file staged with an edit, then deleted in
    the work tree, the edit's plan modifies it; of one staged as new, then deleted, the
    creation's plan adds it; of one staged as deleted, then made again, the deletion's plan
    removes it; and a plan only editing a file another plan creates modifies it."""
    if len(hunks) == len(change.hunks):
        return change
    held = {h.id for h in hunks}
    layers = [fp for fp in (change.staged_patch, change.unstaged_patch) if fp is not None]
    deleting = next((fp for fp in layers if fp.new_path is None and fp.hunks), None)
    creating = next((fp for fp in layers if fp.old_path is None and fp.hunks), None)
    deletes = deleting is not None and all(h.id in held for h in _units_of(change, deleting))
    creates = creating is not None and any(h.id in held for h in _units_of(change, creating))
    if change.status == DELETED and not deletes:
        return _with_status(change, ADDED if creates else MODIFIED)
    if change.status == ADDED and len(layers) == 2 and creating is not None and not creates:
        return _with_status(change, MODIFIED)
    if change.status == MODIFIED and creating is not None and deletes and not creates:
        return _with_status(change, DELETED)
    return change


def _units_of(change: Change, layer: FilePatch) -> list[Hunk]:
    """The change's hunks (git's, or the parts grouping cut them into) from ``layer``."""
    ids = {h.id for h in layer.hunks}
    return [h for h in change.hunks if (h.parent_id or h.id) in ids]


def _with_status(change: Change, status: str) -> Change:
    return Change(
        change.id,
        change.file_path,
        change.old_path,
        status,
        change.binary,
        change.hunks,
        change.old_mode,
        change.new_mode,
        change.staged_patch,
        change.unstaged_patch,
        change.untracked,
    )


def system_prompt(style: HouseStyle) -> str:
    if style.follows_conventional:
        types = (
            ", ".join(style.types)
            if style.learned and style.types
            else "feat, fix, docs, test, refactor, style, build, ci, chore"
        )
        scopes = list(style.scopes)[:PROMPT_SCOPES]
        rules = CONVENTIONAL_RULES.format(types=types, scopes=f"; its scopes: {', '.join(scopes)}" if scopes else "")
    else:
        rules = PLAIN_RULES.format(
            case="capitalized" if style.capitalized >= 0.5 else "lower case",
            mood="past tense" if style.past_tense >= 0.5 else "imperative mood",
        )
    examples = "\n".join(f"- {one_line(s)}" for s in style.examples) or "- (none yet: a new repository)"
    return PROMPT.format(rules=rules, examples=examples)


def plan_diff(parts: Parts, cap: int = DIFF_LINE_CAP) -> str:
    out: list[str] = []
    for change, hunks in parts:
        out.append(f"--- {change.old_path or change.file_path}\n+++ {change.file_path} ({change.status})")
        out.extend(render_hunks(hunks))
        if len(out) > cap:
            out = out[:cap] + [f"... ({len(out) - cap} more lines cut)"]
            break
    return "\n".join(out)


_FENCE_OPEN = re.compile(r"^`{3,}[^`\n]*\n")
_FENCE_CLOSE = re.compile(r"\n`{3,}\s*$")


def parse_reply(reply: str, fallback: Message, style: HouseStyle = DEFAULT) -> Message:
    """The model's message, held to the offline title's rules; the offline title where it breaks them."""
    text = _FENCE_CLOSE.sub("", _FENCE_OPEN.sub("", reply.strip()))  # a fence's ```text line is no title
    lines = text.strip().strip("`").strip().splitlines()
    if not lines or not lines[0].strip():
        return Message(fallback.title, fallback.description, "Offline message: the model's reply was empty")
    title = one_line(lines[0].strip().strip("`").strip())
    body = "\n".join(printable(line) for line in lines[1:] if not bodies.lists_a_file(line)).strip()
    problem = _title_problem(title, style)
    if problem:
        return Message(fallback.title, body or fallback.description, f"Offline title: the model's title {problem}")
    return Message(title, body)


def _title_problem(title: str, style: HouseStyle) -> str | None:
    if len(title) > TITLE_LIMIT:
        return f"had {len(title)} characters, more than {TITLE_LIMIT}"
    if title.endswith(("…", "...")):
        return "was cut short"
    if style.follows_conventional and parse_subject(title).type is None:
        return "was not in the Conventional Commits format"
    if not style.follows_conventional and parse_subject(title).type is not None and style.learned:
        return "had a type prefix this repository does not use"
    return None
