"""An import moved from a module's top into the code that needs it is titled as one made lazy."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.lazy_imports import lazy_imports
from tests.support.repo import Repo

AUTH = "import hashlib\nimport netrc\n\n\nclass NetRCAuth:\n    def __init__(self, file=None):\n        self.info = netrc.netrc(file)\n"
LAZY = AUTH.replace("import netrc\n", "").replace(
    "    def __init__(self, file=None):\n",
    "    def __init__(self, file=None):\n        # No need to load this module unless NetRCAuth is used.\n        import netrc\n\n",
)


def title(repo: Repo) -> str:
    cs = capture(Git.discover(repo.path))
    return offline_message([(c, c.hunks) for c in cs.changes]).title


def test_an_import_moved_into_the_function_using_it_is_made_lazy(repo: Repo) -> None:
    # httpx's "Lazily import 'netrc' module" was titled "Update NetRCAuth"
    repo.write("httpx/_auth.py", AUTH)
    repo.commit()
    repo.write("httpx/_auth.py", LAZY)
    assert title(repo) == "perf(httpx): lazily import netrc"


def test_an_import_for_the_type_checker_is_not_deferred() -> None:
    removed = ["import importlib.metadata"]
    typing_only = ["from typing import TYPE_CHECKING", "if TYPE_CHECKING:", "    import importlib.metadata"]
    assert lazy_imports([("pkg/_manager.py", typing_only, removed)]) == []
    inside = [*typing_only, "", "        import importlib.metadata"]  # pluggy 1.4.0: both
    assert lazy_imports([("pkg/_manager.py", inside, removed)]) == ["importlib.metadata"]


def test_a_change_doing_more_than_moving_imports_is_not_titled_by_them() -> None:
    removed = ["import netrc"]
    assert lazy_imports([("a.py", ["    import netrc", "    return netrc.netrc()"], removed)]) == []
    assert lazy_imports([("a.py", ["    import netrc"], removed), ("README.md", ["Lazy now."], [])]) == []
    assert lazy_imports([("a.py", ["    import netrc"], []), ("b.py", [], removed)]) == []  # another file's import
