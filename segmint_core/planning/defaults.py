"""Default values changed: "disable decodeDotInKeys by default", "change default chunk_size from 4096 to 65536".

qs's ``decodeDotInKeys: true`` becoming ``false`` in its ``defaults`` object was titled
"correct parse.js"; its engineers wrote "Disable `decodeDotInKeys` by default". Histories
write such changes so: "Change default chunk size from 4Kb to 64Kb", "change default version
to 0.1.0", "ignore `.git/` by default". A rewritten line is a default changed where one literal
(a boolean, a number, a string, None) takes another's place after a name, and the line says
it is a default: a keyword parameter of a signature (``def f(size=4096)``), ``default=`` in an
option's declaration (its flag names it), a name saying ``default`` (``DEFAULT_TIMEOUT = 5``),
a key of an object or dict so named (``var defaults = {``), or a class's attribute
(starlette's ``chunk_size = 4096`` made ``64 * 1024``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

# (path, the hunk's section as git heads it, its lines with their +/-/space marks)
HunkText = tuple[str, str, list[str]]

_NUMBER = r"-?\d[\d_]*(?:\.\d+)?(?:e-?\d+)?[a-zA-Z]{0,3}"  # ``4096``, ``1.5``, ``30s``
_LITERAL = re.compile(
    rf"""(?:true|false|True|False|None|null|nil|undefined|{_NUMBER}(?:\s*[*+/-]\s*{_NUMBER})*"""
    r"""|"[^"\\\n]{0,40}"|'[^'\\\n]{0,40}'|`[^`\\\n]{0,40}`)"""
)
# what stands before the literal: a name (quoted or not) and ``=``, ``:`` or ``:=``, or ``name: type =``
_BEFORE = re.compile(r"""\s*(["']?)([A-Za-z_$][\w$]*)\1\s*(?::\s*[\w.\[\], |]+?\s*)?(?:=|:=?)\s*$""")
_AFTER = re.compile(r"""^\s*(?:[,;)\]}]|$|\s*(?://|#))""")  # the literal ends its value
_SIGNATURE = re.compile(r"^\s*(?:(?:async\s+)?def|(?:export\s+)?(?:async\s+)?function|func|fn)\b")
_CLASS = re.compile(r"^\s*(?:export\s+)?class\s")
_FLAG = re.compile(r"""["'](--[A-Za-z0-9][\w-]*)""")
_CONTAINER = re.compile(r"""([A-Za-z_$][\w$]*)["']?\s*(?:[:=]|\()\s*(?:dict\()?\s*[{(]?\s*$""")
# A line of a signature, an object or a dict: a name (or a quoted key), its type, its value; or a comment.
_ITEM = re.compile(
    r"""^\s*(?:(?:\*{0,2}[A-Za-z_$][\w$]*|"[^"]*"|'[^']*')\s*(?:[:=](?!.*[{(\[]\s*$).*)?,?|(?:#|//|/?\*).*)\s*$"""
)  # (a line opening a bracket it leaves open is the container, no item of it)
_BOOLEANS = {"true": True, "True": True, "false": False, "False": False}


@dataclass(frozen=True)
class DefaultChange:
    name: str  # the parameter, key, flag or constant whose default changed
    old: str
    new: str


def read_defaults(hunks: list[HunkText]) -> list[DefaultChange]:
    """The defaults ``hunks`` change, where that is all their changed lines do; else none."""
    found: list[DefaultChange] = []
    for _, section, lines in hunks:
        changed = [at for at, line in enumerate(lines) if line[:1] in "+-" and line[1:].strip()]
        pairs = _pairs(lines)
        if len(changed) != 2 * len(pairs):
            return []
        for old_at, new_at in pairs:
            default = _default(lines[old_at][1:], lines[new_at][1:], _above(lines, old_at), section)
            if default is None:
                return []
            found.append(default)
    return list(dict.fromkeys(found))


def subjects(defaults: list[DefaultChange], q: Callable[[str], str]) -> list[str]:
    """``disable X by default``, ``change default X from A to B``; two or more: each named."""
    if len(defaults) > 1:
        names = " and ".join(q(d.name) for d in defaults[:2])
        return [f"change the defaults of {names}" if len(defaults) == 2 else "change defaults"]
    (d,) = defaults
    if "default" in d.name.lower():  # ``DEFAULT_TIMEOUT`` says it is one
        return [f"change {q(d.name)} from {d.old} to {d.new}", f"set {q(d.name)} to {d.new}"]
    if d.old in _BOOLEANS and d.new in _BOOLEANS:
        return [f"{'enable' if _BOOLEANS[d.new] else 'disable'} {q(d.name)} by default"]
    return [f"change default {q(d.name)} from {d.old} to {d.new}", f"change default {q(d.name)} to {d.new}"]


def _pairs(lines: list[str]) -> list[tuple[int, int]]:
    """(removed, added) places of the lines each block of equal size rewrites, blank ones left out."""
    out: list[tuple[int, int]] = []
    minus: list[int] = []
    plus: list[int] = []
    for at, line in enumerate([*lines, " "]):
        sign = line[:1]
        if sign == "-":
            if plus:
                minus, plus = [], []
            minus.append(at)
        elif sign == "+":
            plus.append(at)
        elif sign != "\\":
            if minus and len(minus) == len(plus):
                out += [(m, p) for m, p in zip(minus, plus) if lines[m][1:].strip() or lines[p][1:].strip()]
            minus, plus = [], []
    return out


def _default(old: str, new: str, above: list[str], section: str) -> DefaultChange | None:
    """The default a rewritten line changes: the same text but for one literal after a name."""
    for m in _LITERAL.finditer(old):
        head, tail = old[: m.start()], old[m.end() :]
        if not (new.startswith(head) and new.endswith(tail) and _AFTER.match(tail)):
            continue
        value = new[len(head) : len(new) - len(tail)]
        if value == m.group() or not _LITERAL.fullmatch(value):
            continue
        named = _BEFORE.search(head)
        if named is None:
            return None
        name = _named(named.group(2), head, old, above, section)
        return DefaultChange(name, m.group(), value) if name else None
    return None


def _named(name: str, head: str, line: str, above: list[str], section: str) -> str | None:
    """What the default belongs to, where the line says it is one."""
    if name.lower() == "default":  # ``default=False`` in an option's declaration: its flag
        flags = [f for text in [line, *reversed(above)] for f in _FLAG.findall(text)]
        return flags[0] if flags else None
    if "default" in name.lower():
        return name
    if _SIGNATURE.match(head):
        return name  # a keyword parameter's default, on its signature's line
    if not _BEFORE.fullmatch(head):
        return None  # a keyword argument of a call (``open(path, mode="wb")``) is no default
    opener = next((text for text in reversed([section, *above]) if not _ITEM.match(text) and text.strip()), "")
    if _SIGNATURE.match(opener) and opener.rstrip().endswith("("):
        return name  # on a line of a signature written over several
    if _CLASS.match(opener) and name[:1].islower():
        return name  # a class's attribute, its instances' default (an upper-case one is a constant)
    container = _CONTAINER.search(opener)
    return name if container and "default" in container.group(1).lower() else None


def _above(lines: list[str], at: int) -> list[str]:
    """The hunk's lines as they were above line ``at`` (its context and removed lines)."""
    return [line[1:] for line in lines[:at] if line[:1] in " -"]
