"""One-line summaries of groups: heuristic by default, a chat model when configured.

The heuristic prefers the author's own words: a changelog entry added in the
group. Otherwise it names what the code edits (``Add `foo` ...``,
``Update `bar` in x.py``). A model-written summary that fails falls back to
the heuristic one, and the group's ``note`` says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from segmint_core.changes.conversions import conversion_text, conversions
from segmint_core.changes.changelog import changelog_entry
from segmint_core.changes.models import ADDED, DELETED, Change
from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.changes.kinds import CHANGELOG, CODE, DOCS, TEST, file_kind
from segmint_core.grouping.signals.release import released
from segmint_core.grouping.units import Unit, definitions
from segmint_core.wording import counted, shown

MAX_CHARS = 72
MAX_PROMPT_LINES = 300


SYSTEM_PROMPT = (
    "You summarise one group of related code changes for a commit list. Reply with a single line: "
    f"imperative mood, at most {MAX_CHARS} characters, no trailing period, no quotes."
)


@dataclass(frozen=True)
class GroupText:
    summary: str
    note: str | None = None


def heuristic_summary(changes: list[Change], units: list[Unit]) -> str:
    paths = _ordered_paths(changes)
    converted = conversions(
        paths,
        [c.file_path for c in changes if c.status == ADDED],
        [c.file_path for c in changes if c.status == DELETED],
    )
    if converted:  # before its changelog's entries: a changelog converted holds them all
        return _fit(f"Convert {conversion_text(converted, _where([old for old, _ in converted]))}")
    version = released(units)
    if version:
        return f"Release {version}"
    entry = _changelog_entry(units)
    if entry:
        return entry
    code = [u for u in units if u.kind == CODE and u.hunk is not None]
    tested = any(file_kind(p) == TEST for p in paths)
    if code:
        verb, names = _verb_and_names(code, changes)
        where = _where(_code_paths(code, names[0] if names else None))
        subject = ", ".join(f"`{n}`" for n in names[:2])
        text = f"{verb} {subject} in {where}" if subject else f"{verb} {where}"
        return _fit(text + (", with tests" if tested and not text.endswith("tests") else ""))
    verb = _files_verb(changes)
    if paths and all(file_kind(p) == TEST for p in paths):
        return _fit(f"{verb} tests in {_where(paths)}")
    if paths and all(file_kind(p) in (DOCS, CHANGELOG) for p in paths):
        return _fit(f"Docs: {verb.lower()} {_where(paths)}")
    return _fit(f"{verb} {_where(paths)}")


def model_summary(settings: Settings, changes: list[Change], hunk_ids: set[str], reasons: list[str]) -> str:
    """A chat model's one-line summary; raises ``SegmintError`` (``ModelError``) on failure."""
    from segmint_core.llm import chat

    lines: list[str] = []
    for change in changes:
        for hunk in change.hunks:
            if hunk.id in hunk_ids and len(lines) < MAX_PROMPT_LINES:
                lines.append(f"--- {change.file_path} {hunk.header}")
                lines.extend(hunk.lines[: MAX_PROMPT_LINES - len(lines)])
    user = "Why these changes belong together: " + "; ".join(reasons) + "\n\n" + "\n".join(lines)
    reply = chat(settings, SYSTEM_PROMPT, user, max_tokens=60)
    line = reply.strip().splitlines()[0].strip().strip("\"'`").rstrip(".")
    if not line:
        raise SegmintError("The chat model returned an empty summary")
    return _fit(line)


def describe(
    changes: list[Change], units: list[Unit], hunk_ids: set[str], reasons: list[str], settings: Settings | None
) -> GroupText:
    heuristic = heuristic_summary(changes, units)
    if settings is None or not settings.chat_enabled:
        return GroupText(heuristic)
    try:
        return GroupText(model_summary(settings, changes, hunk_ids, reasons))
    except SegmintError as exc:
        return GroupText(heuristic, note=f"model summary failed, heuristic summary used: {exc}")


def _changelog_entry(units: list[Unit]) -> str | None:
    for unit in units:
        if unit.kind == CHANGELOG and unit.added and (entry := changelog_entry(unit.added)):
            return _fit(entry)
    return None


def _verb_and_names(code: list[Unit], changes: list[Change]) -> tuple[str, list[str]]:
    """ "Add" what only appears, "Remove" what only disappears, else "Update" what is edited."""
    new = set().union(*(definitions(u.added) for u in code))
    old = set().union(*(definitions(u.removed) for u in code))
    added, removed = sorted(new - old), sorted(old - new)
    edited = sorted(({u.scope for u in code if u.scope} | (new & old)) - set(added) - set(removed))
    if added and not edited and not removed:
        return "Add", added
    if removed and not edited and not added:
        return "Remove", removed
    if {c.status for c in changes} == {ADDED}:
        return "Add", added or edited
    return "Update", edited or added or removed


def _code_paths(code: list[Unit], lead: str | None) -> list[str]:
    """The files the code is in, the one holding ``lead`` (the first name of the summary) first."""
    holds = [u.path for u in code if lead is not None and u.changes_name(lead)]
    return list(dict.fromkeys(holds + [u.path for u in code]))


def _files_verb(changes: list[Change]) -> str:
    statuses = {c.status for c in changes}
    if statuses == {ADDED}:
        return "Add"
    if statuses == {DELETED}:
        return "Remove"
    return "Update"


def _ordered_paths(changes: list[Change]) -> list[str]:
    return [c.file_path for c in changes]


def _where(paths: list[str]) -> str:
    """The files by name: one, two, or the first and how many more (two ``__init__.py`` count twice).
    A name holding a newline or bytes that are not UTF-8 is shown escaped, as everywhere."""
    unique = list(dict.fromkeys(paths))
    names = [shown(p.rsplit("/", 1)[-1]) for p in unique]
    if len(names) == 1:
        return names[0]
    if len(names) == 2 and names[0] != names[1]:
        return f"{names[0]} and {names[1]}"
    return f"{names[0]} and {counted(len(names) - 1, 'more file')}"


def _fit(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= MAX_CHARS:
        return text
    cut = text[: MAX_CHARS - 3]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(",;:") + "..."
