"""A subject in the repository's own voice: its types, its scopes, its wording.

The offline rules (``messages.py``) say what the change is; the house style
(``style.py``) says how this repository would title it. With Conventional
Commits, the type is chosen by the type model (``type_model.py``: the house's
nearest past commits, a classifier of its history, the rules' type and its
habit, weighed as fit on other repositories); the scope is voted by the past
commits most like this one (``precedent.vote``), a scope the house already
uses that names a folder or file of the change counting too. Without them,
the subject is a plain sentence in the house's capitalization and mood. Dependency bumps and releases use the house's own
wording of them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import PurePosixPath

from segmint_core.planning import messages, verbs
from segmint_core.planning.claims import fix_evidence
from segmint_core.planning.conventional import parse_subject
from segmint_core.planning.dependency_lists import habitual_type
from segmint_core.planning.describe import CODE_TYPES
from segmint_core.planning.facts import Facts, entries_naming_code
from segmint_core.planning.precedent import Touched, content_features, features, path_words, vote
from segmint_core.planning.style import RECENT, HouseStyle
from segmint_core.planning.tense import PAST, imperative
from segmint_core.planning.type_model import TypeModel, candidates, choose, load_model
from segmint_core.wording import capitalized, uncapitalized


@dataclass(frozen=True)
class Voting:
    """How the type and scope are voted. Chosen leave-one-repository-out by
    ``segmint bench messages --leave-one-out`` (docs/guide/commit-messages.md has the table)."""

    rule: float = 0.5  # the rules' own type, against neighbour votes that sum to 1
    path: float = 1.0  # a scope the house uses that the change's paths name, likewise
    neighbours: int = 8  # past commits that vote
    types: TypeModel | None = None  # weighs the house's evidence for each type instead of the vote
    verb: float = 0.3  # a plain house's: the share of the neighbours' votes a verb needs to replace ours
    prefix: float = 0.5  # and a prefix to be written
    verb_neighbours: int = 8  # a plain house's: past commits that vote for the verb
    evidence: float = 0.3  # a plain house's: what the verb the diff backs (add, remove) adds to its share


VOTING = Voting(types=load_model())
HOUSE_VERB_SHARE = 0.5  # a verb the house starts most subjects of a type with replaces our generic one
HOUSE_VERB_MIN = 5
# Verbs that say a change happened, not what it did: one of ours gives way to the house's.
GENERIC_VERBS = {
    "update",
    "fix",
    "format",
    "reformat",
    "restructure",
    "simplify",
    "extend",
    "correct",
    "improve",
    "tweak",
    "adjust",
    "change",
    "beautify",
    "tidy",
    "clean",
    "cleanup",
    "lint",
    "refactor",
    "polish",
}
FORMATTING = {"format", "reformat", "beautify", "lint"}  # verbs that claim the meaning is as it was
QUOTES_SHARE = 0.3  # a house quoting names in backticks this often gets them quoted
SYNONYMS = {
    "test": ("tests",),
    "docs": ("doc", "documentation"),
    "feat": ("feature",),
    "fix": ("bugfix",),
    "style": ("lint",),
    "build": ("deps", "chore"),
    "ci": ("build", "chore"),
}
# One type spelled more ways than one: a house writes the one it writes lately.
SPELLINGS = ({"test", "tests"}, {"docs", "doc", "documentation"}, {"feat", "feature"}, {"fix", "bugfix"})


def title_parts(
    style: HouseStyle, facts: Facts, touched: list[Touched], voting: Voting = VOTING
) -> tuple[list[str], list[str]]:
    """The title's possible heads (``type(scope):``, then shorter) and wordings, most detailed first."""
    rule = messages.commit_type(facts)
    q = (lambda name: f"`{name}`") if style.learned and style.quotes >= QUOTES_SHARE else messages.plain
    if not style.follows_conventional:
        return plain_title(style, facts, touched, rule, q, voting)
    kind, scope = type_and_scope(style, facts, touched, rule, voting)
    if kind in style.follow_ups and kind == rule and style.head:  # the house's own words for it, naming HEAD
        return [""], [style.follow_ups[kind].format(parent=style.head)]
    # A change to code the house calls refactor rather than fix is worded as one; a kind
    # of file the rules know for sure (docs, tests, CI) keeps the rules' wording.
    worded = kind if kind in CODE_TYPES and rule in CODE_TYPES else rule
    entries = _entry_words(facts)
    agree = [e for e in entries if kind == "fix" or verbs.first_verb(e) != "fix"]  # not "feat: fix a regression"
    wordings = (
        _house_wordings(style, facts, kind, scope)
        + agree
        + messages.subjects(worded, facts, q)
        + [e for e in entries if e not in agree]
    )
    wordings = [conventional_voice(style, _house_verb(style, facts, kind, _once(kind, w))) for w in wordings]
    heads = [f"{kind}({scope}):", f"{kind}:"] if scope and not _repeats(scope, kind) else [f"{kind}:"]
    return heads, wordings


