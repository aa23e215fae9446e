"""What an edit of a settings file (YAML, TOML, INI, JSON) does, by the keys it touches.

"ci: update ci.yml" says only where; an engineer names the setting: "add 24 to
node-version", "add workflow_dispatch", "set MIN_SUPPORTED_RUST_VERSION to
1.53.0". A changed line's key is the one it states (``key: value``,
``key = value``, ``"key": value``), or for a list item or a continued value,
the key of the nearest line above it with less indentation. Keys only on
added lines are added, only on removed lines removed, on both changed; a
changed key whose value is a list says which items came or went.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from segmint_core.changes.models import Hunk

SUFFIXES = {".yml", ".yaml", ".toml", ".ini", ".cfg", ".json"}
MAX_LINES = 12  # changed lines per file: past that the edit is about more than a setting or two
MAX_VALUE = 24  # a value longer than this is not shown
_KEY = re.compile(
    r"""^\s*(?:-\s+)?["']?(?P<key>[A-Za-z_][\w.\-]*)["']?\s*(?P<sep>:|=)(?!:)\s*(?P<value>.*?)\s*,?\s*$"""
)
_SECTION = re.compile(r"^\s*\[+(?P<name>[^\[\]]+)\]+\s*$")
_ITEM = re.compile(r"^\s*-\s+(?P<value>.+?)\s*$")
_FLOW = re.compile(r"^\[(?P<items>.*)\]$")
# A value and the comment after it (``xcode11.4 # Catalina``): a ``#`` after a space, outside quotes.
_COMMENTED = re.compile(r"""^(?P<value>(?:"[^"]*"|'[^']*'|[^"'])*?)\s+#.*$""")


@dataclass
class SettingsEdit:
    added: dict[str, list[str]] = field(default_factory=dict)  # keys stated only on added lines, their values
    removed: list[str] = field(default_factory=list)  # keys stated only on removed lines
    changed: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)  # key -> (old values, new values)
    items: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)  # key -> (items gone, items come)


def is_settings_path(path: str) -> bool:
    return PurePosixPath(path.lower()).suffix in SUFFIXES


def read_edit(files: list[list[Hunk]]) -> SettingsEdit | None:
    """The keys the hunks of these settings files (one list each) touch, or None where an
    edit is too large or a changed line names no key."""
    own: dict[str, dict[str, list[str]]] = {"+": {}, "-": {}}
    under: dict[str, dict[str, list[str]]] = {"+": {}, "-": {}}
    for hunks in files:
        changed = [line for hunk in hunks for line in hunk.lines if line[:1] in "+-" and line[1:].strip()]
        if not changed or len(changed) > MAX_LINES:
            return None
        for hunk in hunks:
            for sign, key, value, stated in _keyed(hunk.lines):
                if key is None:
                    return None
                (own if stated else under)[sign].setdefault(key, []).append(value)
    edit = SettingsEdit()
    for key in dict.fromkeys([*own["-"], *own["+"]]):
        if key in own["+"] and key in own["-"]:
            edit.changed[key] = (own["-"][key], own["+"][key])
        elif key in own["+"]:
            edit.added[key] = own["+"][key]
        else:
            edit.removed.append(key)
    for key in dict.fromkeys([*under["-"], *under["+"]]):
        if key not in edit.added and key not in edit.removed:
            edit.items[key] = (under["-"].get(key, []), under["+"].get(key, []))
    return edit if edit.added or edit.removed or edit.changed or edit.items else None


