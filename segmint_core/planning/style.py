"""The house style of commit messages, learned from the repository's own history.

From the recent first-parent subjects (``history.read_history``): whether the
repository writes Conventional Commits at all; which types and scopes its
commits got for which files (kept as precedents, see ``precedent.py``); the
words its subjects start with per type; its capitalization, mood, full stops
and backticks; how it words dependency bumps and releases. A repository with
too little history gets plain Conventional Commits. Learned once per HEAD and
cached under ``.git/segmint/``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

from segmint_core.atomic import write_atomic
from segmint_core.changes.versions import NUMBERS, PEP_440
from segmint_core.git import Git
from segmint_core.history import PastCommit, read_history
from segmint_core.planning.conventional import STANDARD_TYPES, TYPE_WORDS, parse_subject, strip_refs
from segmint_core.planning import messages
from segmint_core.planning.dependency_lists import MANIFESTS, habit, habits, manifest_lists
from segmint_core.planning.facts import Facts, gather
from segmint_core.planning.history import HISTORY_LIMIT, read_patches
from segmint_core.planning.precedent import Precedent, Touched, content_features, features, path_words
from segmint_core.planning.tense import imperative
from segmint_core.planning.titles import TITLE_LIMIT
from segmint_core.wire import from_wire, to_wire

MIN_HISTORY = 10  # fewer subjects than this teach nothing reliable
CONVENTIONAL_SHARE = 0.5  # at least this share of recent subjects Conventional: write Conventional
RECENT = 100  # the recent subjects that say whether the house writes Conventional now
CACHE_NAME = "house-style.json"
CACHE_VERSION = 19  # 8: merged requests known by their titles; 9: a plain house's phrasings; 10: fields;
# 11: releases worded "Bump version to {version}"; 12: PEP 440 pre-releases (21.12b0) in release wordings;
# 13: a docs hunk's fences (a release's heading) read with its unchanged lines; 14: releases worded with no version;
# 15: a plain house's phrasings know the bumps and releases they word; 16: an exception raised or caught before is none new;
# 17: pip's requirements files by any name (``test_requirements.txt``) are build files;
# 18: the subject a plain house writes by habit for one file edited alone, and one naming the commit it follows;
# 19: a module's name before a colon (``walk:`` of ``src/walk.rs``) is no Conventional type
EXAMPLES = 8
HABIT_USES = 3  # a subject written at least this often for one file edited alone...
HABIT_SHARE = 0.5  # ...and for at least this share of its edits alone is the house's habit for it

_VERSION = re.compile(rf"\bv?({NUMBERS}{PEP_440}(?:[-.+][0-9A-Za-z.]+)?)\b")
_BUMP = re.compile(r"^(bump|update|upgrade|pin|downgrade)\b.*\bto\b", re.IGNORECASE)
_SHA = re.compile(r"\b[0-9a-f]{7,40}\b")
_VERSIONISH = re.compile(r"^[`'\"]?v?[~^=<>]*\d")


@dataclass
class Wording:
    """How the house words one recurring kind of commit (a dependency bump, a release)."""

    type: str | None
    scope: str | None
    pattern: str  # a description with {name}, {old}, {new}, {major} or {version} in it
    count: int
    uses: dict[str, int] = field(default_factory=dict)  # "type(scope)" -> how often written under it

    def used_under(self, kind: str | None, scope: str | None) -> int:
        return self.uses.get(heading(kind, scope), 0)


def heading(kind: str | None, scope: str | None) -> str:
    return f"{kind or ''}({scope})" if scope else kind or ""


@dataclass
class HouseStyle:
    head: str | None = None
    seen: int = 0  # recent subjects read (at most RECENT)
    conventional: int = 0  # of which Conventional Commits
    examples: list[str] = field(default_factory=list)
    types: dict[str, int] = field(default_factory=dict)
    scopes: dict[str, int] = field(default_factory=dict)
    scope_share: float = 0.0  # Conventional subjects that have a scope
    capitalized: float = 0.0  # descriptions starting with a capital letter
    past_tense: float = 0.0  # first words in the past tense ("Fixed")
    period: float = 0.0  # descriptions ending with a full stop
    quotes: float = 0.0  # subjects putting a name in backticks
    length: int = 50  # median subject length
    verbs: dict[str, dict[str, int]] = field(default_factory=dict)  # type ("" for plain) -> first words
    bumps: list[Wording] = field(default_factory=list)  # most used first
    release: Wording | None = None
    # A Conventional house's subject naming the commit it follows, by type: python-semantic-release's
    # CI writes ``style: beautify <its parent's id>`` after a formatter run (pattern with {parent}).
    follow_ups: dict[str, str] = field(default_factory=dict)
    precedents: list[Precedent] = field(default_factory=list)
    # A plain house's past commits: their features, the verb they start with (``type``, in the
    # imperative) and the prefix they carry (``scope``: ``cmd:``, ``[vim]``), for the verb and
    # prefix of a new title by the commits most like it (``voice.plain_title``).
    phrasings: list[Precedent] = field(default_factory=list)
    dependency_lists: dict[str, str] = field(default_factory=dict)  # package -> its manifest list at HEAD
    dependency_habits: dict[str, dict[str, int]] = field(default_factory=dict)  # list -> type -> past bumps
    habits: dict[str, str] = field(default_factory=dict)  # a plain house's: path -> its subject for the file alone

    @property
    def learned(self) -> bool:
        return self.seen >= MIN_HISTORY

    @property
    def follows_conventional(self) -> bool:
        return not self.learned or self.conventional >= CONVENTIONAL_SHARE * self.seen

    def sentence(self) -> str:
        """Which style messages follow, and why, in one line."""
        if not self.learned:
            few = (
                f"only {self.seen} earlier commit{'s' if self.seen != 1 else ''}" if self.seen else "no earlier commits"
            )
            return f"in plain Conventional Commits ({few} to learn a house style from)"
        if self.follows_conventional:
            scopes = "scopes from paths" if self.scope_share >= 0.3 else "mostly without scopes"
            return (
                f"following {self.conventional} of the last {self.seen} subjects: Conventional Commits, {scopes}"
                + self._bump_habits()
            )
        case = "capitalized" if self.capitalized >= 0.5 else "lower-case"
        mood = "past tense" if self.past_tense >= 0.5 else "imperative"
        prefixes = Counter(p.scope for p in self.phrasings[:RECENT] if p.scope)
        said = (
            f"prefixes by area ({', '.join(p for p, _ in prefixes.most_common(3))})"
            if sum(prefixes.values()) >= PREFIX_HABIT * min(len(self.phrasings), RECENT)
            else "no type prefix"
        )
        return (
            f"following {self.seen - self.conventional} of the last {self.seen} subjects: "
            f"plain {case} {mood} sentences, {said}"
        )

    def _bump_habits(self) -> str:
        """``, bumps typed by list (runtime: fix, dev: chore)`` where the house keeps such habits."""
        kept = [
            f"{where}: {kind}"
            for where, counts in sorted(self.dependency_habits.items())
            if (kind := habit(counts)) is not None
        ]
        return f", bumps typed by list ({', '.join(kept)})" if kept else ""

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict) -> "HouseStyle":
        return from_wire(cls, data)


DEFAULT = HouseStyle()


def house_style(git: Git, folder: Path | None = None, head: str | None = "HEAD") -> HouseStyle:
    """The style of ``git``'s repository at ``head`` (HEAD's commit id when known), from the
    cache in ``folder`` when it is for that commit."""
    head = git.head() if head == "HEAD" else head
    if head is None:
        return DEFAULT
    cache = folder / CACHE_NAME if folder is not None else None
    if cache is not None:
        try:
            saved = json.loads(cache.read_text("utf-8"))
            if saved.get("version") == CACHE_VERSION and saved.get("head") == head:
                return HouseStyle.from_dict(saved["style"])
        except (OSError, ValueError, KeyError, TypeError):
            pass  # missing or unreadable: learn it again
    history = read_history(git, head, limit=HISTORY_LIMIT)
    read_patches(git, history)
    style = learn_style(history, head, manifest_lists(_manifests(git, head)))
    if cache is not None:
        try:
            write_atomic(cache, json.dumps({"version": CACHE_VERSION, "head": head, "style": style.to_dict()}).encode())
        except OSError:
            pass  # a read-only .git still gets messages, learned again next time
    return style


def _manifests(git: Git, rev: str) -> dict[str, str]:
    """The root manifests ``rev`` holds, by name (their git reads started together)."""
    results = git.run_many(*(("show", f"{rev}:{path}") for path in MANIFESTS), may_fail=tuple(range(len(MANIFESTS))))
    return {path: r.text for path, r in zip(MANIFESTS, results) if r.returncode == 0}


def learn_style(history: list[PastCommit], head: str | None = None, lists: dict[str, str] | None = None) -> HouseStyle:
    """``lists``: the list of the manifest each dependency is in at ``head`` (``dependency_lists``)."""
    history = [c for c in history if counts_for_style(c.subject)]
    recent = [c.subject for c in history[:RECENT]]
    style = HouseStyle(head=head, seen=len(recent), conventional=sum(writes_conventional(s) for s in recent))
    if not history:
        return style
    parsed = [(c, parse_subject(c.subject)) for c in history]
    facts_of = _facts_once()
    conventional = [(c, s) for c, s in parsed if s.type and not _names_its_files(c, s.type)]
    style.examples = [c.subject for c in history[:EXAMPLES]]
    style.types = dict(Counter(s.type for _, s in conventional if s.type).most_common())
    style.scopes = dict(Counter(s.scope for _, s in conventional if s.scope).most_common())
    style.scope_share = _share(conventional, lambda s: s.scope is not None)
    # A plain house's "cmd: fix x" is its prefix and sentence: its case and mood are the sentence's.
    chosen = conventional if style.follows_conventional else parsed
    texts = [s.text for _, s in chosen if s.text]
    lately = texts[:RECENT]  # case and mood by the recent habit: a house changes its ways ("Added" -> "Add")
    style.capitalized = _share(lately, lambda t: _untagged(t)[:1].isupper())
    style.past_tense = _share(lately, lambda t: _first_word(t).endswith("ed"))
    style.period = _share(texts, lambda t: t.endswith("."))
    style.quotes = _share(texts, lambda t: "`" in t)
    style.length = int(median(len(c.subject) for c, _ in chosen)) if chosen else 50
    verbs: dict[str, Counter] = {}
    for _, s in chosen:
        verbs.setdefault(s.type or "", Counter())[_first_word(s.text)] += 1
    style.verbs = {t: dict(c.most_common(8)) for t, c in verbs.items()}
    style.bumps = _wordings(chosen, _bump_pattern)
    style.release = next(iter(_wordings(chosen, _release_pattern)), None) or _versionless_release(chosen, facts_of)
    if style.follows_conventional:
        style.precedents = [_precedent(c, s, facts_of) for c, s in conventional if c.files]
        style.follow_ups = _follow_ups(history)
    else:
        style.phrasings = [_phrasing(c, facts_of) for c in history if c.files]
        style.habits = _habits(history)
    if lists:
        style.dependency_lists = lists
        style.dependency_habits = habits(_past_bumps(conventional, facts_of), lists)
    return style


def _follow_ups(history: list[PastCommit]) -> dict[str, str]:
    """The subjects naming the commit before them (in full or abbreviated), as patterns with
    ``{parent}``, by type, where the house writes one at least ``HABIT_USES`` times."""
    patterns: Counter = Counter()
    for commit, parent in zip(history, history[1:]):  # newest first: the next is the one before
        named = next((m.group() for m in _SHA.finditer(commit.subject) if parent.sha.startswith(m.group())), None)
        if named is not None:
            pattern = commit.subject.replace("{", "{{").replace("}", "}}").replace(named, "{parent}")
            kind = parse_subject(commit.subject).type
            if kind:
                patterns[(kind, pattern)] += 1
    out: dict[str, str] = {}
    for (kind, pattern), uses in patterns.most_common():
        if uses >= HABIT_USES:
            out.setdefault(kind, pattern)
    return out


def _habits(history: list[PastCommit]) -> dict[str, str]:
    """The subject the house writes whenever it edits one file alone, by file: fd's ``Update
    CHANGELOG``, black's ``[pre-commit.ci] pre-commit autoupdate``, express's ``Updated connect
    submodule``."""
    written: dict[str, Counter] = {}
    for commit in history:
        if len(commit.files) == 1 and commit.files[0].status == "M":
            written.setdefault(commit.files[0].path, Counter())[strip_refs(commit.subject)] += 1
    habits = {}
    for path, subjects in written.items():
        subject, uses = subjects.most_common(1)[0]
        if uses >= HABIT_USES and uses >= HABIT_SHARE * subjects.total() and len(subject) <= TITLE_LIMIT:
            habits[path] = subject
    return habits


def _facts_once() -> Callable[[PastCommit], Facts]:
    """What each past commit's diff does, read once (precedents and past bumps both ask)."""
    known: dict[int, Facts] = {}

    def facts_of(commit: PastCommit) -> Facts:
        if id(commit) not in known:
            assert commit.parts is not None, "asked only of commits whose diff was read"
            known[id(commit)] = gather(commit.parts)
        return known[id(commit)]

    return facts_of


