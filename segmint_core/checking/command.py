"""The check command: where it is configured, whether the person allowed it, and running it.

A command comes from ``--command`` (the person's own), from Segmint's settings
(``check`` in ``config.toml`` or ``SEGMINT_CHECK``: the person's own too), or
from the repository's ``pyproject.toml`` (``[tool.segmint] check = "..."``).
One read from the repository runs only once the person allowed it for that
repository: a clone must not run code by surprise. Consent is kept outside the
repository, in Segmint's folder under the person's config directory, keyed by
the repository's path and the command's text.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from segmint_core.atomic import write_atomic
from segmint_core.checking.models import OUTPUT_LINES
from segmint_core.errors import RefusedError, SegmintError

DEFAULT_TIMEOUT = 600.0  # seconds per commit
REPOSITORY = "repository"
SETTINGS = "settings"
COMMAND_LINE = "command line"


@dataclass(frozen=True)
class CheckCommand:
    text: str
    source: str  # command line | settings | repository
    timeout: float = DEFAULT_TIMEOUT

    @property
    def trusted_by_source(self) -> bool:
        return self.source != REPOSITORY


class NotAllowed(RefusedError):
    """A check command from the repository's files that the person has not allowed."""


def configured(
    root: str, *, given: str | None = None, timeout: float | None = None, env: dict[str, str] | None = None
) -> CheckCommand | None:
    """The check command to run, or None for the zero-config check."""
    env = dict(os.environ if env is None else env)
    if given is not None:
        if not given.strip():
            raise SegmintError("--command needs a command to run, not an empty string")
        return CheckCommand(given, COMMAND_LINE, _timeout(timeout, None))
    settings = _settings(env)
    check = settings.get("check")
    if check and isinstance(check, str):  # (_settings refuses any other type)
        return CheckCommand(check, SETTINGS, _timeout(timeout, settings.get("check_timeout")))
    table = _pyproject(root)
    text = table.get("check")
    if text is None:
        return None
    if not isinstance(text, str) or not text.strip():
        raise SegmintError("check in [tool.segmint] of pyproject.toml must be a command in quotes")
    return CheckCommand(text, REPOSITORY, _timeout(timeout, table.get("check-timeout", table.get("check_timeout"))))


def _timeout(given: float | None, configured_value: object) -> float:
    raw = given if given is not None else configured_value
    if raw is None:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(raw) if isinstance(raw, (str, int, float)) else float("nan")
    except ValueError:
        seconds = float("nan")
    if isinstance(raw, bool) or not 0 < seconds <= 24 * 3600:
        raise SegmintError(f"The check's timeout must be a positive number of seconds, not {raw!r}")
    return seconds


def _settings(env: dict[str, str]) -> dict[str, object]:
    values: dict[str, object] = {}
    path = config_dir(env) / "config.toml"
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise SegmintError(f"Cannot read {path}: {exc}") from None
        values.update({k: v for k, v in data.items() if k in ("check", "check_timeout")})
    for key in ("check", "check_timeout"):
        if env.get(f"SEGMINT_{key.upper()}", "").strip():
            values[key] = env[f"SEGMINT_{key.upper()}"].strip()
    if "check" in values and not isinstance(values["check"], str):
        raise SegmintError(f"check in {path} must be a command in quotes")
    return values


def _pyproject(root: str) -> dict[str, object]:
    path = Path(root) / "pyproject.toml"
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SegmintError(f"Cannot read the check command from pyproject.toml: {exc}") from None
    table = data.get("tool", {}).get("segmint", {})
    return table if isinstance(table, dict) else {}


def config_dir(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ if env is None else env)
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME", "~"), ".config")
    return Path(base).expanduser() / "segmint"


def _consent_file(env: dict[str, str] | None) -> Path:
    return config_dir(env) / "allowed-checks.json"


def _key(root: str, command: str) -> str:
    return hashlib.sha256(f"{os.path.realpath(root)}\0{command}".encode("utf-8", "surrogateescape")).hexdigest()


def allowed(root: str, command: CheckCommand, env: dict[str, str] | None = None) -> bool:
    if command.trusted_by_source:
        return True
    try:
        data = json.loads(_consent_file(env).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and _key(root, command.text) in data


def allow(root: str, command: CheckCommand, env: dict[str, str] | None = None) -> None:
    """Remember that the person allows ``command`` to run for the repository at ``root``."""
    path = _consent_file(env)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    data[_key(root, command.text)] = {"repository": os.path.realpath(root), "command": command.text}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())


def refuse_unallowed(root: str, command: CheckCommand, env: dict[str, str] | None = None) -> None:
    if not allowed(root, command, env):
        raise NotAllowed(
            f"The repository's pyproject.toml asks to run `{command.text}` as its check, and you have not "
            "allowed it for this repository: run `segmint check --allow` to allow it once (it runs with your "
            "permissions), or give --command"
        )


@dataclass
class Ran:
    ok: bool
    output: str
    seconds: float
    timed_out: bool = False


def run_command(
    command: CheckCommand,
    cwd: Path,
    extra_env: dict[str, str],
    started: Callable[[int | None], None] = lambda pgid: None,
) -> Ran:
    """Run the command in ``cwd`` in a process group of its own, ended whole on a timeout or an interrupt."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(extra_env)
    begin = time.monotonic()
    proc = subprocess.Popen(
        command.text,
        shell=True,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    started(proc.pid)
    try:
        out, _ = proc.communicate(timeout=command.timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        out, _ = proc.communicate()
        text = tail(out) + f"\n(stopped after {command.timeout:g} s: the check's timeout)"
        return Ran(False, text.strip(), time.monotonic() - begin, timed_out=True)
    except BaseException:
        _kill(proc)
        proc.wait()
        raise
    finally:
        started(None)
    return Ran(proc.returncode == 0, tail(out), time.monotonic() - begin)


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def tail(data: bytes, lines: int = OUTPUT_LINES) -> str:
    text = data.decode("utf-8", "replace").rstrip()
    return "\n".join(text.splitlines()[-lines:])
