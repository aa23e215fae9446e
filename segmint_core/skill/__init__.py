"""The Segmint skill: a ``SKILL.md`` (the Agent Skills format Claude Code and other agents load)
shipped in the package, and writing it where an agent looks for skills.

A skill is a folder named after it holding ``SKILL.md``: YAML front matter
(``name``, ``description``: what it does and when to use it), then instructions.
Claude Code reads personal skills from ``~/.claude/skills/<name>/`` and a
project's from ``.claude/skills/<name>/``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from segmint_core.atomic import write_atomic
from segmint_core.errors import SegmintError, disk_trouble, os_trouble

NAME = "segmint"
FILE = "SKILL.md"


def skill_text() -> str:
    """The shipped SKILL.md."""
    return resources.files(__name__).joinpath(FILE).read_text(encoding="utf-8")


def default_skills_dir() -> Path:
    """The user's Claude Code skills folder."""
    return Path(os.path.expanduser("~")) / ".claude" / "skills"


@dataclass(frozen=True)
class Installed:
    path: Path
    replaced: bool  # a different SKILL.md was there and --force replaced it
    unchanged: bool  # the same SKILL.md was already there


def install(skills_dir: Path | None = None, *, force: bool = False) -> Installed:
    """Write SKILL.md into ``skills_dir/segmint/`` (the folder itself when it is named segmint).

    Refuses to replace a different SKILL.md unless ``force``; the same one is left as it is.
    """
    target = skill_path(skills_dir)
    try:
        return _install(target, force)
    except OSError as exc:  # a folder that cannot be made there, a name too long, ...
        if disk_trouble(exc):
            raise
        raise SegmintError(f"Cannot write {target}: {os_trouble(exc)}") from exc


def _install(target: Path, force: bool) -> Installed:
    text = skill_text()
    existing = _read_existing(target)
    if existing == text:
        return Installed(target, replaced=False, unchanged=True)
    if existing is not None and not force:
        raise SegmintError(f"{target} already exists and differs from this version's skill; --force replaces it")
    try:
        write_atomic(target, text.encode("utf-8"))
        target.chmod(0o644)
    except (NotADirectoryError, FileExistsError) as exc:
        raise SegmintError(f"Cannot write {target}: {_in_the_way(target)}") from exc
    except PermissionError as exc:
        raise SegmintError(f"Cannot write {target}: permission denied ({exc.filename or target})") from exc
    return Installed(target, replaced=existing is not None, unchanged=False)


def skill_path(skills_dir: Path | None = None) -> Path:
    folder = Path(os.path.expanduser(str(skills_dir))) if skills_dir is not None else default_skills_dir()
    if folder.name != NAME:
        folder = folder / NAME
    return folder / FILE


def _read_existing(target: Path) -> str | None:
    if target.is_dir():
        raise SegmintError(f"Cannot write {target}: it is a folder")
    try:
        return target.read_text(encoding="utf-8", errors="replace")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except PermissionError as exc:
        raise SegmintError(f"Cannot read {target}: permission denied") from exc


def _in_the_way(target: Path) -> str:
    """What stands where a folder of ``target`` should be: the nearest parent that is there and is not
    a folder (a file, or a link to nothing)."""
    for parent in target.parents:
        if parent.is_dir():
            break
        if parent.is_symlink() and not parent.exists():
            return f"{parent} is a link to {os.readlink(parent)}, which does not exist"
        if parent.exists():
            return f"{parent} is a file, not a folder"
    return f"{target.parent} is a file, not a folder"