def _past_bumps(conventional: list, facts_of: Callable[[PastCommit], Facts]) -> list[tuple[list[str], str]]:
    """The names each past dependency bump moved, with the type the house gave it."""
    out = []
    for commit, subject in conventional:
        if commit.parts and _bump_pattern(subject.text):
            names = [b.name for b in facts_of(commit).bumps]
            if names:
                out.append((names, subject.type))
    return out


def writes_conventional(subject: str) -> bool:
    """A subject of a Conventional type; ``printer: add x`` in a house of plain subjects is an area's prefix."""
    return parse_subject(subject).type in STANDARD_TYPES


def house_writes_conventional(subjects: list[str]) -> bool:
    """Whether a house whose subjects before a commit were ``subjects`` (newest first, merges
    and reverts left out) writes Conventional Commits at that commit, by its recent habit."""
    recent = subjects[:RECENT]
    return len(recent) < MIN_HISTORY or sum(map(writes_conventional, recent)) >= CONVENTIONAL_SHARE * len(recent)


def _names_its_files(commit: PastCommit, kind: str) -> bool:
    """Whether a subject's ``walk:`` is no type but the module its commit changes (fd's ``walk:
    Flush stdout in batches`` of ``src/walk.rs``): read as a type, it titled a change of
    ``src/exit_codes.rs`` ``walk: ...``."""
    return kind.lower() not in TYPE_WORDS and kind.lower() in path_words(f.path for f in commit.files)


