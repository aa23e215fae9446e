"""A package's __init__.py that only gains names its modules define exports them."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from tests.support.repo import Repo

INIT = "from .utils import echo, \\\n     format_filename\n\n__all__ = [\n    'echo', 'format_filename',\n]\n"


def _title(repo: Repo, path: str, before: str, after: str) -> str:
    repo.write(path, before)
    repo.commit()
    repo.write(path, after)
    return offline_message([(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]).title


def test_a_name_imported_and_listed_in_all_is_exported(repo: Repo) -> None:
    after = INIT.replace("format_filename\n", "format_filename, get_app_dir\n").replace(
        "'format_filename',\n", "'format_filename',\n    'get_app_dir',\n"
    )
    assert _title(repo, "click/__init__.py", INIT, after).endswith("export get_app_dir")


def test_a_name_swapped_or_a_module_other_than_init_is_not_exported(repo: Repo) -> None:
    swapped = INIT.replace("format_filename", "get_app_dir")
    assert "export" not in _title(repo, "click/__init__.py", INIT, swapped)
    grown = INIT.replace("format_filename\n", "format_filename, get_app_dir\n")
    assert "export" not in _title(repo, "click/api.py", INIT, grown)


def test_names_added_inside_a_function_of_init_are_its_code_not_exports(repo: Repo) -> None:
    """black's ``src/black/__init__.py`` naming a value in a function was ``Export before_lpar.type, ...``."""
    before = "def whitespace(LL):\n    if is_valid(LL):\n        return LL[2].type\n"
    after = "def whitespace(LL):\n    if is_valid(LL):\n        before_lpar = LL[2]\n        return before_lpar.type\n"
    assert "xport" not in _title(repo, "src/black/__init__.py", before, after)
