"""Typing at speed: keys that arrive in one burst take effect in the order they were typed.

Textual's Input and TextArea insert a printable key at once, but run an
editing key (backspace, arrows, ...) as a binding only after its event has
bubbled up to the app, behind every key already queued there (Textual issue
6605). A burst of backspaces and letters then applied the letters first and
the backspaces after them, eating what was typed.
"""

from __future__ import annotations

from textual import events
from textual.keys import _character_to_key

from segmint_tui.app import SegmintApp
from tests.support.repo import Repo
from tests.tui.support import running, settle

TITLE = "feat(inventory): restock refuses zero amounts and reports what it changed"


def burst(app: SegmintApp, keys: list[str | tuple[str, str | None]]) -> None:
    """Post every key at once, as the terminal driver does when it reads them in one go."""
    for key in keys:
        name, char = key if isinstance(key, tuple) else (_character_to_key(key), key)
        app._driver.send_message(events.Key(name, char))


async def test_a_burst_of_backspaces_and_a_new_title_is_saved_as_typed(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("enter")
        assert app.focused is app.main.editor.title_input
        burst(app, [("backspace", "\x7f")] * 90 + list(TITLE))
        await settle(pilot)
        assert app.main.editor.title_input.value == TITLE
        burst(app, [("escape", "\x1b")])
        await settle(pilot)
        assert app.focused is app.main.commits
        assert app.session.plans[0].title == TITLE


async def test_a_burst_in_the_body_keeps_its_order_too(demo: Repo) -> None:
    async with running(demo.path) as pilot:
        app = pilot.app
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("enter", "enter")
        assert app.focused is app.main.editor.body
        body = app.main.editor.body
        body.load_text("")
        burst(app, list("abc") + [("backspace", "\x7f")] * 2 + list("xy") + [("left", None)] + list("Z"))
        await settle(pilot)
        assert body.text == "axZy"
