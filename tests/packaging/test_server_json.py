"""server.json, the MCP registry's entry for Segmint, against the registry's schema of 2025-12-11
(vendored in fixtures/) and against what the package really is."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from jsonschema import Draft7Validator

import segmint_core
from segmint.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((Path(__file__).parent / "fixtures" / "server.schema.2025-12-11.json").read_text())
SERVER = json.loads((ROOT / "server.json").read_text())
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def errors(document: dict) -> list[str]:
    validator = Draft7Validator(SCHEMA, format_checker=Draft7Validator.FORMAT_CHECKER)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def test_server_json_validates_against_the_registry_schema_it_names() -> None:
    assert (
        SERVER["$schema"]
        == SCHEMA["$id"]
        == "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
    )
    assert errors(SERVER) == []


def test_the_schema_catches_what_the_registry_refuses() -> None:
    """The validator is not a formality: each of these is refused."""
    broken = [
        {**SERVER, "name": "segmint"},  # no namespace
        {**SERVER, "description": "x" * 101},  # over 100 characters
        {k: v for k, v in SERVER.items() if k != "version"},  # no version
        {**SERVER, "packages": [{**SERVER["packages"][0], "version": "latest"}]},
        {**SERVER, "packages": [{**SERVER["packages"][0], "transport": {"type": "pipe"}}]},
    ]
    for document in broken:
        assert errors(document), document


def test_the_name_is_a_github_namespace_whose_ownership_the_readme_declares() -> None:
    name = SERVER["name"]
    owner = re.fullmatch(r"io\.github\.([A-Za-z0-9-]+)/segmint", name).group(1)
    assert SERVER["repository"] == {"url": f"https://github.com/{owner}/segmint", "source": "github"}
    assert PROJECT["urls"]["Repository"] == SERVER["repository"]["url"]
    # The registry checks that the PyPI description (the README) says "mcp-name: <name>".
    assert PROJECT["readme"] == "README.md"
    assert f"mcp-name: {name}" in (ROOT / "README.md").read_text()


def test_the_package_is_this_one_at_this_version() -> None:
    [package] = SERVER["packages"]
    assert package["registryType"] == "pypi" and package["registryBaseUrl"] == "https://pypi.org"
    assert package["identifier"] == PROJECT["name"] and "segmint" in PROJECT["scripts"]
    assert SERVER["version"] == package["version"] == PROJECT["version"] == segmint_core.__version__


def test_the_stdio_arguments_are_segmint_mcp_and_its_options() -> None:
    [package] = SERVER["packages"]
    assert package["transport"] == {"type": "stdio"} and package["runtimeHint"] == "uvx"
    positional = [a["value"] for a in package["packageArguments"] if a["type"] == "positional"]
    named = [a["name"] for a in package["packageArguments"] if a["type"] == "named"]
    assert positional == ["mcp"]
    args = build_parser().parse_args(["mcp", *[part for n in named for part in (n, "/tmp/repo")]])
    assert args.command == "mcp" and args.repo == "/tmp/repo"


def test_the_environment_variables_are_ones_segmint_reads() -> None:
    config = (ROOT / "segmint_core" / "config.py").read_text()
    for variable in SERVER["packages"][0]["environmentVariables"]:
        assert variable["name"] in config and not variable["isRequired"]
