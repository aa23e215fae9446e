"""The architecture is declared in pyproject.toml and checked by import-linter (``lint-imports``):
these show that a breach of it fails, on a copy of the packages with one deliberate violation."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("segmint", "segmint_tui", "segmint_core")
LINT_IMPORTS = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")

pytestmark = pytest.mark.skipif(
    LINT_IMPORTS is None, reason="import-linter is not installed (pip install --group test)"
)


def lint_imports(tree: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(tree)}  # the copy, ahead of the checkout an editable install names
    return subprocess.run(
        [LINT_IMPORTS, "--config", str(tree / "pyproject.toml"), "--no-cache"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_packages_as_they_are_keep_every_contract(tree: Path) -> None:
    result = lint_imports(tree)
    assert result.returncode == 0, result.stdout


def test_the_core_importing_textual_breaks_a_contract(tree: Path) -> None:
    (tree / "segmint_core" / "breach.py").write_text("import textual\n")
    result = lint_imports(tree)
    assert result.returncode != 0 and "The core never imports Textual BROKEN" in result.stdout


def test_the_core_importing_the_terminal_ui_breaks_a_contract(tree: Path) -> None:
    (tree / "segmint_core" / "breach.py").write_text("import segmint_tui.app\n")
    result = lint_imports(tree)
    assert result.returncode != 0 and "stands above the core BROKEN" in result.stdout


def test_a_new_import_cycle_breaks_a_contract(tree: Path) -> None:
    grouping = tree / "segmint_core" / "grouping"
    (grouping / "leftovers.py").write_text(
        (grouping / "leftovers.py").read_text() + "\nfrom segmint_core.grouping import engine\n"
    )
    result = lint_imports(tree)
    assert result.returncode != 0 and "No import cycle among the modules of one package BROKEN" in result.stdout


def test_a_check_reading_the_session_again_breaks_a_contract(tree: Path) -> None:
    """The session starts checks and drafts the pull request; checking and pr are handed what they read."""
    (tree / "segmint_core" / "checking" / "breach.py").write_text("import segmint_core.session.core\n")
    result = lint_imports(tree)
    assert result.returncode != 0 and "No import cycle among the modules of one package BROKEN" in result.stdout
