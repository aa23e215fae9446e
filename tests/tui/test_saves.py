"""The person's saves recorded while the app is open, under what they said they work on (``i``, ``I``)."""

from __future__ import annotations

from pathlib import Path

from segmint.cli import build_parser
from segmint.cli.tui_launcher import tui_options
from segmint_core.trajectory.provenance import current_intent
from segmint_core.trajectory.provenance.store import Store, blob_id
from segmint_tui.widgets.activity_panel import ActivityPanel
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle, type_text, until


def saves(repo: Repo) -> list[dict]:
    store = Store(repo.path)
    return [e for e in store.events() if e["kind"] == "edit" and e["source"] == "tui"] if store.exists() else []


async def test_a_save_is_recorded_under_the_task_the_person_said(demo: Repo) -> None:
    async with running(demo.path, watch=True) as pilot:
        app = pilot.app
        await until(pilot, lambda: "recording saves" in screen_text(app), what="the recording status")
        await pilot.press("i")
        await settle(pilot)
        said = " ".join(screen_text(app).replace("│", " ").split())
        assert "grouping and commit titles follow it." in said, "the dialog's context wraps, never cut"
        await type_text(pilot, "fix the crash on an empty config")
        await pilot.press("enter")
        await until(pilot, lambda: current_intent(demo.path, source="tui") is not None, what="the intent")
        intent = current_intent(demo.path, source="tui")
        assert (intent.text, intent.source) == ("fix the crash on an empty config", "tui")
        await until(
            pilot,
            lambda: "working on: fix the crash on an empty config" in screen_text(app),
            what="the intent in the status line",
        )
        demo.write("notes.txt", "EMPTY = {}\n")
        await until(
            pilot, lambda: any("notes.txt" in e["files"] for e in saves(demo)), timeout=20, what="the save recorded"
        )
        [save] = [e for e in saves(demo) if "notes.txt" in e["files"]]
        assert save["intent"] == intent.id and save["files"]["notes.txt"] == blob_id(b"EMPTY = {}\n")

        await pilot.press("I")
        await until(pilot, lambda: current_intent(demo.path, source="tui") is None, what="the task finished")
        await settle(pilot)
        assert "Finished: fix the crash on an empty config" in notifications(app)
        assert "recording saves (i: say the task)" in screen_text(app)


async def test_recording_turned_off_records_nothing(demo: Repo) -> None:
    async with running(demo.path, watch=True, record_saves=False) as pilot:
        app = pilot.app
        await until(pilot, lambda: "saves not recorded (turned off)" in screen_text(app), what="the status")
        demo.write("notes.txt", "saved\n")
        await until(
            pilot,
            lambda: any(c.file_path == "notes.txt" for c in app.session.changes),
            timeout=20,
            what="the refresh after the save",
        )
        assert saves(demo) == []


def test_no_record_and_the_setting_turn_it_off(demo: Repo, monkeypatch, tmp_path: Path) -> None:
    parse = build_parser().parse_args
    assert tui_options(parse(["--repo", str(demo.path)])).record_saves is True
    assert tui_options(parse(["--repo", str(demo.path), "--no-record"])).record_saves is False
    monkeypatch.setenv("SEGMINT_RECORD_SAVES", "0")
    assert tui_options(parse(["--repo", str(demo.path)])).record_saves is False
    monkeypatch.delenv("SEGMINT_RECORD_SAVES")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "segmint").mkdir()
    (tmp_path / "segmint" / "config.toml").write_text("record_saves = false\n")
    assert tui_options(parse(["--repo", str(demo.path)])).record_saves is False


async def test_a_saves_worker_finishing_as_the_screen_closes_refreshes_nothing(demo: Repo) -> None:
    # CI: the saves worker's last refresh ran after the app had taken down its panels, and its
    # `NoMatches` failed the run; a late refresh has nothing left to show
    async with running(demo.path) as pilot:
        main = pilot.app.main
        await main.query_one(ActivityPanel).remove()
        main.refresh_activity()
        await settle(pilot)
        assert not main.query(ActivityPanel)