def counts_for_style(subject: str) -> bool:
    """Merges and reverts are worded by git, not by the house."""
    return bool(subject.strip()) and not subject.startswith(("Merge ", 'Revert "'))


def _precedent(commit: PastCommit, subject, facts_of: Callable[[PastCommit], Facts]) -> Precedent:
    touched = [Touched(f.path, f.status, f.added, f.removed) for f in commit.files]
    said = set(re.findall(r"[a-z0-9]+", f"{subject.scope or ''} {subject.text}".lower()))
    intent = _intent(subject.text)
    found = features(touched)
    if commit.parts:
        facts = facts_of(commit)
        found += content_features(facts, messages.commit_type(facts))
    return Precedent(
        found, subject.type, subject.scope, tuple(sorted(path_words(f.path for f in commit.files) & said)), intent
    )


# A plain subject's prefix: ``[vim]``, ``cmd:``, ``zsh-completion:``, ``docs:`` (a word, no spaces, then a colon).
_PREFIX = re.compile(r"^(\[[^\]\n]{1,30}\]|[A-Za-z][\w./-]{0,24}:)\s+(?=\S)")
PREFIX_HABIT = 0.2  # the share of recent subjects with a prefix past which the house sentence names them


def plain_prefix(subject: str) -> tuple[str | None, str]:
    """``cmd: Fix x`` -> (``cmd:``, ``Fix x``); ``Fix x`` -> (None, ``Fix x``)."""
    m = _PREFIX.match(subject)
    return (m.group(1), subject[m.end() :]) if m else (None, subject)


