"""Running the real ``segmint`` command line in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass
class CliResult:
    returncode: int
    stdout: str
    stderr: str


def run_segmint(
    *args: str, cwd: Path | None = None, env: dict | None = None, input: str | None = None, timeout: float = 120
) -> CliResult:
    full_env = {**os.environ, **(env or {})}
    proc = subprocess.run(
        [sys.executable, "-m", "segmint", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        input=input,
        timeout=timeout,
    )
    return CliResult(proc.returncode, proc.stdout, proc.stderr)


def assert_clean_error(result: CliResult, fragment: str) -> None:
    """Exit status 2, one sentence on stderr naming the problem, no traceback."""
    assert result.returncode == 2, result
    assert fragment in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
