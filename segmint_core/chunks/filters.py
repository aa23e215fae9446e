"""Which file sections go into chunks: glob patterns, generated files, whitespace-only changes.

Globs are ``fnmatch`` patterns matched against the whole path, case-insensitively
(``*`` also crosses ``/``, so ``*.py`` finds Python files at any depth). A
section matches when its path, or its old path when renamed, does; a path that
is not UTF-8 also matches as the tools show it, its odd bytes as ``\\xNN``.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase

from segmint_core.changes.generated import is_generated  # one place decides what is generated
from segmint_core.changes.models import COPIED, RENAMED, wire_text
from segmint_core.chunks.models import EXCLUDED, GENERATED, TRIVIAL, FileSection, LoadOptions, hunk_body

# -- globs -----------------------------------------------------------------------


def split_patterns(patterns: str | None) -> tuple[str, ...]:
    """``"*.py, docs/*"`` -> ``("*.py", "docs/*")``; None or blanks -> ``()``."""
    if not patterns:
        return ()
    return tuple(p.strip() for p in patterns.split(",") if p.strip())


def glob_matches(path: str, pattern: str) -> bool:
    """A name that is not UTF-8 matches as it is shown too (``caf\\xe9.txt``)."""
    pattern = pattern.lower()
    if fnmatchcase(path.lower(), pattern):
        return True
    shown = wire_text(path)
    return shown is not path and fnmatchcase(shown.lower(), pattern)


def matches_any(section: FileSection, patterns: tuple[str, ...]) -> bool:
    return any(glob_matches(path, p) for path in section.paths for p in patterns)


def is_excluded(section: FileSection, options: LoadOptions) -> bool:
    if options.exclude_patterns and matches_any(section, options.exclude_patterns):
        return True
    return bool(options.include_patterns) and not matches_any(section, options.include_patterns)


# -- whitespace-only changes -----------------------------------------------------

# A +/- line with a visible character: any hunk without one changes only blank lines.
_VISIBLE_CHANGE = re.compile(r"^[-+][ \t\r\f\v]*\S.*", re.MULTILINE)
_VISIBLE_REMOVED = re.compile(r"^-[ \t\r\f\v]*\S.*", re.MULTILINE)
_VISIBLE_ADDED = re.compile(r"^\+[ \t\r\f\v]*\S.*", re.MULTILINE)
_REMOVED = re.compile(r"^-(.*)", re.MULTILINE)
_ADDED = re.compile(r"^\+(.*)", re.MULTILINE)


def is_whitespace_only(section: FileSection) -> bool:
    """Whether every hunk of ``section`` changes whitespace only (indentation,
    trailing blanks, blank lines): its removed and added lines are equal once
    all whitespace is dropped. A rename, a copy, a mode change or a binary
    change is never trivial, so a section without hunks is not either."""
    if not section.hunks or section.binary or section.status in (RENAMED, COPIED):
        return False
    if section.old_mode and section.new_mode and section.old_mode != section.new_mode:
        return False
    return all(_hunk_whitespace_only(h.old_lines, h.new_lines, hunk_body(h)) for h in section.hunks)


def _hunk_whitespace_only(old_lines: int, new_lines: int, body: str | None) -> bool:
    if body is None:
        return True
    first = _VISIBLE_CHANGE.search(body)
    if first is None:
        return True
    if old_lines == 0 or new_lines == 0:
        return False  # a pure insertion or deletion with visible text
    # Both sides' visible text must be equal, so their first visible lines must
    # agree as far as the shorter goes: a cheap test that rejects nearly every
    # real change before the whole hunk is compared.
    other = (_VISIBLE_ADDED if first.group()[0] == "-" else _VISIBLE_REMOVED).search(body)
    if other is None:
        return False
    a, b = _visible(first.group()[1:]), _visible(other.group()[1:])
    shorter = min(len(a), len(b))
    if a[:shorter] != b[:shorter]:
        return False
    return _visible("".join(_REMOVED.findall(body))) == _visible("".join(_ADDED.findall(body)))


def _visible(text: str) -> str:
    return "".join(text.split())


# -- all together ----------------------------------------------------------------


def skip_reason(section: FileSection, options: LoadOptions) -> str | None:
    """Why ``section`` stays out of the chunks, or None. Cheapest tests first."""
    if is_excluded(section, options):
        return EXCLUDED
    if options.skip_generated and is_generated(section.path):
        return GENERATED
    if options.skip_trivial and is_whitespace_only(section):
        return TRIVIAL
    return None
