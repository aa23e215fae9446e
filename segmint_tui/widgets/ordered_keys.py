"""Text fields that apply keys in the order they were typed, however fast they come.

Textual's ``Input`` and ``TextArea`` insert a printable key as soon as it
arrives, but an editing key (backspace, delete, arrows, home, ...) is a
binding, run only once its event has bubbled up to the app, behind every key
already queued there (Textual issue 6605). A burst (fast typing through tmux, a
paste of keystrokes, a key-repeat) then applied the letters first and the
backspaces after them, eating what was just typed. These fields run their
own binding for such a key as it arrives, as the app would have run it; keys
bound elsewhere (escape in an editor) still travel up as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.widget import Widget
from textual.widgets import Input, TextArea


if TYPE_CHECKING:
    _Widget = Widget
else:
    _Widget = object


class OrderedKeys(_Widget):
    """Mixed in before a text widget: its non-printable keys' bindings run inline.

    (A plain class when run, a Widget to the type checker: a Widget subclass here would pin
    ``can_focus`` to False for the mix.)
    """

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable and await self._run_binding(event.key):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    async def _run_binding(self, key: str) -> bool:
        # Priority bindings ran before the key reached this widget; the chain
        # the app would search starts here, so this widget's own binding is first.
        widget: Widget = self
        active = widget.screen.active_bindings.get(key)
        if active is None or active.node is not widget or active.binding.priority or not active.enabled:
            return False
        return await widget.app.run_action(active.binding.action, active.node)


class OrderedInput(OrderedKeys, Input):
    pass


class OrderedTextArea(OrderedKeys, TextArea):
    pass
