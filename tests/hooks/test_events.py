"""Reading the agents' real hook payloads into what they ask of the record."""

from __future__ import annotations

import pytest

from segmint_core.hooks.events import (
    BEFORE_EDIT,
    CLAUDE_CODE,
    EDIT,
    GEMINI,
    IGNORED,
    PROMPT,
    SESSION,
    SHELL,
    project_paths,
    read_event,
)
from tests.hooks.payloads import names, payload

EXPECTED = {
    (CLAUDE_CODE, "user_prompt_submit"): PROMPT,
    (CLAUDE_CODE, "post_tool_use_write"): EDIT,
    (CLAUDE_CODE, "post_tool_use_edit"): EDIT,
    (CLAUDE_CODE, "post_tool_use_multi_edit"): EDIT,
    (CLAUDE_CODE, "post_tool_use_notebook_edit"): EDIT,
    (CLAUDE_CODE, "post_tool_use_bash"): SHELL,
    (CLAUDE_CODE, "post_tool_use_read"): IGNORED,
    (CLAUDE_CODE, "pre_tool_use_edit"): BEFORE_EDIT,
    (CLAUDE_CODE, "session_start"): SESSION,
    (CLAUDE_CODE, "session_end"): SESSION,
    (GEMINI, "before_agent"): PROMPT,
    (GEMINI, "after_tool_write_file"): EDIT,
    (GEMINI, "after_tool_replace"): EDIT,
    (GEMINI, "after_tool_run_shell_command"): SHELL,
    (GEMINI, "before_tool_replace"): BEFORE_EDIT,
    (GEMINI, "session_start"): SESSION,
    (GEMINI, "session_end"): SESSION,
}


def test_every_kept_payload_is_read() -> None:
    assert sorted(EXPECTED) == sorted((a, n) for a in (CLAUDE_CODE, GEMINI) for n in names(a))


@pytest.mark.parametrize(("agent", "name"), sorted(EXPECTED))
def test_a_payload_asks_what_its_event_means(agent: str, name: str) -> None:
    event = read_event(agent, payload(agent, name))
    assert event.action == EXPECTED[agent, name]
    assert event.session_id in ("abc123", "f1b2c3d4-session")


def test_a_prompt_keeps_its_text_and_session() -> None:
    event = read_event(CLAUDE_CODE, payload(CLAUDE_CODE, "user_prompt_submit"))
    assert (event.prompt, event.session_id, event.prompt_id) == (
        "Write a function to calculate the factorial of a number",
        "abc123",
        None,
    )
    with_id = {**payload(CLAUDE_CODE, "user_prompt_submit"), "prompt_id": "p-7"}
    assert read_event(CLAUDE_CODE, with_id).prompt_id == "p-7"
    assert read_event(GEMINI, payload(GEMINI, "before_agent")).prompt == "Add a --verbose flag to the build script"


def test_edits_name_the_files_they_touched() -> None:
    assert read_event(CLAUDE_CODE, payload(CLAUDE_CODE, "post_tool_use_edit")).paths == ("/path/to/file.txt",)
    assert read_event(CLAUDE_CODE, payload(CLAUDE_CODE, "post_tool_use_notebook_edit")).paths == (
        "/path/to/notebook.ipynb",
    )
    assert read_event(GEMINI, payload(GEMINI, "after_tool_replace")).paths == ("/home/user/project/build.sh",)
    assert read_event(CLAUDE_CODE, payload(CLAUDE_CODE, "pre_tool_use_edit")).paths == ("/path/to/file.txt",)
    assert read_event(GEMINI, payload(GEMINI, "before_tool_replace")).paths == ("/home/user/project/build.sh",)
    older = payload(CLAUDE_CODE, "post_tool_use_multi_edit")
    older["tool_input"]["edits"][1]["file_path"] = "/path/to/other.txt"
    assert read_event(CLAUDE_CODE, older).paths == ("/path/to/file.txt", "/path/to/other.txt")


def test_sessions_start_and_end() -> None:
    assert read_event(CLAUDE_CODE, payload(CLAUDE_CODE, "session_start")).session_event == "start"
    assert read_event(GEMINI, payload(GEMINI, "session_end")).session_event == "end"


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "text",
        {},
        {"hook_event_name": "UserPromptSubmit", "prompt": "  "},
        {"hook_event_name": "PostToolUse", "tool_name": "Edit", "tool_input": "x"},
        {"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": {"file_path": 3}},
        {"hook_event_name": "Stop"},
    ],
)
def test_anything_else_is_ignored(data: object) -> None:
    assert read_event(CLAUDE_CODE, data).action == IGNORED


def test_an_agents_own_event_names_only() -> None:
    """Gemini's BeforeAgent is no Claude Code event, and UserPromptSubmit is none of Gemini's."""
    assert read_event(CLAUDE_CODE, payload(GEMINI, "before_agent")).action == IGNORED
    assert read_event(GEMINI, payload(CLAUDE_CODE, "user_prompt_submit")).action == IGNORED


def test_paths_are_taken_into_the_project_and_no_further(tmp_path) -> None:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    paths = (str(root / "src" / "a.py"), "src/b.py", str(tmp_path / "elsewhere.py"), "../up.py", str(root))
    assert project_paths(paths, str(root), str(root)) == ["src/a.py", "src/b.py"]
    assert project_paths(("a.py",), str(root / "src"), str(root)) == ["src/a.py"]