def _phrasing(commit: PastCommit, facts_of: Callable[[PastCommit], Facts]) -> Precedent:
    prefix, text = plain_prefix(commit.subject.strip())
    touched = [Touched(f.path, f.status, f.added, f.removed) for f in commit.files]
    found = features(touched)
    if commit.parts:
        facts = facts_of(commit)
        found += content_features(facts, messages.commit_type(facts))
    return Precedent(found, imperative(_first_word(text)), prefix, intent=_intent(text))


def _intent(text: str) -> str | None:
    """``deps`` for a subject worded as a bump, ``release`` for one worded as a release."""
    return "deps" if _bump_pattern(text) else "release" if _release_pattern(text) else None


def _share(items: list, test) -> float:
    return (
        sum(1 for item in items if test(item if not isinstance(item, tuple) else item[1])) / len(items)
        if items
        else 0.0
    )


# What a house may put before its sentence: ``[core]``, ``ABC-123:``, a gitmoji ``:bug:`` or an emoji.
_TAG = re.compile(r"^(?:\[[^\]]*\]|:[a-z0-9_+-]+:|[A-Z][A-Z0-9]+-\d+:?|[^\w\s`'\"]+)\s+")


def _untagged(text: str) -> str:
    """``[core] Fix parser`` -> ``Fix parser``: the sentence, its case and mood read from its first word."""
    while m := _TAG.match(text):
        text = text[m.end() :]
    return text


