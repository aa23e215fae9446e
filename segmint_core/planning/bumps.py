"""Version changes read off manifest, lock and CI files: dependency bumps and the project's own release.

A pin is a name, an operator and a version on one line (``pytest-cov>=4.1.0``,
``"left-pad": "^1.3.0"``, ``uses: actions/checkout@v4``, a go.mod require).
Lock files name the package on an earlier line (``name = "x"`` then
``version = "1.2"``; ``"node_modules/x": {`` then ``"version": ...``; yarn's
``x@^1:`` then ``version "1.2"``), so they are read with that context. A
``version`` key with no package around it is the project's own version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from segmint_core.changes.models import Change, Hunk

_PIN = re.compile(r"""^\s*(?:-\s*)?(?:uses:\s*)?["']?(?P<name>[@A-Za-z0-9_][\w.\-/\[\]@]*?)["']?\s*"""
                  r"""(?:[=<>~!^]=?|@|:|\s(?=v?\d))\s*(?:\{\s*version\s*=\s*)?["']?[~^=<>v]*(?P<version>\d[\w.\-+*]*)""")
_GO_REQUIRE = re.compile(r"^\s*(?:require\s+)?(?P<name>[\w.\-]+\.[a-z]{2,}/[\w.\-/]+)\s+v(?P<version>\d[\w.\-+]*)")
_LOCK_NAME = re.compile(r"""^\s*(?:name\s*=\s*"(?P<toml>[^"]+)"|"node_modules/(?P<npm>[^"]+)":\s*\{"""
                        r"""|"?(?P<yarn>@?[^@\s"]+)@[^:]*"?:\s*$)""")
_LOCK_VERSION = re.compile(r"""^\s*"?version"?\s*[=:]?\s*"(?P<version>[^"]+)"\s*,?\s*$""")
_OWN_KEYS = {"version", "__version__", "."}


@dataclass(frozen=True)
class Bump:
    name: str
    old: str
    new: str


def version_changes(parts: list[tuple[Change, list[Hunk]]], is_lock) -> tuple[list[Bump], Bump | None]:
    """The dependency bumps of the diff, and the project's own version change if any."""
    bumps: dict[str, Bump] = {}
    own: Bump | None = None
    for change, hunks in parts:
        lock = is_lock(change.file_path)
        found = _lock_bumps(hunks) if lock else _pin_bumps(hunks)
        if lock and not found:   # requirements.txt pins are a lock file of pins
            found = [b for b in _pin_bumps(hunks) if b.name.lower() not in _OWN_KEYS]
        for bump in found:
            if bump.name.lower() in _OWN_KEYS:
                own = own or Bump("", bump.old, bump.new)
            elif bump.name.lower() not in bumps:
                bumps[bump.name.lower()] = bump
            elif not lock:
                bumps[bump.name.lower()] = bump     # the manifest's own wording wins over the lock file's
    return list(bumps.values()), own


def _pin_bumps(hunks: list[Hunk]) -> list[Bump]:
    old: dict[str, tuple[str, str]] = {}
    new: dict[str, tuple[str, str]] = {}
    for hunk in hunks:
        for line in hunk.lines:
            if line[:1] not in "+-":
                continue
            pin = _pin(line[1:])
            if pin:
                (old if line[:1] == "-" else new).setdefault(pin[0].lower(), pin)
    return [Bump(new[key][0], old[key][1], new[key][1]) for key in new if key in old and old[key][1] != new[key][1]]


def _pin(text: str) -> tuple[str, str] | None:
    m = _GO_REQUIRE.match(text) or _PIN.match(text)
    if not m:
        return None
    version = m.group("version").rstrip(".,")
    return m.group("name").strip("\"'"), ("v" + version if m.re is _GO_REQUIRE else version)


def _lock_bumps(hunks: list[Hunk]) -> list[Bump]:
    old: dict[str, str] = {}
    new: dict[str, str] = {}
    names: dict[str, str] = {}
    for hunk in hunks:
        current: str | None = None
        for line in hunk.lines:
            text = line[1:]
            m = _LOCK_NAME.match(text)
            if m:
                current = m.group("toml") or m.group("npm") or m.group("yarn")
                if current and "node_modules/" in current:
                    current = current.rsplit("node_modules/", 1)[1]
                continue
            v = _LOCK_VERSION.match(text)
            if v and current and line[:1] in "+-":
                names.setdefault(current.lower(), current)
                (old if line[:1] == "-" else new).setdefault(current.lower(), v.group("version"))
    return [Bump(names[k], old[k], new[k]) for k in new if k in old and old[k] != new[k]]
