"""Where an agent's tools may read and write: the session's repository, and the folders a person allowed.

``load_diff`` (and the chunk tools that load a diff file) and
``configure_project`` take a path from the agent. Without a fence they would
read any diff-shaped file the user can read, or write ``.trajectory/`` and a
an ``info/exclude`` line into any repository on the machine and then serve its files.
Paths are compared after symlinks are resolved, so a symlinked folder inside
the repository leads nowhere else. A person widens the fence explicitly with
``--allow-root FOLDER`` (``segmint`` and ``segmint mcp``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from segmint_core.errors import SegmintError

HOW_TO_ALLOW = "(start segmint or segmint mcp with --allow-root FOLDER to allow another folder)"


class OutsideAllowedRootsError(SegmintError):
    """A path outside the repository and every folder a person allowed."""


@dataclass(frozen=True)
class AllowedRoots:
    """The session's repository (found when first needed: it may not exist yet) and the allowed folders."""

    repository: Callable[[], str | None]
    others: tuple[str, ...] = ()

    def check(self, given: str) -> str:
        """The real path of ``given``, or ``OutsideAllowedRootsError`` if it is outside every root."""
        real = os.path.realpath(given)
        repository = self.repository()
        roots = ([os.path.realpath(repository)] if repository else []) + list(self.others)
        if any(_inside(real, root) for root in roots):
            return real
        raise OutsideAllowedRootsError(_refusal(given, real, repository, self.others))


def allowed_folders(paths: Iterable[str]) -> tuple[str, ...]:
    """The real paths of the folders given with ``--allow-root``; each must exist."""
    folders = []
    for path in paths:
        real = os.path.realpath(os.path.expanduser(path))
        if not os.path.isdir(real):
            raise SegmintError(f"--allow-root {path} is not a folder.")
        folders.append(real)
    return tuple(dict.fromkeys(folders))


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _refusal(given: str, real: str, repository: str | None, others: tuple[str, ...]) -> str:
    where = given if os.path.abspath(given) == real else f"{given} (which resolves to {real})"
    if repository is None and not others:
        return f"{where} is outside every folder Segmint's tools may use: there is no repository here {HOW_TO_ALLOW}."
    places = [f"the repository {os.path.realpath(repository)}"] if repository else []
    if others:
        noun = "folder" if len(others) == 1 else "folders"
        places.append(f"the allowed {noun} {', '.join(others)}")
    only = "the only folder" if bool(repository) + len(others) == 1 else "the only folders"
    return f"{where} is outside {' and '.join(places)}, {only} Segmint's tools read and write {HOW_TO_ALLOW}."