def _first_word(text: str) -> str:
    word = _untagged(text).split(" ", 1)[0].lower()
    return word.strip("`'\".,:;!?()[]")


def _bump_pattern(text: str) -> str | None:
    """``bump `rich` from `v14.0` to `v15.0` in /docs`` -> ``bump `{name}` from `v{old}` to `v{new}```:
    the house's words kept, the package and versions made slots, anything after the new version dropped."""
    if not _BUMP.match(text):
        return None
    text = text.rstrip(".").replace("{", "{{").replace("}", "}}")  # the house's own braces are words, not slots
    tokens = text.split(" ")
    try:
        to = len(tokens) - 1 - tokens[::-1].index("to")
    except ValueError:
        return None
    if to + 1 >= len(tokens) or not _VERSIONISH.match(tokens[to + 1]):
        return None
    out = tokens[: to + 2]
    out[to + 1] = _slot(out[to + 1], "new")
    if "from" in out[:to]:
        at = out.index("from")
        if at + 1 < to and _VERSIONISH.match(out[at + 1]):
            out[at + 1] = _slot(out[at + 1], "old")
    named = next(
        (i for i in range(1, to) if out[i].strip("`'\"").lower() not in _NOT_NAMES and not out[i].startswith("{")), None
    )
    if named is None:
        return None
    pinned = re.match(r"^([`'\"]?)[^`'\"@]+@(v?)\d[^`'\"]*([`'\"]?)$", out[named])
    if pinned:  # `owner/action@v10.5.3`: the old version written after the name
        out[named] = f"{pinned.group(1)}{{name}}@{pinned.group(2)}{{old}}{pinned.group(3)}"
    else:
        out[named] = re.sub(r"[^`'\"]+", "{name}", out[named], count=1)
    return " ".join(out) if "{name}" in out[named] else None


