from __future__ import annotations

from pathlib import Path

import pytest

from segmint_core.trajectory.recorder import Recorder
from tests.support.repo import Repo
from tests.trajectory.support import FakeClock, project


@pytest.fixture
def proj(tmp_path: Path) -> Repo:
    return project(tmp_path / "proj")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def recorder(proj: Repo, clock: FakeClock) -> Recorder:
    rec = Recorder(str(proj.path), clock=clock)
    rec.open()
    return rec

