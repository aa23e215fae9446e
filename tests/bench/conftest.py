from __future__ import annotations

import pytest

from tests.support.repo import Repo
from tests.tui.support import write_demo


@pytest.fixture
def demo(repo: Repo) -> Repo:
    """A real repository with the demo's tangled working tree."""
    return write_demo(repo)