_NOT_NAMES = {
    "dependency",
    "dependencies",
    "the",
    "requirement",
    "package",
    "module",
    "version",
    "of",
    "from",
    "dep",
    "deps",
    "dev",
    "dev-dependency",
}


def _slot(token: str, name: str) -> str:
    """```v14.0+``` -> ```v{new}```: the quotes and a leading ``v`` kept, the version a slot.
    A new version written as its major alone (Renovate's ``to v7``) is the ``{major}`` slot."""
    major = re.match(r"^([`'\"]?)(v?)\d+([`'\"]?)[.,;:]?$", token)
    if major and name == "new":
        return f"{major.group(1)}{major.group(2)}{{major}}{major.group(3)}"
    m = re.match(r"^([`'\"]?)(v?)[~^=<>]*\d[^`'\"]*([`'\"]?)[.,;:]?$", token)
    return f"{m.group(1)}{m.group(2)}{{{name}}}{m.group(3)}" if m else token


def _release_pattern(text: str) -> str | None:
    """``release v10.6.1`` -> ``release v{version}``, ``Bump version to 7.5.0`` -> ``Bump version
    to {version}``; only short descriptions ending in one version that bump no package."""
    m = _VERSION.search(text)
    if not m or m.end() != len(text.rstrip(".")):
        return None
    if _BUMP.match(text):
        if len(text.split()) > 4 or _bump_pattern(text):
            return None
    elif len(text.split()) > 3:
        return None
    if not re.fullmatch(r"(?:[A-Za-z]+ )*v?", text[: m.start(1)]):
        return None
    return text[: m.start(1)] + "{version}"


def _versionless_release(chosen: list, facts_of: Callable[[PastCommit], Facts]) -> Wording | None:
    """How a house titles its releases where it writes no version in them (fd's ``Bump version``,
    ``Bump version number``): the short subject it wrote most, at least twice, for the past commits
    that set the project's own version, the version said after it (``Bump version to 7.5.0``)."""
    releases = [(c, s) for c, s in chosen if c.parts and facts_of(c).own_version is not None]
    return next(iter(_wordings(releases, _versionless)), None)


def _versionless(text: str) -> str | None:
    """A release's subject that names no version (a few words, no number) as a wording with the
    version after it: ``Bump version`` -> ``Bump version to {version}``, ``Release`` -> ``Release {version}``."""
    text = text.rstrip(".")
    if len(text.split()) > VERSIONLESS_WORDS or re.search(r"[\d{}]", text):
        return None
    return text + (" to {version}" if text.lower().endswith(("version", "version number")) else " {version}")


VERSIONLESS_WORDS = 4


def _wordings(chosen: list, pattern_of, keep: int = 6) -> list[Wording]:
    """The house's wordings of one kind of commit used at least twice, most used first,
    each with the type and scope it was most often written under, and how often under each."""
    found: Counter = Counter()
    where: dict[str, Counter] = {}
    for _, s in chosen:
        pattern = pattern_of(s.text)
        if pattern:
            key = pattern.lower()
            found[key] += 1
            where.setdefault(key, Counter())[(s.type, s.scope, pattern)] += 1
    out = []
    for key, count in found.most_common(keep):
        if count < 2:
            break
        (kind, scope, pattern), _ = where[key].most_common(1)[0]
        uses: Counter = Counter()
        for (k, sc, _), n in where[key].items():
            uses[heading(k, sc)] += n
        out.append(Wording(kind, scope, pattern, count, dict(uses.most_common())))
    return out
