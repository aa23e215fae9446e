"""A repository the engine groups in three, and model answers over it, for the refinement tests
(the model itself is the local stand-in endpoint, tests/support/openai_standin.py, a test double)."""

from __future__ import annotations

import json

from segmint_core.config import Settings
from segmint_core.session.session import Session
from tests.support.repo import Repo

OFFLINE = {"group-1": ["change-1:1"], "group-2": ["change-2:1"], "group-3": ["change-3:1", "change-3:2"]}
REVIEW = "You review how a tool grouped"  # how the refinement's system prompt starts


def three_groups(repo: Repo) -> Repo:
    """Grouped offline: group-1 the guide, group-2 setup.cfg, group-3 two hunks of parser.py."""
    gap = "\n" * 12
    repo.write("src/parser.py", f"def parse(s):\n    return s\n{gap}\ndef render(x):\n    return str(x)\n")
    repo.write("docs/guide.md", "# Guide\n\nUse it.\n")
    repo.write("setup.cfg", "[metadata]\nname = x\n")
    repo.commit()
    repo.write("src/parser.py", f"def parse(s):\n    return s.strip()\n{gap}\ndef render(x):\n    return repr(x)\n")
    repo.write("docs/guide.md", "# Guide\n\nUse it well.\n")
    repo.write("setup.cfg", "[metadata]\nname = y\n")
    Session.open(str(repo.path), settings=Settings()).regroup()  # offline: summaries are not the stand-in's
    return repo


def answer(moves=(), merges=(), splits=()) -> str:
    return json.dumps({"moves": list(moves), "merges": list(merges), "splits": list(splits)})


def replying(refinement: str, other: str = "Update the files"):
    """A stand-in reply: ``refinement`` to a refinement request, ``other`` to anything else (a summary)."""
    return lambda body: refinement if body["messages"][0]["content"].startswith(REVIEW) else other


def grouping(session: Session) -> dict[str, list[str]]:
    return {g.id: g.hunk_ids for g in session.groups}
