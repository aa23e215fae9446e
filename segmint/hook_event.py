"""One hook event of a coding agent, read on stdin and recorded: what ``segmint hook`` does, in either start."""

from __future__ import annotations

import os
import sys

MAX_EVENT_BYTES = 16 << 20  # a Write of a large file carries its content; past this, not an event we read


def record_event(agent: str, repo: str | None = None) -> int:
    """Read one hook event of ``agent`` on stdin and record it; always 0."""
    import json
    from dataclasses import replace

    from segmint_core.errors import SegmintError
    from segmint_core.hooks.events import GEMINI

    problem = None
    try:
        from segmint_core.hooks.events import read_event
        from segmint_core.hooks.recording import apply_event

        raw = sys.stdin.buffer.read(MAX_EVENT_BYTES + 1)
        if len(raw) > MAX_EVENT_BYTES:
            problem = "the hook event is larger than 16 MB; nothing was recorded."
        else:
            event = read_event(agent, json.loads(raw or b"null"))
            if repo:  # named by the person who set the hook up: it wins over the agent's cwd
                event = replace(event, cwd=os.path.abspath(repo))
            apply_event(event, os.getcwd())
    except json.JSONDecodeError as exc:
        problem = f"the hook event is not JSON ({exc.msg} at line {exc.lineno}); nothing was recorded."
    except SegmintError as exc:
        problem = f"{exc} (nothing was recorded)"
    except Exception as exc:  # never the agent's problem: said, and the agent goes on
        problem = f"could not record the event: {type(exc).__name__}: {exc}"
    if agent == GEMINI:
        sys.stdout.write("{}\n")
    if problem:
        print(f"segmint hook: {' '.join(problem.split())}", file=sys.stderr)
    return 0
