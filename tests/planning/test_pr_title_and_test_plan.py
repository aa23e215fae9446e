"""The pull request is named for its work, and its test plan says how this project runs its tests.

Each manifest kind on a real temporary repository: the command is read from the
project's own files, and the tests the change adds are named in words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from segmint_core.pr import DraftCommit, draft_pr, project_commands
from segmint_core.pr.draft import _joined
from segmint_core.session.session import Session
from tests.grouping.test_provenance_grouping import ask, edit, project
from tests.support.cli import run_segmint
from tests.support.repo import Repo

PY_TEST = "def test_an_empty_cart_costs_nothing():\n    assert True\n"


def planned_tests(repo: Repo) -> list[str]:
    session = Session.open(str(repo.path))
    session.propose_commits()
    return session.generate_pr().description.split("## Test plan\n\n", 1)[1].splitlines()


MANIFESTS = {
    "pytest in pyproject.toml": (
        {"pyproject.toml": '[project]\nname = "shop"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'},
        "- [ ] `pytest` passes (pyproject.toml)",
    ),
    "a hatch script": (
        {"pyproject.toml": '[project]\nname = "shop"\n\n[tool.hatch.envs.default.scripts]\ntest = "pytest {args}"\n'},
        "- [ ] `hatch run test` passes (pyproject.toml)",
    ),
    "a pdm script": (
        {"pyproject.toml": '[project]\nname = "shop"\n\n[tool.pdm.scripts]\ntest = "pytest"\n'},
        "- [ ] `pdm run test` passes (pyproject.toml)",
    ),
    "pytest among the test extras": (
        {"pyproject.toml": '[project]\nname = "shop"\n\n[project.optional-dependencies]\ntest = ["pytest>=8"]\n'},
        "- [ ] `pytest` passes (pyproject.toml)",
    ),
    "setup.cfg": (
        {"setup.cfg": "[metadata]\nname = shop\n\n[tool:pytest]\ntestpaths = tests\n"},
        "- [ ] `pytest` passes (setup.cfg)",
    ),
    "tox.ini and setup.cfg": (
        {"tox.ini": "[tox]\nenvlist = py311\n\n[testenv]\ncommands = pytest\n", "setup.cfg": "[tool:pytest]\n"},
        "- [ ] `tox` passes (tox.ini), or `pytest` (setup.cfg)",
    ),
    "tox.ini running pytest": (  # pluggy's: both read from tox.ini, which is named once
        {
            "tox.ini": "[tox]\nenvlist = py311\n\n[testenv]\ncommands = pytest {posargs}\n\n[pytest]\nxfail_strict = true\n"
        },
        "- [ ] `tox` passes, or `pytest` (tox.ini)",
    ),
    "a noxfile": (
        {"noxfile.py": "import nox\n\n\n@nox.session\ndef tests(session):\n    session.run('pytest')\n"},
        "- [ ] `nox -s tests` passes (noxfile.py)",
    ),
    "a Makefile": (
        {"Makefile": "VENV := .venv\n\nlint:\n\truff check .\n\ntest: lint\n\tpytest -q\n"},
        "- [ ] `make test` passes (Makefile)",
    ),
}


@pytest.mark.parametrize("kind", list(MANIFESTS))
def test_a_python_project_s_own_test_command_and_its_new_test_by_name(repo: Repo, kind: str) -> None:
    files, command = MANIFESTS[kind]
    for path, text in files.items():
        repo.write(path, text)
    repo.write("shop/cart.py", "def total(items):\n    return sum(items)\n")
    repo.write("tests/test_cart.py", "from shop.cart import total\n")
    repo.commit()
    repo.write("tests/test_cart.py", "from shop.cart import total\n\n\n" + PY_TEST)
    assert planned_tests(repo) == [command, "- [ ] New test: an empty cart costs nothing (`tests/test_cart.py`)"]


def test_a_node_project_runs_its_test_script_with_its_package_manager(repo: Repo) -> None:
    repo.write("package.json", '{"name": "cart", "scripts": {"lint": "eslint .", "test": "mocha"}}\n')
    repo.write("test/cart.test.js", "const total = require('../cart')\n")
    repo.commit()
    repo.write(
        "test/cart.test.js",
        "const total = require('../cart')\n\nit('rejects a negative quantity', () => {\n  total([-1])\n})\n",
    )
    assert planned_tests(repo) == [
        "- [ ] `npm test` passes (package.json)",
        "- [ ] New test: rejects a negative quantity (`test/cart.test.js`)",
    ]
    repo.write("yarn.lock", "# yarn lockfile v1\n")
    assert planned_tests(repo)[0] == "- [ ] `yarn test` passes (package.json)"


def test_npm_s_placeholder_test_script_is_no_test_command(repo: Repo) -> None:
    repo.write("package.json", '{"scripts": {"test": "echo \\"Error: no test specified\\" && exit 1"}}\n')
    assert project_commands(repo.path) == []


def test_a_rust_crate_runs_cargo_test_and_names_the_new_test(repo: Repo) -> None:
    repo.write("Cargo.toml", '[package]\nname = "cart"\nversion = "0.1.0"\n')
    repo.write("tests/cart.rs", "use cart::total;\n")
    repo.commit()
    repo.write("tests/cart.rs", "use cart::total;\n\n#[test]\nfn empty_cart_costs_nothing() {\n    total(&[]);\n}\n")
    assert planned_tests(repo) == [
        "- [ ] `cargo test` passes (Cargo.toml)",
        "- [ ] New test: empty cart costs nothing (`tests/cart.rs`)",
    ]
    repo.write("Cargo.toml", '[workspace]\nmembers = ["cart"]\n')
    assert [c.run for c in project_commands(repo.path)] == ["cargo test --workspace"]


def test_a_go_module_runs_go_test_over_all_its_packages(repo: Repo) -> None:
    repo.write("go.mod", "module example.com/cart\n\ngo 1.22\n")
    repo.write("cart/cart_test.go", "package cart\n")
    repo.commit()
    repo.write("cart/cart_test.go", "package cart\n\nfunc TestEmptyCartCostsNothing(t *testing.T) {\n}\n")
    assert planned_tests(repo) == [
        "- [ ] `go test ./...` passes (go.mod)",
        "- [ ] New test: empty cart costs nothing (`cart/cart_test.go`)",
    ]


def test_a_broken_manifest_names_no_command_and_drafting_goes_on(repo: Repo) -> None:
    repo.write("pyproject.toml", "[tool.pytest.ini_options\n")
    repo.write("package.json", "{not json\n")
    repo.write("tests/test_cart.py", "x = 1\n")
    repo.commit()
    repo.write("tests/test_cart.py", "x = 1\n\n\n" + PY_TEST)
    assert (
        planned_tests(repo)[-1] == "- No test command found in the project's manifests; describe how this was checked."
    )


def test_a_feature_with_its_tests_and_docs_is_titled_by_the_feature_never_with_a_count(repo: Repo) -> None:
    repo.write("shop/cart.py", "def total(items):\n    return sum(items)\n")
    repo.write("tests/test_cart.py", "from shop.cart import total\n")
    repo.write("docs/cart.md", "# Cart\n")
    repo.commit()
    repo.write(
        "shop/cart.py",
        "def total(items):\n    return sum(items)\n\n\ndef discount(total, rate):\n    return total * rate\n",
    )
    repo.write("tests/test_cart.py", "from shop.cart import total\n\n\n" + PY_TEST)
    repo.write("docs/cart.md", "# Cart\n\n## Discounts\n\nA rate off the total.\n")
    session = Session.open(str(repo.path))
    plans = session.propose_commits()
    assert len(plans) > 1
    title = session.generate_pr().title
    assert title == next(p.title for p in plans if p.title.startswith("feat")), title
    assert "more)" not in title


def test_two_fixes_are_one_title_joined_under_their_type(repo: Repo) -> None:
    repo.write("shop/cart.py", "def total(items):\n    return sum(items)\n")
    repo.write("shop/tax.py", "def tax(amount):\n    return amount * 2\n")
    repo.commit()
    repo.write("shop/cart.py", "def total(items):\n    if not items:\n        return 0\n    return sum(items)\n")
    repo.write(
        "shop/tax.py",
        "def tax(amount):\n    if amount is None:\n        raise ValueError('no amount')\n    return amount * 2\n",
    )
    session = Session.open(str(repo.path))
    plans = session.propose_commits()
    fixes = [p.title for p in plans]
    if len(plans) != 2 or not all(t.startswith("fix") for t in fixes):
        pytest.skip(f"grouped or titled otherwise: {fixes}")
    title = session.generate_pr().title
    subjects = [t.split(": ", 1)[1] for t in fixes]
    assert title.startswith("fix") and all(s in title for s in subjects) and " and " in title, title


def test_joined_subjects_say_the_words_they_all_start_with_once() -> None:
    # starlette's two docs commits were drafted `Add docs for Starlette Compress and add docs for Shiny`
    assert (
        _joined(["Add docs for Starlette Compress", "add docs for Shiny"])
        == "Add docs for Starlette Compress and Shiny"
    )
    assert _joined(["Bump build", "bump flake8 from 6 to 7"]) == "Bump build and bump flake8 from 6 to 7"  # one word
    assert _joined(["Fix a", "fix b", "fix c"]) == "Fix a, fix b and fix c"


def test_work_asked_as_one_task_is_titled_by_the_task(tmp_path: Path) -> None:
    repo = project(tmp_path)
    ask(repo, "a", "Please make the config loader tolerate an empty file and a missing one")
    edit(repo, "a", "config.py", "        return json.load(f)\n", "        return json.loads(f.read() or '{}')\n")
    edit(repo, "a", "cli.py", "def main():\n", "def main():\n    # an empty file is an empty config\n")
    session = Session.open(str(repo.path))
    session.propose_commits()
    title = session.generate_pr().title
    assert title.endswith("make the config loader tolerate an empty file and a missing one"), title
    assert "more)" not in title and len(title) <= 72


def test_several_commits_under_one_recorded_task_are_titled_by_the_task() -> None:
    plans = [
        DraftCommit("test(cart): add tests for discount", "", hunks=1),
        DraftCommit("feat(cart): add discount", "", hunks=2),
        DraftCommit("docs: document Discounts", "", hunks=1),
    ]
    assert draft_pr(plans).title == "feat(cart): add discount"  # the feature; its tests and docs serve it
    draft = draft_pr(plans, intent="Let a cart take a discount rate off its total")
    assert draft.title == "feat(cart): let a cart take a discount rate off its total"


def test_segmint_pr_prints_the_title_and_the_test_plan(repo: Repo) -> None:
    repo.write("Makefile", "test:\n\tpytest -q\n")
    repo.write("shop/cart.py", "def total(items):\n    return sum(items)\n")
    repo.write("tests/test_cart.py", "from shop.cart import total\n")
    repo.commit()
    repo.write("tests/test_cart.py", "from shop.cart import total\n\n\n" + PY_TEST)
    out = run_segmint("pr", "--repo", str(repo.path), env={"SEGMINT_CHAT_MODEL": "", "SEGMINT_EMBEDDINGS": ""})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("# test(cart): ") and "more)" not in out.stdout.splitlines()[0]
    assert out.stdout.endswith(
        "## Test plan\n\n- [ ] `make test` passes (Makefile)\n"
        "- [ ] New test: an empty cart costs nothing (`tests/test_cart.py`)\n"
    )


def test_a_plain_house_s_leading_commits_are_joined_as_one_sentence() -> None:
    plans = [
        DraftCommit("Fix the crash on an empty cart", "", hunks=2),
        DraftCommit("Add a discount rate", "", hunks=2),
    ]
    assert draft_pr(plans).title == "Fix the crash on an empty cart and add a discount rate"


def test_a_summary_says_a_second_thing_asked_in_the_third_person_too() -> None:
    plans = [DraftCommit("Document that Client.close() can be called twice, and test it", "", hunks=3)]
    summary = draft_pr(plans).description.split("## Summary\n\n", 1)[1].split("\n\n", 1)[0]
    assert summary == "Documents that Client.close() can be called twice, and tests it."
    modes = [DraftCommit("Add read and write modes", "", hunks=1)]
    assert "Adds read and write modes." in draft_pr(modes).description  # "write modes" is no second thing
