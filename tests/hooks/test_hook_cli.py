"""``segmint hook``: the agents' real payloads on stdin, the provenance record in a real repository after."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from segmint_core.trajectory.provenance import current_intent
from segmint_core.trajectory.provenance.store import Store, blob_id
from tests.hooks.payloads import payload
from tests.support.cli import CliResult, run_segmint
from tests.support.repo import Repo


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.write("app.py", "print('hi')\n")
    repo.write(".gitignore", "secrets.env\nbuild/\n")
    repo.commit("base")
    return repo


def hook(data: object, *args: str, cwd: Path) -> CliResult:
    return run_segmint("hook", *args, cwd=cwd, input=data if isinstance(data, str) else json.dumps(data))


def events(repo: Repo, kind: str) -> list[dict]:
    return [e for e in Store(repo.path).events() if e["kind"] == kind] if Store(repo.path).exists() else []


def quiet(result: CliResult, stdout: str = "") -> None:
    assert (result.returncode, result.stdout, result.stderr) == (0, stdout, ""), result


def test_a_prompt_then_an_edit_are_recorded_under_it(repo: Repo) -> None:
    quiet(
        hook(
            payload("claude-code", "user_prompt_submit", repo.path, prompt="Fix the crash on an empty config"),
            cwd=repo.path,
        )
    )
    intent = current_intent(repo.path, source="claude-code", session_id="abc123")
    assert intent is not None and intent.text == "Fix the crash on an empty config"
    repo.write("app.py", "print('fixed')\n")
    quiet(hook(payload("claude-code", "post_tool_use_edit", repo.path, file="app.py"), "claude-code", cwd=repo.path))
    [edit] = events(repo, "edit")
    assert edit["intent"] == intent.id and edit["session"] == "abc123" and edit["source"] == "claude-code"
    assert edit["files"] == {"app.py": blob_id(b"print('fixed')\n")}


@pytest.mark.parametrize("name", ["post_tool_use_write", "post_tool_use_multi_edit", "post_tool_use_notebook_edit"])
def test_every_file_tool_snapshots_its_file(repo: Repo, name: str) -> None:
    hook(payload("claude-code", "user_prompt_submit", repo.path), cwd=repo.path)
    repo.write("nb/new.ipynb", "{}\n")
    quiet(hook(payload("claude-code", name, repo.path, file="nb/new.ipynb"), cwd=repo.path))
    assert [e["files"] for e in events(repo, "edit")] == [{"nb/new.ipynb": blob_id(b"{}\n")}]


def test_a_shell_command_snapshots_what_it_changed(repo: Repo) -> None:
    hook(payload("claude-code", "user_prompt_submit", repo.path, prompt="Regenerate the docs"), cwd=repo.path)
    repo.write("docs/a.md", "a\n")
    repo.write("app.py", "print('changed by a script')\n")
    quiet(hook(payload("claude-code", "post_tool_use_bash", repo.path), cwd=repo.path))
    [edit] = events(repo, "edit")
    assert sorted(edit["files"]) == ["app.py", "docs/a.md"]


def test_ignored_files_and_files_outside_are_never_recorded(repo: Repo, tmp_path: Path) -> None:
    hook(payload("claude-code", "user_prompt_submit", repo.path), cwd=repo.path)
    repo.write("secrets.env", "API_TOKEN=abc\n")
    repo.write("build/out.js", "x\n")
    (tmp_path / "outside.py").write_text("x\n")
    for file in ("secrets.env", "build/out.js", "../outside.py", ".git/config"):
        quiet(hook(payload("claude-code", "post_tool_use_write", repo.path, file=file), cwd=repo.path))
    assert events(repo, "edit") == []
    assert not any(b"API_TOKEN" in p.read_bytes() for p in Store(repo.path).blobs_dir.rglob("*") if p.is_file())


def test_a_secret_in_a_prompt_is_masked_and_the_task_kept(repo: Repo) -> None:
    prompt = "Fix the login. My token is ghp_abcdefghijklmnopqrstuvwxyz0123456789 if you need it."
    quiet(hook(payload("claude-code", "user_prompt_submit", repo.path, prompt=prompt), cwd=repo.path))
    intent = current_intent(repo.path)
    assert intent.text.startswith("Fix the login. ") and "ghp_" not in intent.text
    assert "ghp_" not in Store(repo.path).events_path.read_text()


def test_sessions_are_marked_and_their_end_ends_the_intent(repo: Repo) -> None:
    quiet(hook(payload("claude-code", "session_start"), cwd=repo.path))
    hook(payload("claude-code", "user_prompt_submit", repo.path), cwd=repo.path)
    quiet(hook(payload("claude-code", "session_end", repo.path), cwd=repo.path))
    assert [(e["event"], e["session"]) for e in events(repo, "session")] == [("start", "abc123"), ("end", "abc123")]
    assert current_intent(repo.path, source="claude-code", session_id="abc123") is None


def test_gemini_cli_gets_json_on_stdout_and_is_recorded(repo: Repo) -> None:
    quiet(hook(payload("gemini", "before_agent", repo.path), "gemini", cwd=repo.path), stdout="{}\n")
    repo.write("build.sh", "#!/bin/sh\nset -eu\n")
    quiet(
        hook(payload("gemini", "after_tool_replace", repo.path, file="build.sh"), "gemini", cwd=repo.path),
        stdout="{}\n",
    )
    [edit] = events(repo, "edit")
    assert edit["source"] == "gemini" and edit["session"] == "f1b2c3d4-session" and list(edit["files"]) == ["build.sh"]
    assert current_intent(repo.path).text == "Add a --verbose flag to the build script"


def test_other_tools_and_events_record_nothing(repo: Repo) -> None:
    quiet(hook(payload("claude-code", "post_tool_use_read", repo.path, file="app.py"), cwd=repo.path))
    quiet(hook({"hook_event_name": "Stop", "session_id": "abc123", "cwd": str(repo.path)}, cwd=repo.path))
    assert not Store(repo.path).exists()


def one_line_and_exit_0(result: CliResult, fragment: str, stdout: str = "") -> None:
    assert result.returncode == 0, result
    assert result.stdout == stdout
    assert result.stderr.startswith("segmint hook: ") and result.stderr.count("\n") == 1, result.stderr
    assert fragment in result.stderr and "Traceback" not in result.stderr


def test_outside_a_repository_it_says_so_and_exits_0(tmp_path: Path) -> None:
    one_line_and_exit_0(
        hook(payload("claude-code", "user_prompt_submit", tmp_path), cwd=tmp_path), "Not a git repository"
    )
    one_line_and_exit_0(
        hook(payload("gemini", "before_agent", tmp_path), "gemini", cwd=tmp_path), "Not a git repository", stdout="{}\n"
    )


def test_a_damaged_record_is_said_in_one_line_and_the_agent_goes_on(repo: Repo) -> None:
    hook(payload("claude-code", "user_prompt_submit", repo.path), cwd=repo.path)
    state = Store(repo.path).state_path
    state.write_text("{ not json")
    repo.write("app.py", "changed\n")
    one_line_and_exit_0(
        hook(payload("claude-code", "post_tool_use_edit", repo.path, file="app.py"), cwd=repo.path), "damaged"
    )
    assert state.read_text() == "{ not json"


@pytest.mark.parametrize(("data", "fragment"), [("not json", "is not JSON"), ("", ""), ("[1]", "")])
def test_bad_input_never_fails_the_agent(repo: Repo, data: str, fragment: str) -> None:
    result = hook(data, cwd=repo.path)
    if fragment:
        one_line_and_exit_0(result, fragment)
    else:
        quiet(result)


def test_an_unknown_agent_is_a_usage_error(repo: Repo) -> None:
    result = hook("{}", "cursor", cwd=repo.path)
    assert result.returncode == 2 and "Unknown hook target 'cursor'" in result.stderr


def test_the_hook_imports_no_ui_no_numpy_no_mcp_and_no_parser(repo: Repo) -> None:
    """Run once per agent event: its start-up is the agent's wait (``segmint.entry`` skips the parser)."""
    import subprocess

    repo.write("app.py", "x\n")
    data = json.dumps(payload("claude-code", "post_tool_use_edit", repo.path, file="app.py"))
    probe = (
        "import os, sys; import segmint.entry as e; sys.argv = ['segmint', 'hook']\n"
        "def done(code):\n"
        "    sys.stderr.write(' '.join(sorted(m.split('.')[0] for m in sys.modules))); sys.stderr.flush()\n"
        "    os._exit(code)\n"
        "e._flush_and_exit = done; e.main(); os._exit(3)"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=repo.path, input=data, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stderr.split())
    assert "segmint_core" in loaded
    assert not loaded & {
        "textual",
        "numpy",
        "mcp",
        "mcp_types",
        "pydantic",
        "openai",
        "tree_sitter",
        "watchdog",
        "argparse",
    }


