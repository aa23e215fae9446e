"""`segmint` with no sub-command: its flags, and a clean refusal outside a repository."""

from __future__ import annotations

from pathlib import Path

from segmint.cli import build_parser
from segmint.cli.tui_launcher import tui_options
from segmint_tui.app import app_from_options
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo
from tests.tui.support import settle


def test_outside_a_repository_one_sentence_and_status_2(tmp_path: Path) -> None:
    result = run_segmint("--no-mcp", cwd=tmp_path)
    assert_clean_error(result, "Not a git repository")


async def test_the_flags_reach_the_app(demo: Repo) -> None:
    args = build_parser().parse_args(["--repo", str(demo.path), "--no-mcp", "--agent-can-commit"])
    app = app_from_options(tui_options(args))
    assert (app.pairing.enabled, app.agent_can_commit) == (False, True)
    async with app.run_test() as pilot:  # the session opens once the app is up
        await settle(pilot)
        assert app.session.git.root == str(demo.path)
    default = app_from_options(tui_options(build_parser().parse_args(["--repo", str(demo.path)])))
    assert (default.pairing.enabled, default.agent_can_commit) == (True, False)


def test_allowed_folders_reach_the_embedded_server(demo: Repo, tmp_path: Path) -> None:
    folder = tmp_path / "patches"
    folder.mkdir()
    args = build_parser().parse_args(["--repo", str(demo.path), "--allow-root", str(folder)])
    assert app_from_options(tui_options(args)).pairing.allowed_roots == (str(folder.resolve()),)
    result = run_segmint("--allow-root", str(tmp_path / "missing"), cwd=demo.path)
    assert_clean_error(result, f"--allow-root {tmp_path / 'missing'} is not a folder.")
