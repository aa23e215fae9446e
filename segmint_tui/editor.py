"""Opening the person's editor (``$VISUAL``, else ``$EDITOR``) at a file and line, the app suspended.

Most terminal editors take ``+LINE FILE`` (vi, vim, nvim, nano, emacs, micro,
kakoune, helix); the graphical ones that wait with ``-w`` take ``FILE:LINE``
after ``--goto`` (VS Code and its kin) or as is (Sublime Text, Zed).
"""

from __future__ import annotations

import os
import shlex
import subprocess

from textual.app import App, SuspendNotSupported

from segmint_core.errors import SegmintError

GOTO = {"code", "code-insiders", "codium", "cursor"}  # --goto FILE:LINE
COLON = {"subl", "zed", "mate"}  # FILE:LINE


def editor_command(path: str, line: int | None, environ: dict[str, str] | None = None) -> list[str]:
    """The command that opens ``path`` at ``line``; refused when no editor is set."""
    env = os.environ if environ is None else environ
    setting = env.get("VISUAL") or env.get("EDITOR") or ""
    try:
        words = shlex.split(setting)
    except ValueError as exc:
        raise SegmintError(f"Cannot read the editor command {setting!r}: {exc}") from None
    if not words:
        raise SegmintError("No editor set: set $EDITOR (or $VISUAL), for example export EDITOR=vim")
    name = os.path.basename(words[0])
    if path.startswith(("-", "+")):
        # Else an option or a command to the editor: vim runs `+!cmd` as a shell command.
        path = "./" + path
    if line is None:
        return [*words, path]
    if name in GOTO:
        return [*words, "--goto", f"{path}:{line}"]
    if name in COLON:
        return [*words, f"{path}:{line}"]
    return [*words, f"+{line}", path]


def open_editor(app: App, root: str, path: str, line: int | None) -> str | None:
    """Run the editor on ``path`` (relative to ``root``) with the app suspended, until it exits.

    Returns a warning when the editor exited with an error status; raises
    ``SegmintError`` when the file is gone or the editor cannot start.
    """
    if not os.path.lexists(os.path.join(root, path)):
        raise SegmintError(f"{path} is not in the working tree (deleted): nothing to open")
    command = editor_command(path, line)

    def run() -> int:
        try:
            return subprocess.run(command, cwd=root).returncode
        except OSError as exc:
            raise SegmintError(f"Cannot start the editor {command[0]!r}: {exc.strerror or exc}") from None

    try:
        with app.suspend():
            status = run()
    except SuspendNotSupported:
        status = run()  # no terminal to hand over (a headless test): the editor runs as it is
    return f"The editor exited with status {status}" if status else None
