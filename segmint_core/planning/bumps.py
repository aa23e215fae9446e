"""Version changes read off manifest, lock and CI files: dependency bumps and the project's own release.

A pin is a name, an operator and a version on one line (``pytest-cov>=4.1.0``,
``"left-pad": "^1.3.0"``, ``uses: actions/checkout@v4``, a go.mod require), or
several quoted in a list (``dev = ["tox", "ruff==0.1.8"]``); an action pinned
to a commit is versioned by its comment (``@4f3c5d7 # v10.6.0``), or by the
commit itself where the comment keeps the version it had.
Lock files name the package on an earlier line (``name = "x"`` then
``version = "1.2"``; ``"node_modules/x": {`` then ``"version": ...``; yarn's
``x@^1:`` then ``version "1.2"``; Pipfile.lock's ``"x": {`` then
``"version": "==1.2"``; composer.lock's ``"name": "x",``), so they are read
with that context. A ``version`` key in a dependency's own TOML table
(``[dependencies.clap]``) is that dependency's; with no package around it, the
project's own version. A hash a lock file pins (``"sha256:0f12..."``) is no
package's version.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from segmint_core.changes.kinds import is_ci_path, is_doc_path
from segmint_core.changes.models import Change, Hunk
from segmint_core.changes.tested_versions import LANGUAGES
from segmint_core.changes.versions import numbers
from segmint_core.planning.supported_versions import TOOLCHAINS

_PIN = re.compile(
    r"""^\s*(?:-\s*)?(?:uses:\s*)?["']?(?P<name>[@A-Za-z0-9_][\w.\-/\[\]@]*?)["']?\s*"""
    r"""(?:[=<>~!^]=?|@|:|\s(?=v?\d))\s*(?:\{\s*version\s*=\s*)?["']?[~^=<>v]*(?P<version>\d[\w.\-+*]*)"""
)
# A Go module's version, its ``v`` left out as dependabot words its bumps (``from 2.0.5 to 2.0.6``).
_GO_REQUIRE = re.compile(r"^\s*(?:require\s+)?(?P<name>[\w.\-]+\.[a-z]{2,}/[\w.\-/]+)\s+v(?P<version>\d[\w.\-+]*)")
_LOCK_NAME = re.compile(
    r"""^\s*(?:name\s*=\s*"(?P<toml>[^"]+)"|"node_modules/(?P<npm>[^"]+)":\s*\{"""
    r"""|"name":\s*"(?P<json>[^"]+)",?\s*$|"(?P<key>[^"/_][^"]*)":\s*\{\s*$"""
    r"""|"?(?P<yarn>@?[^@\s"]+)@[^:]*"?:\s*$)"""
)
_LOCK_VERSION = re.compile(r"""^\s*"?version"?\s*[=:]?\s*"(?:==)?(?P<version>[^"]+)"\s*,?\s*$""")
# Gemfile.lock's spec, its name and version on one line (``    rack (2.2.4)``); the deeper
# lines under it are what it requires (``      rack-test (>= 1.0)``).
_GEM_SPEC = re.compile(r"^ {4}(?P<name>[\w.\-]+) \((?P<version>\d[^)\s]*)\)\s*$")
# A file's hash pinned beside its version (Pipfile.lock's ``"sha256:0f12..."``): no version.
_DIGEST = re.compile(r"[0-9a-fA-F]{32,}")
# The project's own version: ``version``, ``__version__``, JavaScript's ``exports.version``.
_OWN_KEYS = {"version", "__version__", ".", "exports.version", "module.exports.version"}
# ``uses: owner/action@<commit> # v4.2.2``: an action pinned to a commit, its version in a comment.
_ACTION = re.compile(
    r"""^\s*(?:-\s*)?uses:\s*["']?(?P<name>[\w.\-]+/[\w.\-/]+)@(?P<ref>[\w.\-]+)["']?"""
    r"""(?:\s*#\s*v?(?P<version>\d[\w.\-+]*))?"""
)
_COMMIT = re.compile(r"[0-9a-f]{12,40}")
# A TOML table of one dependency (Cargo's ``[dependencies.clap]``, ``[target.'cfg(unix)'.dev-dependencies.nix]``):
# its ``version = "3.1"`` is that dependency's, not the project's. Any other table header ends it.
_TABLE = re.compile(r"""^\s*\[(?P<table>[^\[\]]+)\]\s*(?:#.*)?$""")
_DEPENDENCY_TABLE = re.compile(r"""(?:^|\.)(?:[\w]+-)?dependencies\.["']?(?P<name>[\w.\-]+?)["']?$""")
# A pre-commit hook: ``- repo: https://github.com/astral-sh/ruff-pre-commit`` then ``rev: v0.4.9``
# (``rev: <commit>  # frozen: v0.4.9`` where the config is frozen).
_HOOK_REPO = re.compile(r"""^\s*-?\s*repo:\s*["']?(?P<url>[^"'\s#]+)""")
_HOOK_REV = re.compile(r"""^\s*rev:\s*["']?(?P<ref>[\w.\-]+)["']?(?:\s*#\s*frozen:\s*v?(?P<version>\d[\w.\-+]*))?""")
# A Python requirement: its name, then its range (``>=2,<4``), the first version named.
_NAME = r"""(?P<name>[A-Za-z0-9][\w.\-]*(?:\[[\w,\-]+\])?)\s*"""
_OPERATOR = r"""(?:==|~=|>=|<=|!=|>|<)\s*"""
_RANGE = rf"""(?P<range>{_OPERATOR}(?P<version>\d[\w.\-+*]*)(?:\s*,{{sep}}\s*{_OPERATOR}\d[\w.\-+*]*)*)"""
# ``"ruff==0.1.8"`` inside a list: Python requirements quoted one after another.
_QUOTED_REQUIREMENT = re.compile(rf"""["']{_NAME}{_RANGE.format(sep="")}""")
# ``gitpython~=2.1`` on a line of its own (requirements.txt): the same, unquoted (``>=2.9.1<3`` too).
_BARE_REQUIREMENT = re.compile(rf"""^\s*{_NAME}{_RANGE.format(sep="?")}\s*(?:[;#]|$)""")
_OPERATORS = re.compile(r"[=<>~!]+")


