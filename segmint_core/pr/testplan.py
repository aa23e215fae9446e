"""A pull request's test plan: the project's own test command, and the tests the change adds by name.

A reviewer wants to know how to run the tests here and what the change tests,
not which test files changed (the diff shows that). The command is read from
the project's own manifests at its root, the way its contributors run it:
a ``test`` target of the Makefile, ``scripts.test`` of package.json, tox or
nox, a hatch, pdm or poe script, pytest's configuration, ``cargo test`` for a
Cargo.toml, ``go test ./...`` for a go.mod. The tests are the cases the
commits add, change or remove (``planning.cases``), their names in words.
"""

from __future__ import annotations

import json
import re
import tomllib
from configparser import ConfigParser, Error as ConfigError
from dataclasses import dataclass
from pathlib import Path

from segmint_core.planning.cases import ADDED, CHANGED, REMOVED, Case
from segmint_core.pr.markdown import code, escaped
from segmint_core.wording import shown

MOST_CASES = 8  # named one a line; the rest counted per file
MOST_COMMANDS = 2
NPM_PLACEHOLDER = "no test specified"  # ``npm init``'s test script, which only fails
_MAKE_TARGET = re.compile(r"^(tests?|check)\s*:(?!=)", re.MULTILINE)
_NOX_SESSION = re.compile(r"^def (tests?)\s*\(", re.MULTILINE)
TEST_SCRIPTS = ("test", "tests")


@dataclass(frozen=True)
class Command:
    run: str  # what to type: ``pytest``, ``npm test``
    source: str  # the file it was read from


def project_commands(root: str | Path) -> list[Command]:
    """The project's test commands, the one its contributors would type first; none if it names none."""
    root = Path(root)
    found: list[Command] = []
    for reader in (_make, _package_json, _tox, _nox, _pyproject_scripts, _pytest, _cargo, _go):
        try:
            command = reader(root)
        except (OSError, ValueError, UnicodeDecodeError, tomllib.TOMLDecodeError, ConfigError, TypeError):
            command = None  # a manifest that cannot be read names no command
        if command is not None and command.run not in (c.run for c in found):
            found.append(command)
    return found


def _read(root: Path, name: str) -> str | None:
    path = root / name
    return path.read_text(encoding="utf-8") if path.is_file() else None


def _toml(root: Path, name: str) -> dict:
    text = _read(root, name)
    return tomllib.loads(text) if text is not None else {}


def _make(root: Path) -> Command | None:
    for name in ("GNUmakefile", "makefile", "Makefile"):
        text = _read(root, name)
        if text is not None and (m := _MAKE_TARGET.search(text)):
            return Command(f"make {m.group(1)}", name)
    return None


def _package_json(root: Path) -> Command | None:
    text = _read(root, "package.json")
    if text is None:
        return None
    scripts = json.loads(text).get("scripts") or {}
    test = scripts.get("test") if isinstance(scripts, dict) else None
    if not isinstance(test, str) or not test.strip() or NPM_PLACEHOLDER in test:
        return None
    runner = "pnpm" if (root / "pnpm-lock.yaml").is_file() else "yarn" if (root / "yarn.lock").is_file() else "npm"
    return Command(f"{runner} test", "package.json")


def _tox(root: Path) -> Command | None:
    if (root / "tox.ini").is_file():
        return Command("tox", "tox.ini")
    tool = _toml(root, "pyproject.toml").get("tool", {})
    return Command("tox", "pyproject.toml") if "tox" in tool else None


def _nox(root: Path) -> Command | None:
    text = _read(root, "noxfile.py")
    if text is None:
        return None
    m = _NOX_SESSION.search(text)
    return Command(f"nox -s {m.group(1)}" if m else "nox", "noxfile.py")


def _pyproject_scripts(root: Path) -> Command | None:
    """A test script of hatch, pdm or poe, or pytest under poetry."""
    tool = _toml(root, "pyproject.toml").get("tool", {})
    for env, settings in (tool.get("hatch", {}).get("envs") or {}).items():
        script = next((s for s in TEST_SCRIPTS if s in (settings.get("scripts") or {})), None)
        if script:
            return Command(f"hatch run {script}" if env == "default" else f"hatch run {env}:{script}", "pyproject.toml")
    for runner, scripts in (("pdm run", tool.get("pdm", {}).get("scripts")), ("poe", tool.get("poe", {}).get("tasks"))):
        script = next((s for s in TEST_SCRIPTS if s in (scripts or {})), None)
        if script:
            return Command(f"{runner} {script}", "pyproject.toml")
    if "poetry" in tool and "pytest" in json.dumps(tool["poetry"]):
        return Command("poetry run pytest", "pyproject.toml")
    return None


def _pytest(root: Path) -> Command | None:
    """pytest, where the project configures it or lists it among its dependencies."""
    pyproject = _toml(root, "pyproject.toml")
    if "pytest" in pyproject.get("tool", {}):
        return Command("pytest", "pyproject.toml")
    if (root / "pytest.ini").is_file():
        return Command("pytest", "pytest.ini")
    for name, section in (("setup.cfg", "tool:pytest"), ("tox.ini", "pytest")):
        text = _read(root, name)
        if text is not None:
            parser = ConfigParser(interpolation=None)
            parser.read_string(text)
            if parser.has_section(section):
                return Command("pytest", name)
    project = pyproject.get("project", {})
    wanted = json.dumps([project.get("optional-dependencies"), pyproject.get("dependency-groups")])
    return Command("pytest", "pyproject.toml") if re.search(r'"pytest\b', wanted) else None


def _cargo(root: Path) -> Command | None:
    if not (root / "Cargo.toml").is_file():
        return None
    return Command("cargo test --workspace" if "workspace" in _toml(root, "Cargo.toml") else "cargo test", "Cargo.toml")


def _go(root: Path) -> Command | None:
    return Command("go test ./...", "go.mod") if (root / "go.mod").is_file() else None


def test_plan(commands: list[Command], cases: list[Case]) -> str:
    """The test plan's Markdown: the command to run, then each test the change adds or changes."""
    lines = [_command_line(commands)] if commands else []
    named = [c for c in cases if c.status in (ADDED, CHANGED)]
    for case in named[:MOST_CASES]:
        kind = "New test" if case.status == ADDED else "Changed test"
        lines.append(f"- [ ] {kind}: {escaped(shown(case.words))} ({code(shown(case.path))})")
    if len(named) > MOST_CASES:
        lines.append(f"- [ ] and {len(named) - MOST_CASES} more tests in {_files(named[MOST_CASES:])}")
    removed = [c for c in cases if c.status == REMOVED]
    lines += [f"- Removed test: {escaped(shown(c.words))} ({code(shown(c.path))})" for c in removed[:MOST_CASES]]
    if not commands:
        lines.append("- No test command found in the project's manifests; describe how this was checked.")
    return "\n".join(lines)


def _command_line(commands: list[Command]) -> str:
    first, *others = commands[:MOST_COMMANDS]
    if all(c.source == first.source for c in others):  # pluggy's tox.ini runs pytest: its name once
        also = "".join(f", or {code(c.run)}" for c in others)
        return f"- [ ] {code(first.run)} passes{also} ({first.source})"
    also = "".join(f", or {code(c.run)} ({c.source})" for c in others)
    return f"- [ ] {code(first.run)} passes ({first.source}){also}"


def _files(cases: list[Case]) -> str:
    paths = list(dict.fromkeys(c.path for c in cases))
    return code(shown(paths[0])) + (f" and {len(paths) - 1} more files" if len(paths) > 1 else "")
