"""In the TUI, u takes back Segmint's last whole operation: every commit of one apply --all."""

from __future__ import annotations

from segmint_core.session.session import Session
from tests.support.repo import Repo
from tests.tui.support import notifications, running, settle


async def test_u_takes_back_all_commits_of_one_apply_all(demo: Repo) -> None:
    base = demo.head()
    status = demo.git("status", "--porcelain")
    session = Session.open(str(demo.path))
    session.regroup()
    session.propose_commits()
    made = session.apply_all()  # by the command line, say, before the person opens the TUI
    assert len(made) >= 2
    async with running(demo.path, session=session) as pilot:
        await pilot.press("2", "u")
        await settle(pilot)
        assert demo.head() == base and demo.git("status", "--porcelain") == status
        said = notifications(pilot.app)[-1]
        assert said.startswith("Undid op-1 (") and f"{len(made)} commits" in said, said
