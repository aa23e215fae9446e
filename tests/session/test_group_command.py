"""``segmint group`` shows the session's groups, the ones the TUI shows; ``--new`` groups afresh."""

from __future__ import annotations

import json

import pytest

from tests.session.conftest import one_group_per_hunk, open_session
from tests.support.cli import run_segmint
from tests.support.repo import Repo


def segmint(repo: Repo, *args: str):
    return run_segmint(*args, "--repo", str(repo.path), env={"SEGMINT_CHAT_MODEL": "", "SEGMINT_EMBEDDINGS": ""})


def test_group_shows_the_sessions_groups_and_new_groups_afresh(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)  # as a person would reshape them in the TUI
    session.update_group(session.groups[0].id, "Say how to use it")
    shown = json.loads(segmint(two_intents, "group", "--json").stdout)["groups"]
    assert [(g["id"], g["hunk_ids"]) for g in shown] == [(g.id, g.hunk_ids) for g in session.groups]
    assert shown[0]["summary"] == "Say how to use it"
    assert "Say how to use it" in segmint(two_intents, "group").stdout

    fresh = json.loads(segmint(two_intents, "group", "--new", "--json").stdout)["groups"]
    session.catch_up()
    assert [g["id"] for g in fresh] == [g.id for g in session.groups]
    assert len(fresh) < 3 and all(g["summary"] != "Say how to use it" for g in fresh)


@pytest.mark.parametrize(("command", "shown"), [("group", "group-1"), ("plan", "commit-1")])
def test_group_and_plan_run_with_the_cycle_collector_paused(
    two_intents: Repo, monkeypatch, capsys, command: str, shown: str
) -> None:
    """The whole command makes many objects and no cycles: the collector is paused while it
    runs (as in grouping), and on again afterwards."""
    import gc
    from importlib import import_module

    from segmint.cli import main

    module = import_module(f"segmint.cli.{command}")
    seen: list[bool] = []
    opened = module.open_session

    def opening(*args, **kwargs):
        seen.append(gc.isenabled())
        return opened(*args, **kwargs)

    monkeypatch.setattr(module, "open_session", opening)
    monkeypatch.setenv("SEGMINT_CHAT_MODEL", "")
    monkeypatch.setenv("SEGMINT_EMBEDDINGS", "")
    assert gc.isenabled()
    assert main([command, "--repo", str(two_intents.path)]) == 0
    assert seen == [False] and gc.isenabled()
    assert shown in capsys.readouterr().out
