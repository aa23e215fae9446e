"""Which list of the project's manifest a dependency is in, and the type the house gives bumps of each.

Renovate's semantic-commit houses write ``fix(deps)`` for a runtime dependency and
``chore(deps)`` for a development one; the diff rarely shows which it is (the list's
heading is far above the changed line), but the manifest at HEAD does. The lists are read
from the root's ``package.json``, ``pyproject.toml`` and ``Cargo.toml``; a house's habit is
learned from its past bumps, each counted under the list its packages are in now.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from collections.abc import Iterable

RUNTIME = "runtime"
DEV = "dev"
MANIFESTS = ("package.json", "pyproject.toml", "Cargo.toml")
# A list's habit is followed when this many past bumps of it were typed one way, at this share.
MIN_BUMPS = 5
MIN_SHARE = 0.8

_NPM_LISTS = {
    "dependencies": RUNTIME,
    "peerDependencies": RUNTIME,
    "optionalDependencies": RUNTIME,
    "devDependencies": DEV,
}
_CARGO_LISTS = {"dependencies": RUNTIME, "dev-dependencies": DEV, "build-dependencies": "build"}
_REQUIREMENT_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._\-]*)")


def manifest_lists(texts: dict[str, str]) -> dict[str, str]:
    """Each dependency's list (``runtime``, ``dev``, a named group such as ``docs``), by its
    normalized name, from the root manifests' texts by name (``MANIFESTS``)."""
    found: dict[str, str] = {}
    readers = {"package.json": _package_json, "pyproject.toml": _pyproject, "Cargo.toml": _cargo}
    for path, text in texts.items():
        try:
            pairs = readers[path](text)
        except (ValueError, TypeError, AttributeError, tomllib.TOMLDecodeError):
            continue  # a manifest that does not parse says nothing
        for name, where in pairs:
            found.setdefault(normalized(name), where)
    return found


def list_of(names: Iterable[str], lists: dict[str, str]) -> str | None:
    """The one list all these dependencies are in, or None (unknown, or several)."""
    where = {lists.get(normalized(n)) for n in names}
    return where.pop() if len(where) == 1 and None not in where else None


def habits(bumps: Iterable[tuple[Iterable[str], str]], lists: dict[str, str]) -> dict[str, dict[str, int]]:
    """How many past bumps of each list the house typed each way, from (bumped names, type)."""
    counts: dict[str, Counter] = {}
    for names, kind in bumps:
        where = list_of(names, lists)
        if where is not None:
            counts.setdefault(where, Counter())[kind] += 1
    return {where: dict(c.most_common()) for where, c in sorted(counts.items())}


def habitual_type(names: Iterable[str], lists: dict[str, str], learned: dict[str, dict[str, int]]) -> str | None:
    """The type the house gives bumps of these dependencies' list, where it nearly always gives one."""
    where = list_of(names, lists)
    return habit(learned[where]) if where in learned else None


def habit(counts: dict[str, int]) -> str | None:
    """The type of at least ``MIN_SHARE`` of at least ``MIN_BUMPS`` past bumps, else None."""
    total = sum(counts.values())
    if total < MIN_BUMPS:
        return None
    kind, most = max(counts.items(), key=lambda item: (item[1], item[0]))
    return kind if most >= MIN_SHARE * total else None


def normalized(name: str) -> str:
    """``Typing_Extensions`` and ``typing-extensions`` are one package (PEP 503); npm names are lower-case."""
    return re.sub(r"[-_.]+", "-", name.strip().lower())


def _package_json(text: str) -> list[tuple[str, str]]:
    data = json.loads(text)
    return [(name, where) for key, where in _NPM_LISTS.items() if isinstance(data.get(key), dict) for name in data[key]]


def _pyproject(text: str) -> list[tuple[str, str]]:
    data = tomllib.loads(text)
    project = data.get("project", {})
    pairs = [(n, RUNTIME) for n in _requirement_names(project.get("dependencies", []))]
    for group, items in {**project.get("optional-dependencies", {}), **data.get("dependency-groups", {})}.items():
        pairs += [(n, group) for n in _requirement_names(items)]
    poetry = data.get("tool", {}).get("poetry", {})
    pairs += [(n, RUNTIME) for n in poetry.get("dependencies", {}) if n != "python"]
    pairs += [(n, DEV) for n in poetry.get("dev-dependencies", {})]
    for group, table in poetry.get("group", {}).items():
        pairs += [(n, group) for n in table.get("dependencies", {})]
    return pairs


def _requirement_names(items: list) -> list[str]:
    return [m.group(1) for item in items if isinstance(item, str) and (m := _REQUIREMENT_NAME.match(item))]


def _cargo(text: str) -> list[tuple[str, str]]:
    data = tomllib.loads(text)
    tables = [data, data.get("workspace", {})]
    return [(name, where) for table in tables for key, where in _CARGO_LISTS.items() for name in table.get(key, {})]
