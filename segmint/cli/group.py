"""``segmint group``: the uncommitted changes grouped by intent, as a list or as JSON.

It shows the session's groups (``.git/segmint/``), so its ids are the ones
the TUI shows and ``segmint plan`` commits; ``--new`` groups afresh.

``--json`` prints ``{"changes": [...], "groups": [...], "confidence": {...}}``;
the changes are exactly what ``segmint changes --json`` prints, except that a
hunk split by grouping appears as its sub-hunks, so every hunk id in a group
resolves. Text and JSON both carry the session's confidence: a ``?`` before
each hunk an uncertain decision would move, and the least certain decisions.

``--refine`` then asks the configured chat model to settle the groups
(``grouping.refine``); what it changed, or why the groups were kept, follows
the groups (``"refinement"`` in JSON).
"""

from __future__ import annotations

import argparse
import sys

from segmint_core.changes.encode import encode_changes
from segmint_core.cycles import cycles_left_uncollected
from segmint.cli.session_cli import open_session
from segmint_core.errors import SegmintError
from segmint_core.grouping import PROVIDERS
from segmint_core.grouping.models import ChangeGroup
from segmint_core.grouping.refine import NO_MODEL, Refinement, prompt
from segmint_core.grouping.refine.prompt import Requests
from segmint_core.jsonio import to_json
from segmint_core.session.session import Session
from segmint_core.wording import counted, shown


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "group",
        parents=[common],
        help="group uncommitted changes by intent",
        description="The session's groups of the repository's uncommitted hunks, each with a summary and its "
        "reasons: the groups the TUI and agents see, with the same ids. Grouped afresh with --new "
        "or --provider, or when the session has none yet.",
    )
    p.add_argument("--json", action="store_true", help='print {"changes": [...], "groups": [...]} as JSON')
    p.add_argument(
        "--new",
        action="store_true",
        help="group from scratch, replacing the session's groups (open commit plans are dropped)",
    )
    p.add_argument(
        "--provider",
        choices=PROVIDERS,
        default=None,
        help="embedding provider for grouping afresh (default: SEGMINT_EMBEDDINGS, else local; local works offline)",
    )
    p.add_argument(
        "--refine",
        action="store_true",
        help="then ask the chat model (SEGMINT_CHAT_MODEL) to move, merge or split groups; an answer "
        "that fails validation keeps the groups and says why",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="with --refine: print the requests the chat model would get, and send nothing",
    )
    p.set_defaults(func=run, quick_exit=True)


# Paused for the whole command, not only grouping: reading 10,000 files' hunks and the
# confidence of 10^5 linked pairs make as many objects, which the collector would walk again and again.
@cycles_left_uncollected
def run(args: argparse.Namespace) -> int:
    session = open_session(args)
    if args.dry_run and not args.refine:
        raise SegmintError("--dry-run goes with --refine: it shows what --refine would send")
    if args.refine and not args.dry_run and not session.settings.chat_enabled:
        raise SegmintError(NO_MODEL)
    if args.new or args.provider or not session.groups:
        session.regroup(provider=args.provider or session.settings.embeddings)
    if args.dry_run:
        sys.stdout.write(format_requests(session.refine_requests()) if session.groups else "No groups to refine.\n")
        return 0
    refinement = session.refine_groups() if args.refine and session.groups else None
    if args.json:
        text = encode_groups(session)
        if refinement is not None:
            text = f'{text[:-1]}, "refinement": {to_json(refinement.to_dict())}}}'
        out = sys.stdout.buffer
        out.write(text.encode("utf-8"))
        out.write(b"\n")
    else:
        sys.stdout.write(format_groups(session) + (format_refinement(refinement) if refinement else ""))
    return 0


def format_requests(requests: Requests) -> str:
    """What ``--refine`` would send, request by request, with each one's estimated size."""
    count = len(requests.requests)
    out = [f"Instructions (sent with each request):\n{prompt.SYSTEM}\n"]
    for n, request in enumerate(requests.requests, 1):
        size = prompt.estimate_tokens(prompt.SYSTEM + request.text)
        out.append(
            f"--- request {n} of {count}: {counted(len(request.shown), 'group')}, about {size:,} tokens\n{request.text}"
        )
    if requests.too_large:
        out.append(
            f"Not sent ({counted(len(requests.too_large), 'group')} too large for a request even without "
            f"their lines): {', '.join(requests.too_large)}\n"
        )
    if requests.decisions_cut:
        out.append(
            f"Not sent ({counted(requests.decisions_cut, 'uncertain decision')} past the room of their request)\n"
        )
    if requests.left_out:
        out.append(
            f"Not sent ({counted(len(requests.left_out), 'group')} past the last request): "
            f"{', '.join(requests.left_out)}\n"
        )
    return "\n".join(out)


def format_refinement(refinement: Refinement) -> str:
    lines = [f"Refined with {shown(refinement.model)}:"]
    lines += [f"  {shown(s)}" for s in refinement.applied] or ["  no group changed"]
    lines += [f"  note: {shown(n)}" for n in refinement.notes]
    return "\n".join(lines) + "\n"


def encode_groups(session: Session) -> str:
    """The JSON text: the effective changes in ``segmint changes --json``'s exact form, then the groups
    as the seed's ``ChangeGroup`` (the session's ``Group`` says more, for the TUI and agents)."""
    listed = encode_changes(session.units.to_changeset()).decode("utf-8")
    groups = to_json(
        [ChangeGroup(g.id, g.change_ids, g.hunk_ids, g.summary, g.reasons).to_dict() for g in session.groups]
    )
    sure = to_json(session.confidence().to_dict())
    return f'{listed[:-1]}, "groups": {groups}, "confidence": {sure}}}'


def format_groups(session: Session) -> str:
    if not session.groups:
        return "No uncommitted changes.\n"
    paths = {c.id: shown(c.file_path) for c in session.changes}
    sure = session.confidence()
    lines: list[str] = []
    for group in session.groups:
        files = ", ".join(paths[c] for c in group.change_ids if c in paths)
        lines.append(f"{group.id}  {shown(group.summary)}  ({_percent(sure.groups.get(group.id))} sure)")
        whole = [c for c in group.change_ids if c in paths and not session.units.change_by_id[c].hunks]
        held = [counted(len(group.hunk_ids), "hunk")] if group.hunk_ids or not whole else []
        held += [counted(len(whole), "whole file")] if whole else []
        lines.append(f"    {' and '.join(held)} in {files}")
        for reason in group.reasons:
            lines.append(f"    - {shown(reason)}")
        for hunk in group.hunk_ids:
            doubt = sure.doubt(hunk)
            if doubt is not None:
                where = f"to {doubt.to_group_id}" if doubt.to_group_id else "to a group of its own"
                lines.append(f"    ? {hunk} may belong {where} ({_percent(doubt.probability)})")
    split = len(session.units.splits)
    tail = f"\n{counted(len(session.groups), 'group')}"
    if split:
        tail += f"; {counted(split, 'hunk')} split between groups"
    lines.append(tail)
    if sure.uncertain:
        lines += ["", "Least certain, settle these first (?: the hunks they would move):"]
        lines += [
            f"  {n}. {shown(u.text)}, {_percent(u.probability)} likely" for n, u in enumerate(sure.uncertain, start=1)
        ]
    return "\n".join(lines) + "\n"


def _percent(p: float | None) -> str:
    return "?" if p is None else f"{round(100 * p)}%"
