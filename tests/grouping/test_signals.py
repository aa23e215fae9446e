"""Each signal on small real change sets: what it links and why."""

from __future__ import annotations

import pytest

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import signals
from segmint_core.grouping.embeddings.local import LocalProvider
from segmint_core.grouping.model import DEFAULT
from segmint_core.grouping.signals.base import Context
from segmint_core.grouping.syntax import SyntaxIndex
from segmint_core.grouping.units import build_units
from segmint_core.trajectory.timeline import HunkHistory
from tests.support.repo import Repo


def links_of(repo: Repo, signal: str, *, timeline=None, vectors=False):
    units = build_units(capture(Git.discover(repo.path)).changes)
    embedded = None
    if vectors:
        embedded = LocalProvider().embed(["\n".join(u.lines) for u in units])
    ctx = Context(units, DEFAULT, timeline, embedded, LocalProvider.similarity_floor)
    found = {}
    for item in signals.SIGNALS[signal](ctx):
        key = (units[item.a].path, units[item.b].path, item.kind, item.detail)
        found[key] = found.get(key, 0.0) + item.weight
    return units, found


def test_a_changed_function_links_to_the_test_that_calls_it(repo: Repo) -> None:
    repo.write("src/auth.py", "def check_token(token):\n    return token == 'x'\n")
    repo.write("tests/test_auth.py", "from src.auth import check_token\n\n\ndef test_it():\n    pass\n")
    repo.commit()
    repo.write("src/auth.py", "def check_token(token, strict=False):\n    return token == 'x'\n")
    repo.write(
        "tests/test_auth.py",
        "from src.auth import check_token\n\n\ndef test_it():\n    check_token('x', strict=True)\n",
    )
    _, found = links_of(repo, "identifiers")
    assert ("src/auth.py", "tests/test_auth.py", "def_use", "check_token") in found


def test_tests_pair_with_their_source_file(repo: Repo) -> None:
    repo.write("pkg/server.go", "package pkg\n")
    repo.write("pkg/server_test.go", "package pkg\n")
    repo.commit()
    repo.write("pkg/server.go", "package pkg\n\nfunc Start() {}\n")
    repo.write("pkg/server_test.go", "package pkg\n\nfunc TestStart() {}\n")
    _, found = links_of(repo, "files")
    assert ("pkg/server.go", "pkg/server_test.go", "test_pair", "pkg/server.go") in found


def test_a_changelog_entry_links_to_the_code_it_names(repo: Repo) -> None:
    repo.write("CHANGES.md", "# Changes\n\n- Start.\n")
    repo.write("lib.py", "def other():\n    pass\n")
    repo.commit()
    repo.write("CHANGES.md", "# Changes\n\n- Start.\n- Add `custom_version_option`.\n")
    repo.write("lib.py", "def other():\n    pass\n\n\ndef custom_version_option():\n    return 1\n")
    _, found = links_of(repo, "docs")
    assert ("CHANGES.md", "lib.py", "mention", "custom_version_option") in found


def test_a_changelog_entry_s_link_address_names_no_code(repo: Repo) -> None:
    """pluggy's entries link their issue; its address named ``github`` and ``pluggy``, which tied the
    release's notes to every config line holding a GitHub address."""
    repo.write("CHANGELOG.rst", "Changelog\n=========\n\n")
    repo.write(".pre-commit-config.yaml", "repos: []\n")
    repo.commit()
    link = "`#178 <https://github.com/pytest-dev/pluggy/issues/178>`_"
    repo.write("CHANGELOG.rst", f"Changelog\n=========\n\n- {link}: Warn on ``impl_args``.\n")
    repo.write(".pre-commit-config.yaml", "repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n")
    units, found = links_of(repo, "identifiers")
    changelog = next(u for u in units if u.path == "CHANGELOG.rst")
    assert changelog.mentions == {"impl_args"}
    assert not [key for key in found if "CHANGELOG.rst" in key[:2]]


def test_the_same_substitution_in_several_files_is_one_edit(repo: Repo) -> None:
    for name in ("a.py", "b.py", "c.py"):
        repo.write(name, f"def f_{name[0]}():\n    return old_helper(1)\n")
    repo.commit()
    for name in ("a.py", "b.py", "c.py"):
        repo.write(name, f"def f_{name[0]}():\n    return new_helper(1)\n")
    _, found = links_of(repo, "repeated")
    repeated = [key for key in found if key[2] == "repeated" and key[3] == "old_helper -> new_helper"]
    assert len(repeated) >= 2  # chained: a-b, b-c (and a-c)


def test_moved_lines_link_the_two_places(repo: Repo) -> None:
    body = "def compute_total(items):\n    return sum(item.price for item in items)\n"
    repo.write("a.py", "import os\n\n" + body)
    repo.write("b.py", "import sys\n")
    repo.commit()
    repo.write("a.py", "import os\n")
    repo.write("b.py", "import sys\n\n" + body)
    _, found = links_of(repo, "repeated")
    assert any(k[:3] == ("a.py", "b.py", "moved") for k in found)


