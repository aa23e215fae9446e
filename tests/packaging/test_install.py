"""Segmint installed as a tool from a built wheel, as the README says, in a clean environment.

The README's install lines run as written (``python -m build``, then ``uv tool
install`` and ``pipx install`` of the wheel) in a copy of the checkout, with a
temporary HOME, tool folders and caches, so nothing reaches the machine's own.
Each installed ``segmint`` is then used as a person or an agent would: its
version, ``segmint mcp`` answering ``tools/list`` to the MCP SDK's stdio client
with the arguments ``server.json`` gives, ``segmint group`` on a temporary
repository (the grouping model's data must be in the wheel), ``changes`` and
``plan`` there, ``--help``, its skill, and ``segmint bench``, which says in one
sentence that the benchmarks need a checkout: the wheel holds no benchmark.
The registries must be reachable (they are in CI): the build and both
installs fetch their dependencies.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import segmint_core
from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from segmint_core.skill import skill_text
from tests.mcp.support import legacy, make_changes
from tests.support.repo import Repo

ROOT = Path(__file__).resolve().parents[2]
MARK = "<!-- run as written by tests/packaging/test_install.py -->"
PACKAGES = ("segmint", "segmint_core", "segmint_tui")
TIMEOUT = 600


@dataclass(frozen=True)
class Installed:
    how: str  # uv | pipx
    segmint: Path  # the installed command
    python: Path  # the interpreter of its environment


def readme_install_lines() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    block = readme.split(MARK, 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].strip() for line in block.splitlines() if line.split("#", 1)[0].strip()]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Installed]]:
    """The README's lines run in a copy of the checkout: the wheel, and segmint installed by uv and by pipx."""
    base = tmp_path_factory.mktemp("install")
    checkout = _copy_checkout(base / "checkout")
    env = _clean_env(base)
    for line in readme_install_lines():
        done = subprocess.run(
            ["bash", "-c", line], cwd=checkout, env=env, capture_output=True, text=True, timeout=TIMEOUT
        )
        assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    [wheel] = (checkout / "dist").glob("segmint-*.whl")
    tools = [
        Installed("uv", base / "uv-bin" / "segmint", base / "uv-tools" / "segmint" / "bin" / "python"),
        Installed("pipx", base / "pipx-bin" / "segmint", base / "pipx" / "venvs" / "segmint" / "bin" / "python"),
    ]
    return wheel, tools