def test_a_persons_edit_before_the_agents_is_not_credited_to_the_agent(repo: Repo) -> None:
    """PreToolUse snapshots the file with no intent, so the PostToolUse snapshot holds only the agent's lines."""
    from segmint_core.changes import capture
    from segmint_core.git import Git
    from segmint_core.trajectory.provenance.attribution import line_provenance

    hook(payload("claude-code", "user_prompt_submit", repo.path, prompt="Log the greeting"), cwd=repo.path)
    repo.write("app.py", "import sys\nprint('hi')\n")  # the person, no hook
    quiet(hook(payload("claude-code", "pre_tool_use_edit", repo.path, file="app.py"), cwd=repo.path))
    repo.write("app.py", "import sys\nprint('hi')\nprint('logged', file=sys.stderr)\n")  # the agent
    quiet(hook(payload("claude-code", "post_tool_use_edit", repo.path, file="app.py"), cwd=repo.path))
    changes = capture(Git(repo.path))
    provenance = line_provenance(repo.path, changes)
    [hunk] = changes.changes[0].hunks
    owners = {line: owner for line, owner in zip(hunk.lines, provenance.owners[hunk.id]) if line[:1] == "+"}
    intent = current_intent(repo.path).id
    assert owners == {"+import sys": None, "+print('logged', file=sys.stderr)": intent}
