from __future__ import annotations

import compileall
import importlib.util
import os
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.support.repo import GIT_ENV, Repo

# Property tests drive real git repositories, so examples are slow and timing is
# noisy: no deadline. `pytest --hypothesis-profile=thorough` runs 2,000 examples.
_QUIET = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("segmint", deadline=None, suppress_health_check=_QUIET)
settings.register_profile("thorough", max_examples=2000, deadline=None, suppress_health_check=_QUIET)
settings.load_profile("segmint")

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"

# A shell starting the suite in the background ignores SIGINT for it, Python keeps an ignored
# SIGINT, and so would every Segmint a test starts: the Ctrl-C tests hear it as in a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config: pytest.Config) -> None:
    """Compile Segmint's modules once, before any worker starts: the many ``python -m segmint`` the
    tests run then read them compiled, even where PYTHONDONTWRITEBYTECODE keeps each from caching
    them (which costs every such process about a third of a second)."""
    if hasattr(config, "workerinput"):
        return
    for package in ("segmint", "segmint_core", "segmint_tui", "segmint_bench"):
        spec = importlib.util.find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            compileall.compile_dir(folder, quiet=2)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` starts two workers a core: much of the suite waits on git, on Segmint subprocesses
    and on servers, and a second worker keeps the core busy meanwhile (on two cores: 16 minutes with
    two workers, 12 with four). PYTEST_XDIST_AUTO_NUM_WORKERS still decides."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return 2 * len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2 * (os.cpu_count() or 1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Property tests and tests marked slow run first, so the workers share them out at the start
    rather than one worker finishing the longest alone at the end."""

    def long(item: pytest.Item) -> bool:
        test = getattr(item, "obj", None)
        return item.get_closest_marker("slow") is not None or getattr(test, "is_hypothesis_test", False)

    items.sort(key=lambda item: not long(item))


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never see the developer's git config, identity or signing keys."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(key, raising=False)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "repo")


def shared_data(name: str) -> Path:
    path = SHARED_DATA / name
    if not path.exists():
        pytest.skip(f"shared data {name} not found at {path}")
    return path