def test_the_wheel_holds_every_data_file_of_the_packages(installed) -> None:
    wheel, _ = installed
    tracked = subprocess.run(
        ["git", "ls-files", *PACKAGES], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    data = {path for path in tracked if not path.endswith(".py")}
    assert {"segmint_core/skill/SKILL.md", "segmint_tui/styles/app.tcss"} <= data
    names = set(zipfile.ZipFile(wheel).namelist())
    assert data <= names, data - names
    metadata = zipfile.ZipFile(wheel).read(f"segmint-{segmint_core.__version__}.dist-info/METADATA").decode()
    server = json.loads((ROOT / "server.json").read_text())
    assert f"mcp-name: {server['name']}" in metadata  # what the MCP registry reads on PyPI


def test_the_wheel_ships_the_product_alone(installed) -> None:
    """No benchmark, experiment, demo, screenshot generation or model no shipped path uses."""
    wheel, _ = installed
    modules = [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith((".py", ".json"))]
    shipped = {"segmint/cli/__init__.py", "segmint_core/grouping/model.json", "segmint_core/grouping/one_intent.json"}
    assert shipped | {"segmint_tui/app.py"} <= set(modules)
    assert [n for n in modules if n.split("/")[0] not in PACKAGES] == []
    unshipped = ("bench", "demo", "screenshot", "boosted", "merging", "grouping/seed.py", "model_v1")
    stub = "segmint/cli/bench.py"  # the command that says the benchmarks need a checkout
    assert [n for n in modules if any(word in n for word in unshipped) and n != stub] == []


def test_each_installed_tool_runs_from_its_own_environment(installed, tmp_path: Path) -> None:
    _, tools = installed
    env = _clean_env(tmp_path)
    repo = make_changes(Repo(tmp_path / "repo"))
    for tool in tools:
        assert tool.segmint.exists() and tool.python.exists(), tool
        version = _run(tool.segmint, "--version", cwd=tmp_path, env=env)
        assert version.stdout.strip() == f"segmint {segmint_core.__version__}", tool.how
        where = _run(
            tool.python,
            "-I",
            "-c",
            "import segmint_core, segmint_tui; print(segmint_core.__file__); "
            "import importlib.resources as r; print(r.files('segmint_tui') / 'styles' / 'app.tcss')",
            cwd=tmp_path,
            env=env,
        )
        module, stylesheet = where.stdout.split()
        assert not module.startswith(str(ROOT)) and Path(stylesheet).is_file(), (tool.how, where.stdout)
        grouped = json.loads(_run(tool.segmint, "group", "--json", cwd=repo.path, env=env).stdout)
        assert grouped["groups"] and {h for g in grouped["groups"] for h in g["hunk_ids"]} == {
            h["id"] for c in grouped["changes"] for h in c["hunks"]
        }, tool.how
        assert "changes" in _run(tool.segmint, "--help", cwd=tmp_path, env=env).stdout, tool.how
        listed = json.loads(_run(tool.segmint, "changes", "--json", cwd=repo.path, env=env).stdout)
        assert len(listed["changes"]) == len(grouped["changes"]), tool.how
        planned = _run(tool.segmint, "plan", cwd=repo.path, env=env)
        assert planned.stdout.strip(), tool.how
        bench = subprocess.run(
            [str(tool.segmint), "bench", "mcp"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert bench.returncode == 2 and bench.stdout == "", tool.how
        assert bench.stderr.count("\n") == 1 and "needs a checkout" in bench.stderr, (tool.how, bench.stderr)
        assert _run(tool.segmint, "skill", cwd=tmp_path, env=env).stdout == skill_text(), tool.how
        skills = tmp_path / f"{tool.how}-skills"
        _run(tool.segmint, "skill", "--install", "--path", str(skills), cwd=tmp_path, env=env)
        assert (skills / "segmint" / "SKILL.md").read_text() == skill_text()


async def test_installed_segmint_mcp_answers_tools_list_with_server_json_arguments(installed, tmp_path: Path) -> None:
    _, tools = installed
    repo = make_changes(Repo(tmp_path / "repo"))
    async with legacy(build_server(Session.open(str(repo.path)))) as client:
        expected = [t.name for t in (await client.list_tools()).tools]
    env = _clean_env(tmp_path)
    for tool in tools:
        params = StdioServerParameters(
            command=str(tool.segmint), args=_server_json_args(repo.path), env=env, cwd=str(tmp_path)
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "segmint", tool.how
            listed = [t.name for t in (await session.list_tools()).tools]
            changes = await session.call_tool("list_changes", {})
        assert listed == expected, tool.how
        assert not changes.is_error and len(changes.structured_content["changes"]) == 4, tool.how


def _server_json_args(repo: Path) -> list[str]:
    """``segmint``'s arguments as server.json gives them to MCP clients, with --repo filled in."""
    [package] = json.loads((ROOT / "server.json").read_text())["packages"]
    args: list[str] = []
    for argument in package["packageArguments"]:
        if argument["type"] == "positional":
            args.append(argument["value"])
        elif argument["name"] == "--repo":
            args += ["--repo", str(repo)]
    return args


def _copy_checkout(target: Path) -> Path:
    """The files git tracks, as they are in the work tree (what a fresh clone would build)."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        source = ROOT / name
        if name and source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def _clean_env(base: Path) -> dict[str, str]:
    """This interpreter's tools first on PATH, and every folder a tool installer writes to under ``base``."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("UV_", "PIPX_", "VIRTUAL_ENV", "PYTHON", "SEGMINT_"))
    }
    home = base / "home"
    home.mkdir(exist_ok=True)
    env.update(
        {
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local/share"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "UV_TOOL_DIR": str(base / "uv-tools"),
            "UV_TOOL_BIN_DIR": str(base / "uv-bin"),
            "UV_CACHE_DIR": str(base / "uv-cache"),
            "UV_PYTHON": sys.executable,
            "UV_PYTHON_DOWNLOADS": "never",
            "PIPX_HOME": str(base / "pipx"),
            "PIPX_BIN_DIR": str(base / "pipx-bin"),
            "PIPX_MAN_DIR": str(base / "pipx-man"),
            "PIP_CACHE_DIR": str(base / "pip-cache"),
        }
    )
    return env


def _run(*args: str | Path, cwd: Path | None = None, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (args, done.stderr[-2000:])
    return done
