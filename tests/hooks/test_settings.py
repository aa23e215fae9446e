"""``segmint hook install|uninstall``: Segmint's entries merged into an agent's settings file, nothing else touched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from segmint_core.hooks.settings import EVENTS, install, uninstall
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo

THEIRS = {
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "PostToolUse": [
            {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": 'prettier --write "$FILE"'}]},
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}],
    },
}


def ours(settings: dict, event: str) -> list[dict]:
    return [
        hook
        for group in settings["hooks"].get(event, [])
        for hook in group["hooks"]
        if hook["command"].startswith("segmint hook")
    ]


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "repo")


def test_install_keeps_every_other_hook_and_setting(repo: Repo) -> None:
    path = repo.path / ".claude" / "settings.json"
    repo.write(".claude/settings.json", json.dumps(THEIRS, indent=4))
    result = run_segmint("hook", "install", "claude-code", cwd=repo.path)
    assert result.returncode == 0, result
    assert "Added Segmint's hooks to .claude/settings.json" in result.stdout
    settings = json.loads(path.read_text())
    assert settings["model"] == "opus" and settings["permissions"] == THEIRS["permissions"]
    assert settings["hooks"]["PostToolUse"][0] == THEIRS["hooks"]["PostToolUse"][0]
    assert settings["hooks"]["Stop"] == THEIRS["hooks"]["Stop"]
    for event in EVENTS["claude-code"]:
        assert [h["command"] for h in ours(settings, event)] == ["segmint hook claude-code"], event
    assert settings["hooks"]["PostToolUse"][1]["matcher"] == "Edit|Write|MultiEdit|NotebookEdit|Bash"
    assert "matcher" not in settings["hooks"]["UserPromptSubmit"][0]


def test_installing_twice_changes_nothing(repo: Repo) -> None:
    repo.write(".claude/settings.json", json.dumps(THEIRS))
    run_segmint("hook", "install", "claude-code", cwd=repo.path)
    once = repo.read(".claude/settings.json")
    again = run_segmint("hook", "install", "claude-code", cwd=repo.path)
    assert again.returncode == 0 and "nothing changed" in again.stdout
    assert repo.read(".claude/settings.json") == once


def test_uninstall_takes_out_ours_only(repo: Repo) -> None:
    repo.write(".claude/settings.json", json.dumps(THEIRS))
    run_segmint("hook", "install", "claude-code", cwd=repo.path)
    result = run_segmint("hook", "uninstall", "claude-code", cwd=repo.path)
    assert result.returncode == 0 and "Removed Segmint's hooks" in result.stdout
    assert json.loads(repo.read(".claude/settings.json")) == THEIRS
    assert "nothing changed" in run_segmint("hook", "uninstall", "claude-code", cwd=repo.path).stdout


def test_uninstall_keeps_a_hook_sharing_a_group_with_ours(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    shared = {
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "Edit",
                    "hooks": [
                        {"type": "command", "command": "segmint hook claude-code"},
                        {"type": "command", "command": "ruff format"},
                    ],
                }
            ]
        }
    }
    path.write_text(json.dumps(shared))
    change = uninstall("claude-code", path)
    assert change.events == ("PostToolUse",)
    assert json.loads(path.read_text()) == {
        "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "ruff format"}]}]}
    }


def test_an_entry_of_ours_a_person_edited_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    edited = {
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "Edit",
                    "hooks": [{"type": "command", "command": "/opt/venv/bin/segmint hook claude-code", "timeout": 2}],
                }
            ]
        }
    }
    path.write_text(json.dumps(edited))
    change = install("claude-code", path)
    assert "PostToolUse" not in change.events
    assert json.loads(path.read_text())["hooks"]["PostToolUse"] == edited["hooks"]["PostToolUse"]


def test_install_creates_a_missing_file(repo: Repo) -> None:
    result = run_segmint("hook", "install", "gemini", cwd=repo.path)
    assert result.returncode == 0, result
    settings = json.loads(repo.read(".gemini/settings.json"))
    assert set(settings["hooks"]) == {"BeforeAgent", "BeforeTool", "AfterTool", "SessionStart", "SessionEnd"}
    hook = settings["hooks"]["AfterTool"][0]
    assert hook["matcher"] == "write_file|replace|run_shell_command"
    assert hook["hooks"][0]["command"] == "segmint hook gemini" and hook["hooks"][0]["name"] == "segmint"


def test_user_scope_writes_in_the_home_folder(repo: Repo, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    result = run_segmint("hook", "install", "claude-code", "--scope", "user", cwd=repo.path, env={"HOME": str(home)})
    assert result.returncode == 0, result
    assert ours(json.loads((home / ".claude" / "settings.json").read_text()), "UserPromptSubmit")
    assert not (repo.path / ".claude").exists()


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('{"hooks": {', "is not valid JSON (line 1, column 12)"),
        ("[1, 2]", "does not hold a JSON object"),
        ('{"hooks": []}', '"hooks" is not an object'),
        ('{"hooks": {"PostToolUse": {"matcher": "x"}}}', "hooks.PostToolUse is not a list"),
    ],
)
def test_a_settings_file_of_another_shape_is_refused_and_left_untouched(
    repo: Repo, content: str, fragment: str
) -> None:
    repo.write(".claude/settings.json", content)
    for action in ("install", "uninstall"):
        result = run_segmint("hook", action, "claude-code", cwd=repo.path)
        if action == "uninstall" and "PostToolUse" in content:
            assert result.returncode == 0  # (nothing of ours to take out of a list it does not read)
            continue
        assert_clean_error(result, fragment)
        assert "left untouched" in result.stderr
        assert repo.read(".claude/settings.json") == content.encode()


def test_the_file_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{}")
    path.chmod(0o640)
    install("claude-code", path)
    assert path.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize("args", [("install",), ("install", "cursor"), ("uninstall", "gemini", "x")])
def test_set_up_needs_a_known_agent(repo: Repo, args: tuple[str, ...]) -> None:
    assert_clean_error(run_segmint("hook", *args, cwd=repo.path), "needs the agent: claude-code or gemini")


def test_project_scope_needs_a_repository(tmp_path: Path) -> None:
    assert_clean_error(run_segmint("hook", "install", "claude-code", cwd=tmp_path), "Not a git repository")
