"""python-semantic-release's mypy, pinned in ``pyproject.toml`` and run by its pre-commit hook."""

from __future__ import annotations

from tests.support.repo import Repo

PYPROJECT = '[project]\nname = "psr"\n\n[project.optional-dependencies]\ndev = [\n  "mypy == {}",\n]\n'
HOOKS = "repos:\n  - repo: https://github.com/pre-commit/mirrors-mypy\n    rev: v{}\n    hooks:\n      - id: mypy\n"


def mypy_at(repo: Repo, pinned: str, hooked: str) -> None:
    """Write mypy's pin at ``pinned`` and its pre-commit hook at ``hooked``."""
    repo.write("pyproject.toml", PYPROJECT.format(pinned))
    repo.write(".pre-commit-config.yaml", HOOKS.format(hooked))