@dataclass(frozen=True)
class Bump:
    name: str
    old: str
    new: str
    requirement: bool = False  # the range a manifest allows changed, not one version (``>=2,<4`` -> ``>=2,<5``)


# The keys naming a toolchain or language version (``requires-python``, mypy's ``python_version``):
# outside CI files no dependency is bumped by them (build 1.2.0 was titled "bump mypy and
# python_version"); in a CI file the same key is the Python a job runs on.
_TOOLCHAIN_KEYS = TOOLCHAINS | set(LANGUAGES)


def version_changes(parts: list[tuple[Change, list[Hunk]]], is_lock) -> tuple[list[Bump], Bump | None]:
    """The dependency bumps of the diff, and the project's own version change if any.
    Where a manifest bumps something, the lock file's other moves are what that bump
    pulled in (transitive dependencies) and are left out; so are they where the
    project's own version moves (a release regenerating its lock file)."""
    bumps: dict[str, Bump] = {}
    locked: set[str] = set()  # names only a lock file moved
    own: Bump | None = None
    for change, hunks in parts:
        lock = is_lock(change.file_path)
        found = _lock_bumps(hunks) if lock else _pin_bumps(hunks)
        if lock and not found:  # requirements.txt pins are a lock file of pins
            found = [b for b in _pin_bumps(hunks) if b.name.lower() not in _OWN_KEYS]
        for bump in found:
            key = bump.name.lower()
            if key in _TOOLCHAIN_KEYS and not is_ci_path(change.file_path):
                continue  # worded as the versions supported (``supported_versions``), if at all
            if key in _OWN_KEYS:
                # a docs page's example (``setup(version='0.1')``) is not the project's own version
                if not _set_back(bump) and not is_doc_path(change.file_path):
                    own = own or Bump("", bump.old, bump.new)
            elif key not in bumps:
                bumps[key] = bump
                if lock:
                    locked.add(key)
            elif not lock:
                bumps[key] = _installed(bump, bumps[key]) if key in locked else _from_oldest(bumps[key], bump)
                locked.discard(key)
            elif key not in locked:
                bumps[key] = _installed(bumps[key], bump)
    if len(locked) < len(bumps) or own is not None:  # a release's lock file moves with it, too
        bumps = {key: bump for key, bump in bumps.items() if key not in locked}
    return _mirrors_folded(_one_per_action(list(bumps.values()))), own


