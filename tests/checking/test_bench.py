"""``segmint bench check``: its speed part on a small repository, and its refusals."""

from __future__ import annotations

from segmint.cli import main
from segmint_bench.check import speed_run


def test_the_speed_part_checks_and_applies_the_same_plans() -> None:
    figures = speed_run(files=40, commits=3)
    assert (figures["files"], figures["commits"], figures["failing"]) == (40, 3, 0)
    assert figures["check_seconds"] > 0 and figures["apply_seconds"] > 0


def test_nothing_to_measure_is_bad_input(capsys) -> None:
    assert main(["bench", "check", "--no-speed"]) == 2
    assert capsys.readouterr().err == (
        "segmint: Name a repository to check tangled cases of, or leave out --no-speed\n"
    )
