"""What a code change does, in the words an engineer would title it with.

The wording names the changed function (the one with most lines changed, or
the two; the file when the change is spread over many) and the nature of the
change the diff shows: an option or parameter added, an exception handled or
raised, a missing value now checked, a helper extracted, a module newly used.
Where the diff says no more, the verb carries the type: ``correct``, ``simplify``,
``speed up``, ``extend``. Each wording comes with shorter ones, most detailed
first, for ``titles.fit``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath

from segmint_core.changes.kinds import example_of
from segmint_core.planning.facts import Facts
from segmint_core.wording import counted

Quote = Callable[[str], str]
CODE_TYPES = ("feat", "fix", "refactor", "perf", "chore")
DOMINANT = 0.6  # a function holding this share of the changed lines names the change alone


def code_subjects(kind: str, facts: Facts, code_paths: list[str], q: Quote) -> list[str]:
    """Wordings for a change to code, titled as ``kind``; one mostly of docstrings and comments
    (not a feature's: a new definition comes with its own) says so first."""
    where = places(facts, code_paths, q)
    if kind == "feat":
        return _added(facts, q, code_paths) + [f"extend {w}" for w in where]
    parts = documented_defs(facts, q)
    documented = [documenting(facts, d) for d in parts]
    if kind == "fix":  # the fix, and most of it (the shorter verb, beside a fix's words)
        handled = _handled(facts, where, q)
        documented = [f"{h} and document {d}" for h in handled[-1:] for d in parts] + documented
        out = handled + [f"correct {w}" for w in where]
    elif kind == "refactor":
        out = _reshaped(facts, where, q)
    elif kind == "perf":
        out = [f"speed up {w}" for w in where]
    else:
        out = [f"update {w}" for w in where]
    return list(dict.fromkeys(documented + out))


def documenting(facts: Facts, what: str) -> str:
    """``add docs to x`` where the change adds more lines than it takes out (the seven plain
    histories of ``../shared/data`` lead with "Add ... docs" 192 times, "Document" 80), else
    ``document x``."""
    return f"add docs to {what}" if facts.added > facts.removed else f"document {what}"


MOSTLY = 0.5  # the share of changed code lines that, as docstrings or comments, make a change mostly docs


def documented_defs(facts: Facts, q: Quote) -> list[str]:
    """What a change mostly of docstrings and comments documents: the definition holding most of
    them, or the two; of more, the file holding most (the methods of one class it documents)."""
    doc, other = facts.explaining
    if not facts.documented or doc <= MOSTLY * (doc + other):
        return []
    ranked = [name for name, _ in facts.documented.most_common()]
    total = sum(facts.documented.values())
    if len(ranked) == 1 or facts.documented[ranked[0]] >= DOMINANT * total:
        return [q(ranked[0])]
    if len(ranked) == 2:
        return [f"{q(ranked[0])} and {q(ranked[1])}", q(ranked[0])]
    path, lines = facts.documented_paths.most_common(1)[0]
    return [PurePosixPath(path).name] if lines >= DOMINANT * doc else []


def places(facts: Facts, code_paths: list[str], q: Quote) -> list[str]:
    """Where the change is, most precise first: its main function or two, its file or two,
    then (a last resort) its first file and how many more."""
    ranked = [name for name, _ in facts.def_lines.most_common()] or list(facts.code_changed_defs)
    out: list[str] = []
    total = sum(facts.def_lines.values())
    if ranked and (len(ranked) <= 2 or facts.def_lines[ranked[0]] >= DOMINANT * total):
        top = ranked[:2] if len(ranked) == 2 and facts.def_lines[ranked[0]] < DOMINANT * total else ranked[:1]
        out.append(" and ".join(q(n) for n in top))
        if len(top) == 2:
            out.append(q(top[0]))
    example = example_of(code_paths)
    if example:  # an example is known by its name: "mine in the naval example", "the naval example"
        out = [f"{w} in the {example} example" for w in out[:1]] + [f"the {example} example"] + out
    out += files(code_paths)
    return list(dict.fromkeys(out))


def files(paths: list[str]) -> list[str]:
    """``a.py``; ``a.py and b.py``; then ``a.py and 2 more files`` only as a last resort."""
    names = list(dict.fromkeys(PurePosixPath(p).name for p in paths))
    if not names:
        return []
    if len(names) <= 2:
        return [" and ".join(names)] + ([names[0]] if len(names) == 2 else [])
    return [f"{names[0]} and {counted(len(names) - 1, 'more file')}", counted(len(names), "file")]


def _precise(where: list[str]) -> list[str]:
    return [w for w in where if not w.endswith((" more file", " more files", " files"))]


def _added(facts: Facts, q: Quote, code_paths: list[str]) -> list[str]:
    """What a feature adds: an option, a parameter, a public definition, a field."""
    if facts.options:
        flag = q(facts.options[0])
        target = [d for d in facts.code_changed_defs if d in facts.def_lines][:1]
        more = len(facts.options) > 1
        flags = (
            f"{flag} and {q(facts.options[1])} options"
            if len(facts.options) == 2
            else f"{flag} and {counted(len(facts.options) - 1, 'more option')}"
            if more
            else f"{flag} option"
        )
        return ([f"add {flags} to {q(target[0])}"] if target else []) + [f"add {flags}", f"add {flag} option"]
    if facts.params:
        func, param = facts.params[0]
        return [f"add {q(param)} parameter to {q(func)}", f"add {q(param)} to {q(func)}"]
    public = [d for d in facts.code_added_defs if not d.startswith("_")]
    if public:
        example = example_of(code_paths)
        named = _names("add", public, q)
        return ([f"{named[0]} to the {example} example"] if example else []) + named
    if facts.fields:
        return _names("add", facts.fields, q)
    return []


def _handled(facts: Facts, where: list[str], q: Quote) -> list[str]:
    """What a fix does, where the diff shows it: handles, checks, raises, passes, uses."""
    if facts.handles:
        what = f"handle {facts.handles[0]}"
    elif facts.raises:
        what = f"raise {facts.raises[0]}"
    elif facts.raised_again:  # says no more than that the raise changed (its message, its arguments)
        what = f"update the {facts.raised_again[0]} raised"
    elif facts.missing:
        what = f"handle missing {q(facts.missing[0])}"
    elif facts.retyped:
        what = f"correct the type of {q(facts.retyped[0])}"
    elif facts.typos:
        typos = "typos" if len(facts.typos) > 1 else "typo"
        return [f"correct {typos} in {f}" for f in files(facts.typo_paths)] + [f"correct {typos}"]
    elif facts.params:
        func, param = facts.params[0]
        return [f"pass {q(param)} to {q(func)}"]
    elif facts.imports:
        what = f"use {facts.imports[0]}"
    else:
        return []
    return [f"{what} in {w}" for w in _precise(where)] + [what]


def _reshaped(facts: Facts, where: list[str], q: Quote) -> list[str]:
    private = [d for d in facts.code_added_defs if d.startswith("_")] or facts.code_added_defs
    if private and facts.removed:
        return [f"extract {q(private[0])} from {w}" for w in where] + [f"extract {q(private[0])}"]
    if facts.removed_defs:
        return _names("remove", facts.removed_defs, q)
    verb = "simplify" if facts.removed > facts.added else "restructure"
    return [f"{verb} {w}" for w in where]


def _names(verb: str, names: list[str], q: Quote) -> list[str]:
    """``add a``; ``add a and b``; more than two: the first two, then the first alone."""
    names = list(dict.fromkeys(names))
    if len(names) == 1:
        return [f"{verb} {q(names[0])}", f"{verb} a definition"]
    if len(names) == 2:
        return [f"{verb} {q(names[0])} and {q(names[1])}", f"{verb} {q(names[0])}"]
    return [
        f"{verb} {q(names[0])}, {q(names[1])} and others",
        f"{verb} {q(names[0])} and others",
        f"{verb} {counted(len(names), 'definition')}",
    ]