def plain_title(
    style: HouseStyle, facts: Facts, touched: list[Touched], rule: str, q, voting: Voting = VOTING
) -> tuple[list[str], list[str]]:
    """A plain house's title: the change's own words where it has them, else ours with the verb the
    past commits most like it start with, where it is one the diff allows; the prefix they carry
    (``cmd:``) where most of them, by the files they touch, carry one."""
    if habit := _habit(style, facts, touched):
        return [""], [habit]
    house = _house_wordings(style, facts, None, None)
    authors = own_words(facts)  # the author's sentences keep their own verb
    wordings = messages.subjects(rule, facts, q)
    wanted = features(touched) + content_features(facts, rule)
    shares = vote(style.phrasings, wanted, lambda p: p.type, k=voting.verb_neighbours).shares()
    evident = fix_evidence(facts)
    voted = verbs.choose(shares, facts, evident, voting.verb, voting.evidence)
    fixes = evident or voted == "fix"  # a fix-typed neighbour is evidence too
    # the house's own wording of a bump or a release keeps its verb: it is how it words this kind
    titled = [plain_voice(style, text, fixes) for text in house + authors] + [
        plain_voice(style, _house_synonym(style, text), fixes)
        for w in wordings
        for text in verbs.worded(w, voted, facts, q)
    ]
    return plain_heads(style, facts, wanted, voting), titled


def plain_heads(style: HouseStyle, facts: Facts, wanted: tuple[str, ...], voting: Voting = VOTING) -> list[str]:
    """A plain title's heads: the prefix the past commits most like it carry (``cmd:``, ``docs:``),
    where most of them, by the files they touch, carry one, then none. ``wanted``: the change's
    features (``features`` of its files, ``content_features``)."""
    # a bump or a release is prefixed as the house prefixes those (express: "deps: send@0.4.3", "4.4.2")
    why = messages.intent(facts)
    pool = [p for p in style.phrasings if p.intent == why] if why else []
    prefixes = vote(pool or style.phrasings, wanted, lambda p: p.scope, k=voting.neighbours, files_only=True).shares()
    prefix = max(prefixes, key=lambda p: (prefixes[p], p is None)) if prefixes else None
    return [prefix, ""] if prefix is not None and prefixes[prefix] >= voting.prefix else [""]


def area_heads(style: HouseStyle, facts: Facts, touched: list[Touched]) -> list[str]:
    """``plain_heads`` for a change, its wordings left unwritten (a recorded task says its own)."""
    if _habit(style, facts, touched):
        return [""]
    return plain_heads(style, facts, features(touched) + content_features(facts, messages.commit_type(facts)))


def _habit(style: HouseStyle, facts: Facts, touched: list[Touched]) -> str | None:
    """The subject the house writes for every edit of this one file alone (``style.habits``), unless
    it names the one dependency the change bumps: the house's bump wording says that, and its versions."""
    if len(touched) != 1 or touched[0].status != "M" or touched[0].path not in style.habits:
        return None
    habit = style.habits[touched[0].path]
    if len(facts.bumps) == 1 and facts.bumps[0].name.lower() in habit.lower().split():
        return None
    return habit


