"""A coding agent at work in a terminal, recorded by Segmint's hook; then one commit per prompt.

A scripted agent runs in tmux, as Claude Code would: for each of three prompts
it sends the real ``UserPromptSubmit`` payload to ``segmint hook``, edits
files, and sends the real ``PostToolUse`` payload of each edit. Then
``segmint plan`` and ``segmint apply --all`` are typed in the same terminal.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hooks.payloads import FOLDER
from tests.support.repo import Repo
from tests.tui.test_terminal import Terminal

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: this test runs the agent and segmint through it"
)

BASE = {
    "config.py": "def load(text):\n    return dict(line.split('=', 1) for line in text.splitlines())\n",
    "cli.py": "import argparse\n\n\ndef parser():\n    p = argparse.ArgumentParser()\n    return p\n",
    "parser.py": "def unescape(text):\n    return text.replace('\\\\n', '\\n')\n",
    "README.md": "# tool\n\nReads a config.\n",
}
# The prompts, in order, with what the agent then writes: (tool, file, new content).
TASKS = [
    (
        "Fix the crash on an empty config",
        [
            (
                "Edit",
                "config.py",
                "def load(text):\n    if not text.strip():\n        return {}\n"
                "    return dict(line.split('=', 1) for line in text.splitlines())\n",
            ),
        ],
    ),
    (
        "Add a --verbose flag to the command line",
        [
            (
                "Edit",
                "cli.py",
                "import argparse\n\n\ndef parser():\n    p = argparse.ArgumentParser()\n"
                "    p.add_argument('--verbose', action='store_true')\n    return p\n",
            ),
            ("Write", "README.md", "# tool\n\nReads a config. `--verbose` says what it reads.\n"),
        ],
    ),
    (
        "Document the escaping rules of the parser",
        [
            (
                "Edit",
                "parser.py",
                'def unescape(text):\n    """Turn each backslash-n into a newline; nothing else '
                "is escaped.\"\"\"\n    return text.replace('\\\\n', '\\n')\n",
            ),
        ],
    ),
]
WORDS = [("crash", "empty", "config"), ("verbose", "flag"), ("escaping", "parser")]

AGENT = """
import json, subprocess, sys, time
from pathlib import Path

repo, fixtures, tasks, segmint = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4:]
NAMES = {"Edit": "post_tool_use_edit", "Write": "post_tool_use_write"}

def send(name, **change):
    data = json.loads((fixtures / "claude-code" / f"{name}.json").read_text())
    data["cwd"] = str(repo)
    data["session_id"] = "terminal-session"
    for part in (data.get("tool_input"), data.get("tool_response")):
        for key in ("file_path", "filePath"):
            if isinstance(part, dict) and key in part and "file" in change:
                part[key] = str(repo / change["file"])
    if "prompt" in change:
        data["prompt"] = change["prompt"]
    done = subprocess.run([*segmint, "hook", "claude-code"], input=json.dumps(data).encode(), capture_output=True)
    if done.returncode or done.stdout or done.stderr:
        print("HOOK FAILED", done.returncode, done.stdout, done.stderr, flush=True)
        sys.exit(1)

send("session_start")
for prompt, edits in tasks:
    print("prompt:", prompt, flush=True)
    send("user_prompt_submit", prompt=prompt)
    for tool, file, content in edits:
        (repo / file).write_text(content)
        send(NAMES[tool], file=file)
send("session_end")
print("AGENT DONE", flush=True)
"""


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(f"segmint-agent-test-{os.getpid()}")
    try:
        yield term
    finally:
        term.stop()


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "repo")
    for n, (name, content) in enumerate(BASE.items()):
        repo.write(name, content)
        repo.commit(["Add the config loader", "Add the command line", "Add the parser", "Add the README"][n])
    return repo


def segmint_argv() -> list[str]:
    script = Path(sys.executable).with_name("segmint")
    return [str(script)] if script.exists() else [sys.executable, "-m", "segmint"]


def test_three_prompts_become_three_commits_titled_from_them(repo: Repo, terminal: Terminal, tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    argv = [sys.executable, str(agent), str(repo.path), str(FOLDER), json.dumps(TASKS), *segmint_argv()]
    terminal.start(str(repo.path), ["bash", "--norc", "--noprofile"], size=(160, 40))
    terminal.keys(" ".join(_quoted(a) for a in argv), "Enter")
    terminal.wait_for(lambda s: "AGENT DONE" in s or "HOOK FAILED" in s, "the agent to finish", timeout=120)
    assert "HOOK FAILED" not in terminal.screen(), terminal.screen()

    plan = tmp_path / "plan.json"  # (outside the repository: it would be a change of its own)
    terminal.keys(
        "clear; " + " ".join(_quoted(a) for a in segmint_argv()) + f" plan --json > {_quoted(str(plan))}; echo PLANNED",
        "Enter",
    )
    terminal.wait_for(lambda s: "PLANNED" in s.replace("echo PLANNED", ""), "the plan", timeout=120)
    plans = json.loads(plan.read_text())["commits"]
    assert len(plans) == 3, [p["title"] for p in plans]
    files_of = {p["title"]: _files(repo, p) for p in plans}
    titles = []
    for (prompt, edits), words in zip(TASKS, WORDS):
        matching = [t for t in files_of if all(w in t.lower() for w in words)]
        assert len(matching) == 1, (prompt, list(files_of))
        assert files_of[matching[0]] == sorted(file for _, file, _ in edits), (prompt, files_of)
        titles.append(matching[0])

    terminal.keys("clear; " + " ".join(_quoted(a) for a in segmint_argv()) + " apply --all; echo APPLIED=$?", "Enter")
    terminal.wait_for(lambda s: "APPLIED=" in s.replace("echo APPLIED=$?", ""), "the commits", timeout=120)
    assert "APPLIED=0" in terminal.screen(), terminal.screen()
    assert repo.status() == ""  # every edit committed, nothing else
    made = dict(line.split(" ", 1) for line in repo.git("log", "--format=%H %s", "-3").splitlines())
    assert sorted(made.values()) == sorted(titles)
    for (_, edits), title in zip(TASKS, titles):
        [commit] = [sha for sha, subject in made.items() if subject == title]
        changed = repo.git("diff-tree", "--no-commit-id", "--name-only", "-r", commit).split()
        assert sorted(changed) == sorted(file for _, file, _ in edits), title
        for _, file, content in edits:
            assert repo.git("show", f"{commit}:{file}") == content


def _files(repo: Repo, plan: dict) -> list[str]:
    """The files a plan's hunks are in (hunk ids name their change; the change names its file)."""
    changes = {c["id"]: c["file_path"] for c in json.loads(_segmint_json(repo, "changes"))["changes"]}
    return sorted({changes[h.split(":", 1)[0]] for h in plan["hunk_ids"]} | {changes[c] for c in plan["change_ids"]})


def _segmint_json(repo: Repo, *args: str) -> str:
    import subprocess

    return subprocess.run(
        [*segmint_argv(), *args, "--json"], cwd=repo.path, capture_output=True, text=True, check=True
    ).stdout


def _quoted(arg: str) -> str:
    import shlex

    return shlex.quote(arg)
