"""A change that only adds, removes or edits ``# type: ignore``-like comments is titled by them."""

from __future__ import annotations

from segmint_core.planning.pragmas import read_edit
from tests.support.repo import Repo
from tests.support.titles import edited

CONFIG = "def load(self):\n    self.verify = bundle\n    return self.verify\n"
MODELS = "def get(self, key):\n    if key in self.jar:\n        return self.jar[key]\n"


def test_type_ignores_removed_from_two_files_are_named(repo: Repo) -> None:
    files = {
        "httpx/_config.py": (CONFIG.replace("= bundle", "= bundle  # type: ignore"), CONFIG),
        "httpx/_models.py": (MODELS.replace("self.jar:", "self.jar:  # type: ignore[misc]"), MODELS),
    }
    facts, title = edited(repo, files)
    assert facts.pragmas is not None and facts.pragmas.removed == ["type: ignore"] and not facts.pragmas.added
    assert title.endswith("remove type: ignore from _config.py and _models.py")


def test_a_noqa_added_is_named_and_a_code_edit_beside_it_is_not_hidden(repo: Repo) -> None:
    line = "from app.models import *\n"
    _, title = edited(repo, {"app/__init__.py": (line, line.rstrip() + "  # noqa: F401,F403\n")})
    assert title.endswith("add noqa to __init__.py")
    facts, title = edited(repo, {"app/load.py": (CONFIG, CONFIG.replace("= bundle", "= other  # type: ignore"))})
    assert facts.pragmas is None and "type: ignore" not in title


def test_an_ignore_code_changed_is_an_update_and_go_and_typescript_directives_are_read() -> None:
    edit = read_edit(["    x = y  # type: ignore[assignment]"], ["    x = y  # type: ignore[misc]"])
    assert edit is not None and edit.added == edit.removed == ["type: ignore"]
    assert read_edit(["\treturn f() //nolint:errcheck"], ["\treturn f()"]).added == ["nolint"]
    assert read_edit(["// @ts-ignore", "foo(bar)"], ["foo(bar)"]).added == ["@ts-ignore"]
    assert read_edit(["x = 1"], ["x = 2"]) is None