def _house_synonym(style: HouseStyle, text: str) -> str:
    """``remove x`` as ``drop x`` in a house that writes "drop" most; ``bump x`` as ``update x``
    in one that words its bumps so."""
    verb, _, rest = text.partition(" ")
    word = verbs.house_word(verb.lower(), style.phrasings) if rest else verb
    return f"{word} {rest}" if word != verb.lower() else text


def own_words(facts: Facts) -> list[str]:
    """The entries the change adds to its changelog, where it changes more than the changelog: each
    author's sentence (so a later entry titles a change whose first is too long to), then each
    shortened."""
    if not facts.changelog_entries or messages.intent(facts):
        return []  # a release's entries are its versions
    # a release's block of entries is one hunk, so it may hold the entries of other commits' code
    about = entries_naming_code(facts, facts.changelog_entries) or facts.changelog_entries
    entries = [_ENTRY_TAG.sub("", e).replace("``", "`") for e in about[:MOST_ENTRIES] if not _described(e)]
    # every whole sentence first; one shortened to what follows its opening phrase may open on an article
    said = entries + [text for entry in entries for text in _shortened(entry) if not _described(text)]
    if all(map(messages.is_changelog, facts.paths)):
        return entry_added(facts, said)
    return said


# A tag heading an entry, and the area after it: qs's "[Fix] `parse`: Disable ...", "[Tests] increase coverage".
_ENTRY_TAG = re.compile(r"^\[[A-Z][\w -]{1,20}\]\s+(?:`[^`\n]+`(?:\s*/\s*`[^`\n]+`)*:\s+)?")


# An entry that opens on an article says what now happens ("A warning `X` is now issued when ..."):
# a title says what the change does, so such an entry is no title. (One naming its code first,
# "`edit` accepts `os.PathLike`", says it in a few words, as click's subjects do.)
_SUBJECT_FIRST = re.compile(r"^(?:an?|the|this|these|those|it|there)\b", re.I)


def _described(entry: str) -> bool:
    return _SUBJECT_FIRST.match(entry) is not None


def _shortened(entry: str) -> list[str]:
    """A long ``entry`` shorter, to fit a title: the words before each clause or phrase it ends
    with, longest first (``Fix X to respect Y`` of ``Fix X to respect Y for Z``), down to its first
    clause. A phrase is cut from the sentence itself, never from what follows its first punctuation
    (``..., in addition to strings`` is no place to end at ``in addition``); a phrase opening it
    before its subject (``In stub files, ...``) is left out."""
    entry = _INTRO.sub("", entry, count=1)
    ends = [m for m in _CLAUSE_END.finditer(entry) if _outside_code(entry, m.start())]
    first = ends[0].start() if ends else 0
    aside = next((m.start() for m in ends if _PUNCTUATION.match(m.group())), len(entry))
    cuts = [
        m.start()
        for m in _PHRASE.finditer(entry)
        if _outside_code(entry, m.start()) and m.start() < aside and not _dangles(entry, m)
    ]
    shorter = [entry[:at] for at in sorted({at for at in cuts + [m.start() for m in ends] if at > first}, reverse=True)]
    said = shorter + ([entry[:first]] if first else [])
    return [text for text in dict.fromkeys(said) if len(text.split()) >= MIN_CLAUSE_WORDS]


def _dangles(entry: str, phrase: re.Match[str]) -> bool:
    """Whether cutting ``entry`` before ``phrase`` leaves a word bound to it (``when trying``, ``built``)."""
    bound = _BOUND.get(phrase.group().strip())
    return bound is not None and bound.search(entry, 0, phrase.start()) is not None


def _outside_code(text: str, at: int) -> bool:
    """Whether ``at`` stands outside ``text``'s code spans: a cut there never splits `# fmt: off`."""
    return text.count("`", 0, at) % 2 == 0


