"""The MCP Inspector's CLI against ``segmint mcp`` on a temporary repository.

Skipped, saying why, only when npx is missing or cannot fetch the Inspector.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys

import pytest

from tests.support.repo import Repo

INSPECTOR = "@modelcontextprotocol/inspector"
FETCH_FAILURES = (
    "ENOTFOUND",
    "EAI_AGAIN",
    "ECONNREFUSED",
    "ECONNRESET",
    "ETIMEDOUT",
    "npm error network",
    "npm ERR! network",
    "npm error code E404",
    "npm error code E403",
    "unable to get local issuer",
)


def inspect(repo: Repo, *method_args: str) -> dict:
    npx = shutil.which("npx")
    if npx is None:
        pytest.skip("npx is not installed: the MCP Inspector CLI test needs Node.js")
    command = [npx, "-y", INSPECTOR, "--cli", sys.executable, "-m", "segmint", "mcp", *method_args]
    # The tests run with a temporary HOME; npm's cache stays the user's, so the Inspector is fetched once.
    cache = os.path.join(pwd.getpwuid(os.getuid()).pw_dir, ".npm")
    env = {**os.environ, "npm_config_cache": cache, "npm_config_update_notifier": "false", "npm_config_fund": "false"}
    try:
        proc = subprocess.run(command, cwd=repo.path, capture_output=True, text=True, timeout=300, env=env)
    except subprocess.TimeoutExpired:
        pytest.skip(f"npx did not fetch and run {INSPECTOR} within 300 s")
    output = proc.stdout + proc.stderr
    if proc.returncode != 0 and any(marker in output for marker in FETCH_FAILURES):
        pytest.skip(f"npx cannot fetch {INSPECTOR}: {output.strip().splitlines()[-1]}")
    assert proc.returncode == 0, output
    return json.loads(proc.stdout)


@pytest.mark.slow
def test_inspector_lists_tools_and_calls_list_changes(dirty: Repo) -> None:
    tools = inspect(dirty, "--method", "tools/list")["tools"]
    names = [t["name"] for t in tools]
    assert names[:5] == ["list_changes", "group_changes", "propose_commits", "apply_commit", "generate_pr"]
    assert "check_lazygit_messages" in names
    called = inspect(dirty, "--method", "tools/call", "--tool-name", "list_changes")
    assert called.get("isError") in (None, False)
    assert [c["file_path"] for c in called["structuredContent"]["changes"]] == [
        "README.md",
        "notes.txt",
        "src/parser.py",
        "tests/test_parser.py",
    ]
