from __future__ import annotations

import pytest

from segmint_core.session.session import Session
from tests.support.groups import one_group_per_hunk  # noqa: F401 - the session tests import it from here
from tests.support.repo import Repo

BASE = "".join(f"line {i}\n" for i in range(1, 41))


@pytest.fixture
def two_intents(repo: Repo) -> Repo:
    """A committed file and README, then two unrelated edits far apart in the file
    plus a README change, none staged."""
    repo.write("app.py", BASE)
    repo.write("README.md", "# App\n")
    repo.commit("base")
    repo.write("app.py", BASE.replace("line 3\n", "line three\n").replace("line 35\n", "line thirty-five\n"))
    repo.write("README.md", "# App\n\nUsage.\n")
    return repo


def open_session(repo: Repo, **options) -> Session:
    return Session.open(str(repo.path), **options)
