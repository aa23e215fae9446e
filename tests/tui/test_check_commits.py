"""C checks each commit on its own and marks it ✓ / ✗ / not checked, with the failure on selection;
F applies the verified fix, and z takes it back."""

from __future__ import annotations

from tests.checking.conftest import user_before_definer
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle, until


async def test_check_marks_each_commit_and_fix_merges_the_failing_one(repo: Repo) -> None:
    session = user_before_definer(repo)
    first, second = [p.id for p in session.plans]
    before = [(p.id, p.hunk_ids) for p in session.plans]
    async with running(repo.path) as pilot:
        app = pilot.app
        app.main.focus_pane("commits")
        await settle(pilot)
        await pilot.press("C")
        await until(pilot, lambda: all(p.check for p in app.session.plans), what="the check")
        text = screen_text(app)
        assert "○ proposed · ✗ fails  " in text and "○ proposed · ✓ builds  " in text
        assert any(f"{first} ✗ (1/2)" in n for n in notifications(app)), "progress, commit by commit"
        app.main.commits.highlighted = 0
        await settle(pilot)
        assert f"uses `double_value`, which only {second} defines" in screen_text(app)

        await pilot.press("F")
        await until(pilot, lambda: len(app.session.plans) == 1, what="the fix")
        assert any("Fixed: merge" in n for n in notifications(app))
        assert "✓ builds" in screen_text(app) and "✗ fails" not in screen_text(app)

        await pilot.press("z")
        await until(pilot, lambda: len(app.session.plans) == 2, what="the undo")
        assert [(p.id, p.hunk_ids) for p in app.session.plans] == before


async def test_a_command_from_the_repository_asks_before_it_runs(repo: Repo, tmp_path) -> None:
    marker = tmp_path / "ran"
    user_before_definer(repo, f'[tool.segmint]\ncheck = "touch {marker}"\n')
    async with running(repo.path) as pilot:
        app = pilot.app
        app.main.focus_pane("commits")
        await settle(pilot)
        await pilot.press("C")
        await settle(pilot)
        assert "Run `touch" in screen_text(app)
        await pilot.press("n")
        await settle(pilot)
        assert not marker.exists() and not any(p.check for p in app.session.plans)
        await pilot.press("C")
        await settle(pilot)
        await pilot.press("y")
        await until(pilot, lambda: all(p.check for p in app.session.plans), what="the check")
        assert marker.exists()
