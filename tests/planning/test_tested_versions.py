"""A change to the versions CI tests on is titled by them: ``test on Python 3.9``."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.writer import read_plan
from tests.support.repo import Repo
from tests.support.titles import edited, titled

MATRIX = """jobs:
  tests:
    strategy:
      matrix:
        include:
          - {{name: Linux, python: '{main}', os: ubuntu-latest, tox: py{short}}}
          - {{name: Windows, python: '{main}', os: windows-latest, tox: py{short}}}
{extra}          - {{name: '3.7', python: '3.7', os: ubuntu-latest, tox: py37}}
          - {{name: Docs, python: '{main}', os: ubuntu-latest, tox: docs}}
    steps:
      - uses: actions/setup-python@v2
        with:
          python-version: ${{{{ matrix.python }}}}
"""
TOX = "[tox]\nenvlist =\n    py{{{envs}}}\n    docs\n"


def test_a_matrix_moved_to_a_new_python_keeping_the_old_one_tests_on_the_new(repo: Repo) -> None:
    """click's ``test Python 3.9`` was titled ``Update include in tests.yaml``."""
    before = MATRIX.format(main="3.8", short="38", extra="")
    after = MATRIX.format(
        main="3.9", short="39", extra="          - {name: '3.8', python: '3.8', os: ubuntu-latest, tox: py38}\n"
    )
    facts, title = edited(
        repo,
        {
            ".github/workflows/tests.yaml": (before, after),
            "tox.ini": (TOX.format(envs="38,37,py3"), TOX.format(envs="39,38,37,py3")),
        },
    )
    assert facts.tested == "test on Python 3.9"
    assert title.endswith("test on Python 3.9")


def test_versions_dropped_and_replaced_are_both_said(repo: Repo) -> None:
    travis = "language: go\ngo:\n{versions}go_import_path: example.com/app\n"
    listed = lambda *vs: "".join(f"  - {v}\n" for v in vs)  # noqa: E731
    facts, _ = titled(
        repo,
        ".travis.yml",
        travis.format(versions=listed("1.12.x", "1.13.x", "tip")),
        travis.format(versions=listed("1.14.x", "tip")),
    )
    assert facts.tested == "test on Go 1.14.x instead of 1.12.x and 1.13.x"
    facts, _ = titled(
        repo, ".travis.yml", travis.format(versions=listed("1.14.x", "tip")), travis.format(versions=listed("tip"))
    )
    assert facts.tested == "stop testing on Go 1.14.x"


def test_tox_factors_after_a_major_version_are_read_as_its_versions(repo: Repo) -> None:
    # attrs 23.2.0 wrote its environments py3{7,8,9,10,11,12}-tests: the same Pythons as py37 ... py312
    flat = "[tox]\nenvlist = mypy,py37,py38,py39,py310,py311,py312,docs\n"
    factored = "[tox]\nmin_version = 4\nenv_list =\n    py3{7,8,9,10,11,12}-tests,\n    docs\n"
    facts, _ = titled(repo, "tox.ini", flat, factored)
    assert facts.tested is None
    facts, _ = titled(repo, "tox.ini", factored, factored.replace("7,8,", "8,"))
    assert facts.tested == "stop testing on Python 3.7"


def test_node_versions_in_a_list_and_a_setup_step_reading_the_matrix(repo: Repo) -> None:
    workflow = "jobs:\n  test:\n    strategy:\n      matrix:\n        node-version: [{versions}]\n"
    facts, _ = titled(
        repo, ".github/workflows/ci.yml", workflow.format(versions="18, 20"), workflow.format(versions="18, 20, 24")
    )
    assert facts.tested == "test on Node.js 24"


def test_a_workflow_added_whole_or_a_file_outside_ci_tests_on_nothing_new(repo: Repo) -> None:
    """httpx's new publish workflow names Python 3.7 and tests nothing on it."""
    publish = "jobs:\n  publish:\n    steps:\n      - uses: actions/setup-python@v2\n        with:\n          python-version: 3.7\n"
    repo.write("docs/ci.md", "python: 3.8\n")
    repo.commit()
    repo.write(".github/workflows/publish.yml", publish)
    repo.write("docs/ci.md", "python: 3.9\n")
    parts = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    assert {c.status for c, _ in parts} == {"added", "modified"}
    facts, _ = read_plan(parts)
    assert facts.tested is None and "test on" not in offline_message(parts).title


def test_a_go_version_raised_in_a_setup_step_is_tested_on_not_a_dependency_bumped(repo: Repo) -> None:
    """cobra's ``ci: test golang 1.22`` (``go-version: '^1.21'`` to ``'^1.22'``) was titled
    ``Bump go-version from 1.21 to 1.22``, as if a package named go-version had moved."""
    step = "jobs:\n  lint:\n    steps:\n      - uses: actions/setup-go@v5\n        with:\n          go-version: '{v}'\n"
    facts, title = titled(repo, ".github/workflows/test.yml", step.format(v="^1.21"), step.format(v="^1.22"))
    assert facts.tested == "test on Go 1.22 instead of 1.21"
    assert facts.bumps == []
    assert title.lower().endswith("test on go 1.22 instead of 1.21")


def test_a_pre_release_and_tox_s_name_for_it_are_one_version(repo: Repo) -> None:
    """black's ``Test on Python 3.10-dev``: the workflows say ``3.10-dev``, tox's ``py310`` can say
    only 3.10 (it read ``test on Python 3.10-dev and 3.10``)."""
    workflow = "jobs:\n  test:\n    strategy:\n      matrix:\n        python-version: [{}]\n"
    facts, _ = edited(
        repo,
        {
            ".github/workflows/test.yml": (
                workflow.format('"3.8", "3.9"'),
                workflow.format('"3.8", "3.9", "3.10-dev"'),
            ),
            "tox.ini": ("[tox]\nenvlist = py{38,39}\n", "[tox]\nenvlist = py{38,39,310}\n"),
        },
    )
    assert facts.tested == "test on Python 3.10-dev"