def _installed(manifest: Bump, lock: Bump) -> Bump:
    """The manifest's bump (its wording wins), from the version the lock file had installed where
    both reach the same one: fd's ``filetime = "0.2.1"`` to ``"0.2.14"`` moved the lock from
    0.2.13, and dependabot titles it ``from 0.2.13 to 0.2.14``."""
    same = not manifest.requirement and manifest.new.removeprefix("v") == lock.new.removeprefix("v")
    return replace(manifest, old=lock.old) if same and lock.old else manifest


def _from_oldest(seen: Bump, bump: Bump) -> Bump:
    """One package moved to one version in two places is bumped from the older version it
    leaves (httpx's ``actions/setup-python`` at ``v1`` in one workflow and ``v2`` in another,
    both to ``v3``: dependabot's ``from 1 to 3``); to two versions, the later place's wins."""
    if seen.new != bump.new or seen.requirement or bump.requirement:
        return bump
    return min((seen, bump), key=lambda b: numbers(b.old))


def _set_back(bump: Bump) -> bool:
    """``0.28.0`` -> ``0.27.2``: a version put back (a branch undoing an early bump) releases nothing."""
    old, new = numbers(bump.old), numbers(bump.new)
    return bool(old and new) and new < old


def _one_per_action(bumps: list[Bump]) -> list[Bump]:
    """``github/codeql-action/init`` and ``.../analyze`` moved to the same version: one bump
    of ``github/codeql-action``, as an action's sub-actions are released together, from the
    oldest version any of them leaves (dependabot's wording). A Go module
    (``github.com/spf13/cobra``: a domain first, where no GitHub owner has a dot) is named whole."""
    out: dict[tuple[str, str], Bump] = {}
    for b in bumps:
        parts = b.name.split("/")
        action = len(parts) > 2 and not b.name.startswith("@") and "." not in parts[0]
        name = "/".join(parts[:2]) if action else b.name
        key = (name.lower(), b.new)
        known = out.get(key)
        out[key] = replace(b if known is None else _from_oldest(known, b), name=name)
    return list(out.values())


def _mirrors_folded(bumps: list[Bump]) -> list[Bump]:
    """A tool's pre-commit hook raised with the tool to the same version (``pre-commit/mirrors-mypy``
    beside ``mypy``, ``astral-sh/ruff-pre-commit`` beside ``ruff``) is the tool's bump: the hook follows it."""
    tools = {(b.name.lower(), _pinned(b.new)) for b in bumps if "/" not in b.name}
    return [b for b in bumps if (_mirrored(b.name), _pinned(b.new)) not in tools]


def _pinned(version: str) -> str:
    """The version a pin or a tag names: ``==1.17.1`` and ``v1.17.1`` are ``1.17.1``."""
    return version.removeprefix("==").removeprefix("v")


def _mirrored(name: str) -> str | None:
    """The tool a pre-commit hook's repository mirrors, None for no hook's name."""
    if "/" not in name:
        return None
    repository = name.rsplit("/", 1)[-1].lower()
    tool = repository.removeprefix("mirrors-").removesuffix("-pre-commit")
    return tool if tool != repository else None


