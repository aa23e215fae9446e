"""The toolchain versions a project supports, changed: ``drop Python 3.6 support``, ``bump MSRV to 1.53``.

Python's are read from the lowest version ``python_requires``/``requires-python``
allows and from the ``Programming Language :: Python :: X.Y`` classifiers the
change adds or removes; Rust's minimum (MSRV) from ``rust-version`` in
``Cargo.toml``, ``msrv`` in ``clippy.toml`` and a CI variable naming it
(``MIN_SUPPORTED_RUST_VERSION``, ``MSRV``); Go's from ``go.mod``'s ``go``
line; Node's from ``engines.node`` (``">= 18"``). Each worded as engineers
title such a change (fd writes "Bump MSRV to 1.53" and "Update MSRV to ...").
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from segmint_core.changes.kinds import is_ci_path
from segmint_core.changes.versions import numbers
from segmint_core.wording import series

# The keys that state a toolchain's lowest version, each as the projects write it.
_PYTHON_KEYS = ("python_requires", "requires-python", "Requires-Python")
_RUST_KEYS = ("rust-version", "msrv", "MIN_SUPPORTED_RUST_VERSION", "RUST_MIN_VERSION", "MSRV", "RUST_MSRV")
_REQUIRES = re.compile(rf"""(?:{"|".join(_PYTHON_KEYS)})\s*[=:]\s*["']?\s*>=\s*(\d+)\.(\d+)""")
_CLASSIFIER = re.compile(r"Programming Language :: Python :: (\d+\.\d+)\b")
# What the version readers take for a dependency when a toolchain's minimum is raised (``go 1.14``).
TOOLCHAINS = {key.lower() for key in (*_PYTHON_KEYS, *_RUST_KEYS)} | {"python", "go", "node"}
# The lowest toolchain a line requires, by the name it goes by in a title, and the files that say
# it (a lock file's ``"node": ">=0.6"`` is a dependency's own engine, not the project's).
_MINIMUMS = {
    "MSRV": (
        re.compile(rf"""^\s*(?:{"|".join(_RUST_KEYS)})\s*[=:]\s*["']?(\d+\.\d+(?:\.\d+)?)["']?\s*(?:#.*)?$"""),
        lambda path: PurePosixPath(path).name in ("Cargo.toml", "clippy.toml", ".clippy.toml") or is_ci_path(path),
    ),
    "Go": (re.compile(r"^go\s+(\d+\.\d+(?:\.\d+)?)\s*$"), lambda path: PurePosixPath(path).name == "go.mod"),
    "Node.js": (
        re.compile(r"""^\s*"node"\s*:\s*"\s*>=?\s*v?(\d+(?:\.\d+){0,2})\s*"\s*,?\s*$"""),
        lambda path: PurePosixPath(path).name == "package.json",
    ),
}
# A file's lines a change adds and removes.
FileLines = tuple[str, list[str], list[str]]


def support_change(files: list[FileLines]) -> str | None:
    """``drop Python 3.6 support``, ``require Python 3.9``, ``add Python 3.12 support``,
    ``bump MSRV to 1.53``, ``require Go 1.14``, or None, from each file's (path, added, removed) lines."""
    added = [line for _, plus, _ in files for line in plus]
    removed = [line for _, _, minus in files for line in minus]
    return _python(added, removed) or next((found for name in _MINIMUMS if (found := _minimum(name, files))), None)


def _python(added: list[str], removed: list[str]) -> str | None:
    old = [(int(m.group(1)), int(m.group(2))) for line in removed if (m := _REQUIRES.search(line))]
    new = [(int(m.group(1)), int(m.group(2))) for line in added if (m := _REQUIRES.search(line))]
    if old and new and old[0] != new[0]:
        (om, on), (nm, nn) = old[0], new[0]
        if (nm, nn) < (om, on):
            return f"support Python {nm}.{nn}"
        return f"drop Python {om}.{on} support" if (nm, nn) == (om, on + 1) else f"require Python {nm}.{nn}"
    before = {m.group(1) for line in removed if (m := _CLASSIFIER.search(line))}
    after = {m.group(1) for line in added if (m := _CLASSIFIER.search(line))}
    gone, came = sorted(before - after, key=numbers), sorted(after - before, key=numbers)
    if gone and not came:
        return f"drop Python {series(gone)} support"
    if came and not gone:
        return f"add Python {series(came)} support"
    return None


def _minimum(name: str, files: list[FileLines]) -> str | None:
    """The lowest version of ``name`` raised or lowered, where every line naming it agrees on both sides."""
    pattern, says = _MINIMUMS[name]
    read = [(plus, minus) for path, plus, minus in files if says(path)]
    old = _agreed([m.group(1) for _, minus in read for line in minus if (m := pattern.match(line))])
    new = _agreed([m.group(1) for plus, _ in read for line in plus if (m := pattern.match(line))])
    if old is None or new is None or _ordered(old) == _ordered(new):
        return None
    raised = _ordered(new) > _ordered(old)
    if name == "MSRV":
        return f"{'bump' if raised else 'lower'} MSRV to {new}"
    return f"require {name} {new}" if raised else f"support {name} {new}"


def _agreed(versions: list[str]) -> str | None:
    """The one version every spelling names (``1.53`` for ``1.53`` and ``1.53.0``), its shortest; None
    where there is none or they differ."""
    if not versions or len(set(map(_ordered, versions))) != 1:
        return None
    return min(versions, key=len)


def _ordered(version: str) -> tuple[int, ...]:
    """A version's numbers without trailing zeros: ``1.53.0`` and ``1.53`` are one version."""
    parts = numbers(version)
    while len(parts) > 1 and parts[-1] == 0:
        parts = parts[:-1]
    return parts