MOST_ENTRIES = 3  # of a change's changelog entries, those that may title it
_ENTRY_HEAD = re.compile(r"^\*\*[^*\n]{1,40}:\*\*\s+")  # release-please's "**deps:** update x"


def _entry_words(facts: Facts) -> list[str]:
    """The entries the change adds, as descriptions: a changelog listing commit subjects
    (``docs(github-actions): clarify ...``, ``**cli:** add ...``) gives their descriptions, which
    the title's own type and scope lead."""
    return [_ENTRY_HEAD.sub("", parse_subject(entry).text) for entry in own_words(facts)]


ENTRY_LINES = 4  # lines a changelog edited alone may add and still be one entry added


def entry_added(facts: Facts, said: list[str]) -> list[str]:
    """A changelog edited alone records a change made elsewhere (another commit, often the one
    just before): it is titled as an entry added, in the entry's words, quoted (``add "Avoid an
    extra process" to CHANGES.md``), where it only adds one entry; by the pull request it names
    where its words are too long for a title (``add changelog entry for #2991``)."""
    if facts.removed or facts.added > ENTRY_LINES or len(facts.paths) != 1 or facts.changelog_items != 1:
        return []
    name = PurePosixPath(facts.paths[0]).name
    quoted = [f'add "{text}" to {name}' for text in said] + [f'add "{text}"' for text in said]
    ref = facts.changelog_reference
    return quoted + ([f"add changelog entry for {ref}"] if ref else []) + ["add changelog entry"]


# Where a long changelog sentence's first clause ends.
_CLAUSE_END = re.compile(
    r",\s|;\s|\s\(|\s-\s|:\s|\s(?:so that|when|which|because|if|since|as|by|until|through|unless|while)\s"
)
_PUNCTUATION = re.compile(r"[,;:]\s|\s[(-]")  # of the clause ends, those a mark makes
MIN_CLAUSE_WORDS = 3
# A phrase opening a sentence before its subject: black's "In `.pyi` stub files, enforce a blank line ..."
_INTRO = re.compile(
    r"^(?:in|on|for|when|if|with|after|before|since|unless|while|under|within|during)\b[^,;:]*,\s+", re.I
)
# Where a phrase a sentence may end without starts.
_PHRASE = re.compile(r"\s(?:to|for|with|in|on|from|into|after|before|without|instead of|at|via|using|between)\s")
# The words a phrase's first word is bound to: packaging's "Fix errors when trying to access ..." is
# not to end at "Fix errors when trying", nor "... the use of the built in `ExceptionGroup`" at "the built",
# nor pytest-mock's "... would cause `mocker.patch.object` to not being cleared" at "cause `mocker.patch.object`".
_BOUND = {
    "to": re.compile(
        r"\b(?:\w+ing|able|unable|how|tr(?:y|ies|ied)|wants?|needs?|used|attempts?)$"
        r"|\b(?:caus|allow|forc|enabl|requir|expect|ask|tell|let)\w*\s+\S+$",  # "cause `x` to ..."
        re.I,
    ),
    "in": re.compile(r"\b(?:built|plug(?:ged)?|log(?:ged)?|opt(?:ed)?)$", re.I),
}


def _once(kind: str, wording: str) -> str:
    """``docs: document x`` where a plain house reads ``add docs for x`` (or ``to x``): the head says docs."""
    added = _DOCS_ADDED.match(wording) if kind == "docs" else None
    return "document " + wording[added.end() :] if added else wording


_DOCS_ADDED = re.compile(r"add docs (?:for|to) ")


def _repeats(scope: str, kind: str) -> bool:
    """``docs(docs):``, ``tests(test):``: a scope that only repeats the type says nothing (no house
    of the benchmark writes one)."""
    return scope.lower().removesuffix("s") == kind.lower().removesuffix("s")


