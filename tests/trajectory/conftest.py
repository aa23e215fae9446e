from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from segmint_core.trajectory.recorder import Recorder
from segmint_core.trajectory.recording import Recording
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


@pytest.fixture
def recording(proj: Repo, clock: FakeClock) -> Iterator[Recording]:
    rec = Recording(str(proj.path), debounce=0.1, clock=clock, retry_delay=0.05)
    rec.start()
    yield rec
    rec.stop()