def _keyed(lines: list[str]) -> list[tuple[str, str | None, str, bool]]:
    """Each changed line's sign, key, value and whether it states the key itself: its own
    key, or the key of the nearest line above it on its side (context or the same sign)
    with less indentation. A TOML table's header added (``[badges]``) states its name, and the
    lines under it are that table's, none named on its own."""
    out = []
    opened: str | None = None  # the sign of the section header last read, where that line is changed
    for n, line in enumerate(lines):
        sign, text = line[:1], line[1:]
        if section := _SECTION.match(text):  # a table added or taken out whole is named by its header
            opened = sign if sign in "+-" else None
            if opened:
                out.append((sign, section.group("name").strip(), "", True))
            continue
        if sign not in "+-" or not text.strip() or sign == opened:
            continue
        own = _KEY.match(text)
        if own and not _ITEM.match(text):
            out.append((sign, own.group("key"), _uncommented(own.group("value")), True))
            continue
        item = _ITEM.match(text)
        out.append(
            (sign, _parent(lines[:n], sign, _indent(text)), _uncommented(item.group("value") if item else text), False)
        )
    return out


def _uncommented(value: str) -> str:
    m = _COMMENTED.match(value)
    return (m.group("value") if m else value).strip()


def _parent(above: list[str], sign: str, indent: int) -> str | None:
    for line in reversed(above):
        if line[:1] not in (" ", sign) or not line[1:].strip():
            continue
        text = line[1:]
        section = _SECTION.match(text)
        if section:
            return section.group("name").strip()
        own = _KEY.match(text)
        if own and _indent(text) < indent:
            return own.group("key")
    return None


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def subjects(edit: SettingsEdit, where: list[str]) -> list[str]:
    """Wordings, most detailed first, each with and without where (``ci.yml``)."""
    whats: list[tuple[str, str]] = []  # (what, the word before the file)
    if len(edit.changed) + len(edit.items) == 1 and not edit.added and not edit.removed:
        if edit.changed:
            key, (old, new) = next(iter(edit.changed.items()))
            came, went = _items(old, new)
        else:
            key, (gone, come) = next(iter(edit.items.items()))
            came, went = _items(gone, come)
        if came and not went:
            whats.append((f"add {_listed(came)} to {key}", "in"))
        elif went and not came:
            whats.append((f"remove {_listed(went)} from {key}", "in"))
        elif edit.changed and len(new) == 1 and 0 < len(_shown(new[0])) <= MAX_VALUE:
            whats.append((f"set {key} to {_shown(new[0])}", "in"))
        whats.append((f"update {key}", "in"))
    elif edit.added and not edit.removed and not edit.changed and not edit.items:
        valued = {k: v for k, v in edit.added.items() if any(_shown(x) for x in v)}
        if len(valued) == 1:
            key, values = next(iter(valued.items()))
            value = _shown(values[0])
            if len({_shown(x) for x in values}) == 1 and len(value) <= MAX_VALUE:
                whats.append((f"set {key} to {value}", "in"))
        whats.append((f"add {_listed(list(valued) or list(edit.added))}", "to"))
    elif edit.removed and not edit.added and not edit.changed and not edit.items:
        whats.append((f"remove {_listed(edit.removed)}", "from"))
    else:
        keys = [*edit.changed, *edit.items, *edit.added, *edit.removed]
        if len(keys) <= 2:
            whats.append((f"update {_listed(keys)}", "in"))
    out = []
    for what, preposition in whats:
        out += [f"{what} {preposition} {w}" for w in where] + [what]
    return out


def _items(old: list[str], new: list[str]) -> tuple[list[str], list[str]]:
    """Items a key's list gained and lost: ``[18, 19]`` -> ``[18, 19, 24]``, or list lines."""
    before, after = _values(old), _values(new)
    return [v for v in after if v not in before], [v for v in before if v not in after]


def _values(values: list[str]) -> list[str]:
    out: list[str] = []
    for value in values:
        flow = _FLOW.match(value.strip())
        out += [_shown(v) for v in flow.group("items").split(",") if v.strip()] if flow else [_shown(value)]
    return out


def _shown(value: str) -> str:
    return value.strip().strip(",").strip().strip("\"'")


def _listed(names: list[str]) -> str:
    names = list(dict.fromkeys(names))
    return (
        names[0]
        if len(names) == 1
        else f"{names[0]} and {names[1]}"
        if len(names) == 2
        else f"{names[0]}, {names[1]} and {len(names) - 2} more"
    )
