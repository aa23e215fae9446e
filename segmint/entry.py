"""The ``segmint`` program: ``segmint hook [AGENT]``, which a coding agent runs on every edit, starts
without the command line's parser; everything else goes to ``segmint.cli``.

Importing ``segmint.cli`` loads argparse, about a sixth of the hook's start-up,
so the hook's one plain form (``segmint hook``, ``segmint hook claude-code``,
``segmint hook gemini``, an event piped in) is recognised here first. Any
other form, ``--repo`` or ``--help`` included, is parsed as usual.

The hook never gets in the agent's way: it writes nothing on stdout but what
the agent's protocol expects (nothing for Claude Code, ``{}`` for Gemini CLI,
whose stdout is read as JSON), and exits 0 whatever happens, with one line on
stderr when something could not be recorded.
"""

from __future__ import annotations

import os
import sys

# Nothing else at the top: every other command starts here too, and pays for what is imported.


def main() -> int:
    argv = sys.argv[1:]
    if argv[:1] == ["hook"] and len(argv) <= 2 and not sys.stdin.isatty():
        from segmint.hook_event import record_event
        from segmint_core.hooks.events import AGENTS, CLAUDE_CODE

        if all(a in AGENTS for a in argv[1:]):
            _flush_and_exit(record_event(argv[1] if len(argv) == 2 else CLAUDE_CODE))
    from segmint.cli import main as cli_main

    return cli_main()


def _flush_and_exit(code: int) -> None:
    """End at once, as ``segmint.cli``'s quick exit does: the interpreter's teardown is the agent's wait too."""
    try:
        sys.stdout.flush()
    except OSError:
        pass  # the agent stopped reading: nothing to tell it
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
