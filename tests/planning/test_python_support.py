"""The Python versions a project supports, changed, name the change."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.python_support import support_change
from tests.support.repo import Repo

SETUP = 'setup(\n    name="starlette",\n    python_requires=">=3.6",\n    version="0.19.1",\n)\n'
MATRIX = 'jobs:\n  test:\n    strategy:\n      matrix:\n        python-version: ["3.6", "3.7", "3.8"]\n'


def test_the_lowest_python_raised_by_one_drops_its_support(repo: Repo) -> None:
    repo.write("setup.py", SETUP)
    repo.write(".github/workflows/test.yml", MATRIX)
    repo.commit()
    repo.write("setup.py", SETUP.replace(">=3.6", ">=3.7"))
    repo.write(".github/workflows/test.yml", MATRIX.replace('"3.6", ', ""))
    parts = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    assert offline_message(parts).title.endswith("drop Python 3.6 support")


def test_classifiers_and_requires_read_each_way() -> None:
    assert support_change(['requires-python = ">=3.9"'], ['requires-python = ">=3.7"']) == "require Python 3.9"
    assert support_change(['python_requires=">=3.7"'], ['python_requires=">=3.8"']) == "support Python 3.7"
    added = ['    "Programming Language :: Python :: 3.12",']
    assert support_change(added, []) == "add Python 3.12 support"
    assert support_change([], added) == "drop Python 3.12 support"
    several = [f"Programming Language :: Python :: {v}" for v in ("2.7", "3.5", "3.6")]
    assert support_change([], several) == "drop Python 2.7, 3.5 and 3.6 support"  # not "2.7 and 3.5 and 3.6"
    assert support_change(['version="2.0"'], ['version="1.0"']) is None
