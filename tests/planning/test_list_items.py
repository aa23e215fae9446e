"""Values a literal list in code gains are named, with the list, where that is all the change does."""

from __future__ import annotations

from tests.support.repo import Repo
from tests.support.titles import titled

IMPORTS = """ALLOWED_IMPORTS = set(['weakref', 'os'])

if WIN:
    ALLOWED_IMPORTS.update(['ctypes', 'msvcrt'])


def test_light_imports():
    assert ALLOWED_IMPORTS
"""
SPREAD = 'KEYWORDS = [\n    "async",\n    "await",\n]\n\n\ndef is_keyword(word):\n    return word in KEYWORDS\n'


def test_a_value_added_to_a_list_on_one_line_names_the_list(repo: Repo) -> None:
    facts, title = titled(repo, "tests/test_imports.py", IMPORTS, IMPORTS.replace("'msvcrt'])", "'msvcrt', 'zlib'])"))
    assert facts.list_items == [("ALLOWED_IMPORTS", ["zlib"])]
    assert title.endswith("add zlib to ALLOWED_IMPORTS"), title


def test_values_added_on_their_own_lines_inside_a_list(repo: Repo) -> None:
    facts, title = titled(
        repo, "src/words.py", SPREAD, SPREAD.replace('    "await",\n', '    "await",\n    "match",\n')
    )
    assert facts.list_items == [("KEYWORDS", ["match"])]
    assert title.endswith("add match to KEYWORDS"), title


def test_a_value_changed_or_a_call_edited_beside_it_is_no_value_added(repo: Repo) -> None:
    facts, _ = titled(repo, "tests/test_imports.py", IMPORTS, IMPORTS.replace("'msvcrt'", "'zlib'"))
    assert facts.list_items == []
    edited = IMPORTS.replace("'msvcrt'])", "'msvcrt', 'zlib'])").replace("assert ALLOWED", "assert not ALLOWED")
    facts, _ = titled(repo, "tests/test_imports.py", IMPORTS, edited)
    assert facts.list_items == []
