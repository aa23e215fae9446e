"""The Segmint skill: SKILL.md as shipped, naming only tools and commands that exist, and
``segmint skill --install`` writing it where asked, with clear refusals."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from mcp import Client

from segmint.cli import COMMANDS
from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from segmint_core.skill import skill_text
from tests.mcp.support import make_changes
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo

WORKFLOW = {
    "check_lazygit_messages",
    "list_changes",
    "group_changes",
    "move_hunks",
    "merge_groups",
    "update_group",
    "get_session",
    "propose_commits",
    "update_commit",
    "reorder_commits",
    "apply_commit",
    "generate_pr",
}


def front_matter(text: str) -> dict[str, str]:
    """The ``key: value`` lines between the opening ``---`` and the next one."""
    assert text.startswith("---\n")
    head, _, body = text[4:].partition("\n---\n")
    assert body.strip(), "instructions follow the front matter"
    fields = dict(line.split(": ", 1) for line in head.splitlines())
    for value in fields.values():  # plain YAML scalars: no ": " or " #" inside, no indicator first
        assert ": " not in value and " #" not in value and value[0] not in "'\"`[]{}>|*&!%@#", value
    return fields


def test_the_front_matter_is_an_agent_skill() -> None:
    fields = front_matter(skill_text())
    assert set(fields) == {"name", "description"}
    assert fields["name"] == "segmint" and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", fields["name"])
    assert 1 <= len(fields["description"]) <= 1024 and "Use when" in fields["description"]


async def test_the_skill_names_only_tools_that_exist_and_the_whole_workflow(repo: Repo) -> None:
    async with Client(build_server(Session.open(str(make_changes(repo).path))), mode="legacy") as client:
        tools = (await client.list_tools()).tools
        prompts = {p.name for p in (await client.list_prompts()).prompts}
    arguments = {name for t in tools for name in t.input_schema.get("properties", {})}
    known = {t.name for t in tools} | arguments | prompts | {"changes_revision", "awaiting_approval"}
    named = set(re.findall(r"`([a-z]+(?:_[a-z0-9]+)+)(?:: [^`]*)?`", skill_text()))
    assert named - known == set()
    assert WORKFLOW <= named


def test_every_command_line_in_the_skill_runs(repo: Repo) -> None:
    """The skill's command block, run in order on a dirty repository (COMMIT_ID: the first plan)."""
    make_changes(repo)
    block = skill_text().split("```bash\n", 1)[1].split("```", 1)[0]
    lines = [shlex.split(line.split("#", 1)[0]) for line in block.splitlines()]
    assert {words[1] for words in lines} <= set(COMMANDS)
    for words in lines:
        args = ["commit-1" if w == "COMMIT_ID" else w for w in words[1:]]
        result = run_segmint(*args, cwd=repo.path)
        assert result.returncode == 0, (args, result.stderr)
    assert "commit-1" not in repo.git("log", "--format=%s")  # undo took the commit back
    assert repo.git("rev-list", "--count", "HEAD").strip() == "1"


def test_install_writes_the_skill_into_a_skills_folder(tmp_path: Path) -> None:
    result = run_segmint("skill", "--install", "--path", str(tmp_path / "skills"))
    target = tmp_path / "skills" / "segmint" / "SKILL.md"
    assert result.returncode == 0, result.stderr
    assert str(target) in result.stdout and target.read_text() == skill_text()
    own_folder = run_segmint("skill", "--install", "--path", str(tmp_path / "project" / "segmint"))
    assert own_folder.returncode == 0 and (tmp_path / "project" / "segmint" / "SKILL.md").read_text() == skill_text()


def test_install_defaults_to_the_users_claude_code_skills(tmp_path: Path) -> None:
    home = Path.home()  # a temporary HOME for every test (tests/conftest.py)
    result = run_segmint("skill", "--install", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (home / ".claude" / "skills" / "segmint" / "SKILL.md").read_text() == skill_text()


def test_an_existing_skill_is_kept_unless_forced(tmp_path: Path) -> None:
    target = tmp_path / "segmint" / "SKILL.md"
    assert run_segmint("skill", "--install", "--path", str(tmp_path)).returncode == 0
    again = run_segmint("skill", "--install", "--path", str(tmp_path))
    assert again.returncode == 0 and "unchanged" in again.stdout
    target.write_text("---\nname: segmint\ndescription: my own\n---\nmine\n")
    refused = run_segmint("skill", "--install", "--path", str(tmp_path))
    assert_clean_error(refused, "already exists")
    assert "--force" in refused.stderr and target.read_text().endswith("mine\n")
    forced = run_segmint("skill", "--install", "--path", str(tmp_path), "--force")
    assert forced.returncode == 0 and "Replaced" in forced.stdout and target.read_text() == skill_text()


def test_an_unwritable_place_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder\n")
    assert_clean_error(run_segmint("skill", "--install", "--path", str(tmp_path / "a-file")), "is a file, not a folder")
    (tmp_path / "segmint" / "SKILL.md").mkdir(parents=True)
    assert_clean_error(run_segmint("skill", "--install", "--path", str(tmp_path)), "it is a folder")
    assert_clean_error(run_segmint("skill", "--path", str(tmp_path)), "go with --install")
    (tmp_path / "gone").symlink_to(tmp_path / "moved-away")
    assert_clean_error(
        run_segmint("skill", "--install", "--path", str(tmp_path / "gone")),
        f"{tmp_path / 'gone'} is a link to {tmp_path / 'moved-away'}, which does not exist",
    )


def test_a_folder_that_cannot_be_made_is_one_sentence(tmp_path: Path) -> None:
    too_long = tmp_path / ("x" * 300)
    assert_clean_error(run_segmint("skill", "--install", "--path", str(too_long)), "File name too long")
    if Path("/proc/self").is_dir():  # Linux: no folder can be made in /proc
        assert_clean_error(
            run_segmint("skill", "--install", "--path", "/proc/no-such-folder"),
            "Cannot write /proc/no-such-folder/segmint/SKILL.md: No such file or directory",
        )


def test_without_install_the_skill_is_printed() -> None:
    result = run_segmint("skill")
    assert result.returncode == 0 and result.stdout == skill_text()
