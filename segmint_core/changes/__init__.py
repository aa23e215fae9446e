"""The change model: a repository's uncommitted edits as Change and Hunk objects.

``parse_diff`` and ``build_patch`` load on first use (PEP 562), so that
``segmint changes`` starts git before it imports the parser: see ``capture``.
"""

from importlib import import_module

from segmint_core.changes.capture import ChangeSet, capture, merge_patches
from segmint_core.changes.models import Change, FilePatch, Hunk

_LAZY = {"parse_diff": "parser", "build_patch": "patch"}

__all__ = [
    "Change",
    "ChangeSet",
    "FilePatch",
    "Hunk",
    "build_patch",
    "capture",
    "merge_patches",
    "parse_diff",
]


def __getattr__(name: str):
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'segmint_core.changes' has no attribute {name!r}")
    value = getattr(import_module(f"segmint_core.changes.{home}"), name)
    globals()[name] = value
    return value