def _pin_bumps(hunks: list[Hunk]) -> list[Bump]:
    pins: dict[str, dict[str, tuple[str, str, str]]] = {"-": {}, "+": {}}
    commits: dict[str, dict[str, str]] = {"-": {}, "+": {}}  # an action's commit, for a comment that kept its version
    for hunk in hunks:
        hook = None  # the pre-commit hook repository the lines are under
        table = None  # the dependency whose TOML table the lines are in
        for line in hunk.lines:
            side = line[:1]
            repo = _HOOK_REPO.match(line[1:])
            if repo:
                hook = _hook_name(repo.group("url"))
            header = _TABLE.match(line[1:])
            if header:
                dependency = _DEPENDENCY_TABLE.search(header.group("table").strip())
                table = dependency.group("name") if dependency else None
            if side not in "+-":
                continue
            rev = _HOOK_REV.match(line[1:]) if hook else None
            if rev and hook:
                pins[side].setdefault(hook.lower(), (hook, _hook_version(rev), ""))
                continue
            for pin in _pins(line[1:]):
                if table and pin[0].lower() == "version":
                    pin = (table, *pin[1:])
                pins[side].setdefault(pin[0].lower(), pin)
            action = _ACTION.match(line[1:])
            if action and _COMMIT.fullmatch(action.group("ref")):
                commits[side].setdefault(action.group("name").lower(), action.group("ref")[:7])
    out = _versions_asked(hunks, pins)
    for key, (name, version, requirement) in pins["+"].items():
        if key not in pins["-"] or _DIGEST.fullmatch(version):
            continue
        _, was, was_required = pins["-"][key]
        was_at, now_at = commits["-"].get(key), commits["+"].get(key)
        if was != version and not _loosened(was_required, requirement):
            out.append(Bump(name, was, version))
        elif was_at and now_at and was_at != now_at:
            out.append(Bump(name, was_at, now_at))  # the same "# v3.29.5" on another commit
        elif was_required and requirement and was_required != requirement:  # a range, or a pin loosened
            out.append(Bump(name, was_required, requirement, requirement=True))
    return out


def listed_changes(parts: list[tuple[Change, list[Hunk]]]) -> tuple[list[str], list[str]]:
    """The dependencies the change adds to the files that list them and those it takes out: a
    name listed on one side only. A name moved between files is neither, nor is a name of a file
    added or deleted whole (``add size-labeler.yml`` says it)."""
    names: dict[str, dict[str, str]] = {"+": {}, "-": {}}  # side -> name in lower case -> name
    for change, hunks in parts:
        if change.status in ("added", "deleted"):
            continue
        side_names = {side: dict(_names_listed(change.file_path, hunks, side)) for side in "+-"}
        for side, other in (("+", "-"), ("-", "+")):
            for key, name in side_names[side].items():
                if key not in side_names[other]:
                    names[side].setdefault(key, name)
    moved = names["+"].keys() & names["-"].keys()
    return [n for k, n in names["+"].items() if k not in moved], [n for k, n in names["-"].items() if k not in moved]


def _names_listed(path: str, hunks: list[Hunk], side: str) -> Iterator[tuple[str, str]]:
    """(key, name) of each dependency ``side``'s lines list, where the file lists them line by line."""
    read = _listing_reader(path)
    if read is None:
        return
    for hunk in hunks:
        for line in hunk.lines:
            if line[:1] == side:
                yield from ((n.lower(), n) for n in read(line[1:]) if n.lower() not in _OWN_KEYS)


def _listing_reader(path: str) -> Callable[[str], list[str]] | None:
    """How a file that lists dependencies names one on a line: a requirements file
    (``markdown==3.3.7``, ``isort``), package.json (``"qs": "^6.14.0"``), go.mod, a Python
    manifest's quoted requirements (``"click>=8.0"``), a workflow's steps (``uses: actions/checkout@v4``);
    None for any other file."""
    name = path.rsplit("/", 1)[-1]
    if name.endswith((".txt", ".in")) and "requirements" in path.lower():
        return lambda text: (
            [m.group("name")] if (m := _BARE_REQUIREMENT.match(text)) else [n] if (n := _bare(text)) else []
        )
    if name == "package.json":
        return lambda text: [m.group("name")] if (m := _PIN.match(text)) and m.group("name") not in _ENGINES else []
    if name == "go.mod":
        return lambda text: [m.group("name")] if (m := _GO_REQUIRE.match(text)) else []
    if name in ("pyproject.toml", "setup.cfg", "setup.py"):
        return lambda text: [m.group("name") for m in _QUOTED_REQUIREMENT.finditer(text)]
    if is_ci_path(path) and name.endswith((".yml", ".yaml")):
        return lambda text: [m.group("name")] if (m := _ACTION.match(text)) else []  # a step's action
    return None


_ENGINES = {"node", "npm", "yarn", "pnpm"}  # package.json's ``engines``, versions of no dependency


