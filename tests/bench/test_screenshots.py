"""The README's screenshots can be remade: the script drives the real app on the demo repository."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from segmint_bench import screenshots


@pytest.fixture(autouse=True)
def _restore_time_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")  # main() pins it too; monkeypatch puts the old one back
    yield
    monkeypatch.undo()
    time.tzset()


def test_the_script_writes_every_picture(tmp_path: Path, capsys) -> None:
    assert screenshots.main([str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(f"{shot.name}.svg" for shot in screenshots.SHOTS)
    main = (tmp_path / "main.svg").read_text()
    assert "load_config" in main and "propose" in main.lower()
    assert capsys.readouterr().out.count(".svg") == len(screenshots.SHOTS)
