"""A change that only starts or stops ignoring warnings is titled by the warnings."""

from __future__ import annotations

import time

from segmint_core.planning.warning_filters import read_edit
from tests.support.repo import Repo
from tests.support.titles import edited

SCRIPT = "#!/bin/sh\nset -x\nPYTHONPATH=. pytest --ignore venv --cov=app ${@}\nmypy app\n"
PYPROJECT = '[project]\nname = "app"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'


def test_a_flag_added_to_a_test_command_ignores_its_category(repo: Repo) -> None:
    after = SCRIPT.replace("venv --cov", "venv -W ignore::DeprecationWarning --cov")
    facts, title = edited(repo, {"scripts/test": (SCRIPT, after)})
    assert facts.warning_filters is not None and facts.warning_filters.ignored == ["deprecation warnings"]
    assert title.lower().endswith("ignore deprecation warnings in test")


def test_a_pytest_setting_added_and_removed(repo: Repo) -> None:
    setting = 'filterwarnings = [\n    "ignore::pytest.PytestUnraisableExceptionWarning",\n]\n'
    _, title = edited(repo, {"pyproject.toml": (PYPROJECT, PYPROJECT + setting)})
    assert ": ignore pytest unraisable exception warnings in " in title.lower()
    _, title = edited(repo, {"pyproject.toml": (PYPROJECT + setting, PYPROJECT)})
    assert title.endswith(": stop ignoring pytest unraisable exception warnings")


def test_other_edits_beside_a_filter_are_not_hidden() -> None:
    assert read_edit(["pytest -W ignore::UserWarning --cov=app -x"], ["pytest --cov=app"]) is None
    mark = read_edit(['@pytest.mark.filterwarnings("ignore:old api:ResourceWarning")'], [])
    assert mark is not None and mark.ignored == ["resource warnings"]
    assert read_edit(["pytest --ignore venv"], ["pytest"]) is None


def test_a_line_of_blanks_is_read_quickly() -> None:
    start = time.perf_counter()
    read_edit([" " * 20_000 + "ignore:" + " " * 20_000], ["-W" + " " * 20_000])
    assert time.perf_counter() - start < 1.0