def _versions_asked(hunks: list[Hunk], pins: dict[str, dict[str, tuple[str, str, str]]]) -> list[Bump]:
    """Requirements that had no version and now ask for one (``isort`` -> ``isort==5.*``), as a
    bump from nothing to the range; the lines are read for bare names only where a new pin is."""
    new = {key: pin for key, pin in pins["+"].items() if key not in pins["-"] and pin[2]}
    if not new:
        return []
    bare = {
        side: {n.lower() for hunk in hunks for line in hunk.lines if line[:1] == side and (n := _bare(line[1:]))}
        for side in "+-"
    }
    return [
        Bump(name, "", requirement, requirement=True)
        for key, (name, _, requirement) in new.items()
        if key in bare["-"] - bare["+"]
    ]


# A requirement with no version: ``isort`` on a line of its own, ``"regex",`` in a list.
_BARE = re.compile(r"""^\s*(?:-\s*)?["']?([A-Za-z0-9][\w.\-]*(?:\[[\w,\-]+\])?)["']?\s*,?\s*(?:#.*)?$""")


def _bare(text: str) -> str | None:
    found = _BARE.match(text)
    return found.group(1) if found else None


def _hook_name(url: str) -> str | None:
    """``https://github.com/astral-sh/ruff-pre-commit`` -> ``astral-sh/ruff-pre-commit``;
    None for the ``local`` and ``meta`` hooks, which have no version."""
    parts = [p for p in url.removesuffix(".git").split("/") if p]
    return "/".join(parts[-2:]) if len(parts) >= 2 else None


def _hook_version(rev: re.Match) -> str:
    ref = rev.group("ref")
    return rev.group("version") or (ref[:7] if _COMMIT.fullmatch(ref) else ref.lstrip("v"))


def _pins(text: str) -> list[tuple[str, str, str]]:
    """The (name, version, requirement) pins a manifest or workflow line states; the
    requirement is a Python one's whole range (``>=2,<4``), else empty."""
    action = _ACTION.match(text)
    if action:
        ref = action.group("ref")
        version = action.group("version") or (ref[:7] if _COMMIT.fullmatch(ref) else ref.lstrip("v"))
        return [(action.group("name"), version, "")]
    quoted = [
        (m.group("name"), m.group("version").rstrip(".,"), _range(m.group("range")))
        for m in _QUOTED_REQUIREMENT.finditer(text)
    ]
    if len(quoted) > 1:
        return quoted
    bare = _BARE_REQUIREMENT.match(text)
    if bare and not quoted:
        return [(bare.group("name"), bare.group("version").rstrip(".,"), _range(bare.group("range")))]
    m = _GO_REQUIRE.match(text) or _PIN.match(text)
    if not m:
        return quoted
    version = m.group("version").rstrip(".,")
    requirement = quoted[0][2] if quoted and quoted[0][0].lower() == m.group("name").strip("\"'").lower() else ""
    return [(m.group("name").strip("\"'"), version, requirement)]


def _loosened(was: str, now: str) -> bool:
    """``==2.1.10`` -> ``~=2.1``: the operators changed, so the range is what moved, not a version."""
    return bool(was and now) and _OPERATORS.findall(was) != _OPERATORS.findall(now)


def _range(text: str) -> str:
    return "".join(text.split()).rstrip(",")


def _lock_bumps(hunks: list[Hunk]) -> list[Bump]:
    old: dict[str, str] = {}
    new: dict[str, str] = {}
    names: dict[str, str] = {}
    for hunk in hunks:
        current: str | None = None
        for line in hunk.lines:
            text = line[1:]
            gem = _GEM_SPEC.match(text)
            if gem and line[:1] in "+-":
                names.setdefault(gem.group("name").lower(), gem.group("name"))
                (old if line[:1] == "-" else new).setdefault(gem.group("name").lower(), gem.group("version"))
                continue
            m = _LOCK_NAME.match(text)
            if m:
                current = m.group("toml") or m.group("npm") or m.group("json") or m.group("key") or m.group("yarn")
                if current and "node_modules/" in current:
                    current = current.rsplit("node_modules/", 1)[1]
                continue
            v = _LOCK_VERSION.match(text)
            if v and current and line[:1] in "+-":
                names.setdefault(current.lower(), current)
                (old if line[:1] == "-" else new).setdefault(current.lower(), v.group("version"))
    return [Bump(names[k], old[k], new[k]) for k in new if k in old and old[k] != new[k]]