def type_and_scope(
    style: HouseStyle, facts: Facts, touched: list[Touched], rule: str, voting: Voting = VOTING
) -> tuple[str, str | None]:
    if not style.learned:
        return rule, messages.scope(facts)
    why = messages.intent(facts)
    pool = [p for p in style.precedents if p.intent == why] if why else style.precedents
    if why == "release" and not pool:  # the house titles no release by a type (``9.9.0``): ours, unscoped
        return house_type(style, rule) or rule, None
    wanted = features(touched) + content_features(facts, rule)
    ours = house_type(style, rule)
    habit = (
        habitual_type([b.name for b in facts.bumps], style.dependency_lists, style.dependency_habits)
        if why == "deps"
        else None
    )
    filed = facts.changelog_fixes and why is None and any(map(messages.is_code, facts.paths))  # not a release's notes
    filed_as_fix = house_type(style, "fix") if filed else None
    if habit is not None:
        kind = habit  # "fix(deps)" for runtime dependencies, "chore(deps)" for development ones
    elif filed_as_fix is not None:
        kind = filed_as_fix  # the author filed it under the changelog's fixes
    elif voting.types is not None:
        kind = choose(voting.types, candidates(style, facts, touched, rule, ours))
    else:
        kind = _voted_type(pool or style.precedents, wanted, rule, ours, voting)
    kind = lately_spelled(style, kind)
    scopes = vote(pool or style.precedents, wanted, lambda p: p.scope, k=voting.neighbours, files_only=True).shares()
    words = path_words(messages.scope_paths(facts.paths))  # a test beside the code is not "test"
    for known in style.scopes:
        if known.lower() in words or all(part in words for part in known.lower().split("-")):
            scopes[known] += voting.path
    if not scopes:
        return kind, messages.scope(facts) if style.scope_share >= 0.5 else None
    return kind, max(scopes, key=lambda s: (scopes[s], s is None))


def lately_spelled(style: HouseStyle, kind: str) -> str:
    """``kind`` as the house spells it in its recent commits: express wrote ``tests:`` for years,
    then ``test:``, and its older commits outnumber the newer."""
    spellings = next((group for group in SPELLINGS if kind in group), {kind})
    recent = Counter(p.type for p in style.precedents[:RECENT] if p.type in spellings)
    return max(recent, key=lambda t: (recent[t], t == kind)) if recent else kind


def _voted_type(pool: list, wanted: tuple[str, ...], rule: str, ours: str | None, voting: Voting) -> str:
    """The type the nearest past commits vote for, the rules' own (in the house's word) adding ``voting.rule``."""
    types = vote(pool, wanted, lambda p: p.type, k=voting.neighbours).shares()
    types.pop(None, None)
    if ours:
        types[ours] += voting.rule
    return max(types, key=lambda t: (types[t], t == ours)) if types else ours or rule


def house_type(style: HouseStyle, rule: str) -> str | None:
    """The house's word for the rules' type: itself if the house uses it, else a synonym it uses."""
    if rule in style.types:
        return rule
    return next((s for s in SYNONYMS.get(rule, ()) if s in style.types), None)


def _house_wordings(style: HouseStyle, facts: Facts, kind: str | None, scope: str | None) -> list[str]:
    """The house's own wording of a dependency bump (the one it writes most under this type
    and scope, else its most used; a requirement's range changed, or a toolchain's minimum,
    is ours) or of a release."""
    why = messages.intent(facts)
    if (
        why == "deps"
        and style.bumps
        and len(facts.bumps) == 1
        and not facts.bumps[0].requirement
        and not facts.supported
    ):
        b = facts.bumps[0]
        chosen = max(style.bumps, key=lambda w: w.used_under(kind, scope))  # the first of equals: most used
        pattern = chosen.pattern
        if "{old}" not in pattern or b.old:
            return [
                pattern.format(
                    name=name,
                    old=_unv(pattern, "old", b.old),
                    new=_unv(pattern, "new", b.new),
                    major=_unv(pattern, "major", _major(b.old, b.new)),
                )
                for name in _names(b.name)
            ]
    if why == "release" and style.release:
        version = messages.release_version(facts) or ""
        pattern = style.release.pattern
        if pattern.endswith("v{version}") and version.startswith("v"):
            version = version[1:]
        return [pattern.format(version=version)]
    return []