def test_hunks_of_one_burst_or_intent_link_and_separate_bursts_lean_apart(repo: Repo) -> None:
    repo.write("a.py", "a = 1\n")
    repo.write("b.py", "b = 1\n")
    repo.write("c.py", "c = 1\n")
    repo.commit()
    repo.write("a.py", "a = 2\n")
    repo.write("b.py", "b = 2\n")
    repo.write("c.py", "c = 2\n")
    timeline = {
        "change-1:1": HunkHistory("change-1:1", ("s1",), (0,), ("fix rounding",)),
        "change-2:1": HunkHistory("change-2:1", ("s2",), (0,), ("fix rounding",)),
        "change-3:1": HunkHistory("change-3:1", ("s3",), (1,), ()),
    }
    _, found = links_of(repo, "timeline", timeline=timeline)
    assert found[("a.py", "b.py", "same_intent", "fix rounding")] == 1.0
    assert found[("a.py", "b.py", "same_burst", "0")] == 1.0
    assert ("a.py", "c.py", "different_burst", "") in found


def test_similar_text_links_nearest_neighbours(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.write("b.py", "y = 1\n")
    repo.write("c.md", "Nothing\n")
    repo.commit()
    repo.write("a.py", "retry_budget = compute_retry_budget(retry_limit)\n")
    repo.write("b.py", "retry_budget = compute_retry_budget(retry_limit) + 1\n")
    repo.write("c.md", "Install it with pip.\n")
    _, found = links_of(repo, "similarity", vectors=True)
    weights = {(a, b): w for (a, b, kind, _), w in found.items()}
    assert weights[("a.py", "b.py")] > weights.get(("a.py", "c.md"), 0.0)


def test_a_test_edit_links_to_the_source_edit_its_test_function_calls(repo: Repo) -> None:
    repo.write("shop/price.py", "def parse_price(text):\n    return float(text)\n")
    repo.write(
        "tests/test_price.py",
        "from shop.price import parse_price\n\n\ndef test_price():\n"
        "    value = parse_price('1.00')\n    assert value == 1\n",
    )
    repo.commit()
    repo.write("shop/price.py", "def parse_price(text):\n    return round(float(text), 2)\n")
    repo.write(
        "tests/test_price.py",
        "from shop.price import parse_price\n\n\ndef test_price():\n"
        "    value = parse_price('1.00')\n    assert value == 1.0\n",
    )
    git = Git.discover(repo.path)
    changes = capture(git).changes
    units = build_units(changes, (), SyntaxIndex(changes, git))
    found = {
        (units[x.a].path, units[x.b].path, x.kind, x.detail)
        for x in signals.SIGNALS["exercises"](Context(units, DEFAULT))
    }
    assert found == {("shop/price.py", "tests/test_price.py", "exercises", "parse_price")}
    # Read as text alone, the changed assertion names nothing the source edit changes.
    plain = build_units(changes, ())
    assert not list(signals.SIGNALS["exercises"](Context(plain, DEFAULT)))


def test_a_file_name_that_a_crowd_of_files_share_links_them_only_within_a_folder(repo: Repo) -> None:
    # 40 packages' manifests bumped at once: pairing them all is 780 pairs of little meaning.
    for n in range(40):
        repo.write(f"packages/p{n}/utils.js", "module.exports = 1\n")
        repo.write(f"packages/p{n}/utils.test.js", "test('x', () => {})\n")
    repo.commit()
    for n in range(40):
        repo.write(f"packages/p{n}/utils.js", "module.exports = 2\n")
        repo.write(f"packages/p{n}/utils.test.js", "test('y', () => {})\n")
    _, found = links_of(repo, "files")
    stem_pairs = [(a, b) for a, b, kind, _ in found if kind in ("same_stem", "test_pair")]
    assert sorted(stem_pairs) == sorted((f"packages/p{n}/utils.js", f"packages/p{n}/utils.test.js") for n in range(40))


def test_reasons_ask_whether_a_unit_changes_a_name_without_building_its_names(repo, monkeypatch) -> None:
    """A unit of a large file defines thousands of names, each a def-use detail: the reasons
    of its group asked ``changes_names`` (a fresh set of them all) once per detail."""
    from segmint_core.grouping import reasons
    from segmint_core.grouping.units import Unit

    repo.write("lib.js", "".join(f"function step{i}(a) {{ return a; }}\n" for i in range(300)))
    repo.write("main.js", "run();\n")
    repo.commit()
    repo.write("lib.js", "".join(f"function step{i}(a) {{ return a + 1; }}\n" for i in range(300)))
    repo.write("main.js", "".join(f"step{i}(1);\n" for i in range(300)))
    units, _ = links_of(repo, "identifiers")
    for unit in units:
        assert all(unit.changes_name(n) == (n in unit.changes_names) for n in ("step7", "step299", "run", "", "a"))
    assert any(u.changes_name("step7") for u in units)
    ctx = Context(units, DEFAULT)
    found = list(signals.SIGNALS["identifiers"](ctx))
    monkeypatch.setattr(Unit, "changes_names", property(lambda self: pytest.fail("changes_names built")))
    written = reasons.group_reasons(units, found, {u.index for u in units}, DEFAULT)
    assert "`step100` is changed in lib.js and used in main.js" in written