def _names(name: str) -> list[str]:
    """A dependency's name, then, for an action its owner names twice (``x/x``), its name once,
    for a title the whole name would push past the limit (``python-semantic-release@v10.6.0``)."""
    owner, _, repo = name.partition("/")
    return [name, repo] if repo == owner else [name]


def _major(old: str, new: str) -> str:
    """The new version as a house writing ``to v7`` writes it: its major alone where the major
    rose (``6.3.0`` -> ``7.0.0``: ``7``), else the whole version (``v0.13.0``), as Renovate does."""
    was, now = re.match(r"v?(\d+)\.", old + "."), re.match(r"v?(\d+)\.", new + ".")
    return now.group(1) if was and now and int(now.group(1)) > int(was.group(1)) else new


def _unv(pattern: str, slot: str, version: str) -> str:
    """A version without its ``v`` where the pattern writes one before the slot."""
    return version[1:] if f"v{{{slot}}}" in pattern and version.startswith("v") else version


def _house_verb(style: HouseStyle, facts: Facts, kind: str, text: str) -> str:
    """A generic verb of ours ("format", "update") in the house's own word for this type of
    commit, where it has one it uses for most of them ("beautify")."""
    verb, _, rest = text.partition(" ")
    if verb not in GENERIC_VERBS or not rest:
        return text
    used = style.verbs.get(kind, {})
    total = sum(used.values())
    top = max(used, key=lambda verb: used[verb]) if used else None
    if top in FORMATTING and not facts.tokens_same:
        return text  # "format" claims the tokens are as they were
    if top in GENERIC_VERBS and total >= HOUSE_VERB_MIN and used[top] >= HOUSE_VERB_SHARE * total:
        return f"{top} {rest}"
    return text


def conventional_voice(style: HouseStyle, text: str) -> str:
    """``text`` as the house writes a description; with no house learned, as Conventional Commits
    are mostly written: a command in lower case (a changelog entry's ``Fixed X`` is ``fix X``)."""
    first, _, rest = text.partition(" ")
    first = _tensed(style, first)
    lead = first[:1].upper() + first[1:] if style.capitalized >= 0.5 else lowered(first)
    return _finish(style, f"{lead} {rest}".strip())


def lowered(word: str) -> str:
    """A subject's first word in lower case where it is a word (``Add``); a name keeps its case
    (``ParamType``, ``HTTP``, ``macOS``)."""
    return uncapitalized(word)


def plain_voice(style: HouseStyle, text: str, fixes: bool = True) -> str:
    """``text`` as the house writes a subject; ``correct`` (our word for a change to code typed
    ``fix``) is "fix" only where ``fixes`` (``claims.fix_evidence``), else "update"."""
    verb, _, rest = text.partition(" ")
    verb = lowered(verb)
    if verb == "correct":
        verb = "fix" if fixes else "update"
    name, _, tail = rest.partition(" ")
    if name.lower() == verb:  # "use use instead of error": the name is express's `app.use`
        rest = f"`{name}` {tail}".strip()
    if style.past_tense >= 0.5:
        verb = PAST.get(verb, verb)
    text = f"{verb} {rest}".strip()
    text = capitalized(text) if style.capitalized >= 0.5 else text
    return _finish(style, text)


def _tensed(style: HouseStyle, word: str) -> str:
    """A description's first word as a command (``Fixed`` -> ``fix``) in a house that writes
    commands, where it is a verb we know in another form (a changelog entry's ``Fixed the pager``)."""
    if style.past_tense >= 0.5:
        return word
    command = imperative(word)
    return command if command != word.lower() else word


def _finish(style: HouseStyle, text: str) -> str:
    return text + "." if style.period >= 0.5 and not text.endswith(".") else text
