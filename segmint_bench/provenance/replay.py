"""Replaying a tangled case as agent sessions, through the real recording API.

The case's base is checked out; each commit's files are then written one by
one, the files of different commits interleaved as a person switching tasks
would (a file's edits stay in commit order), each edit reported as a coding
agent's hooks report it (``record_before_edit`` before, ``record_edit`` after, under the
session's current intent).
Prompts are the commits' real subjects reworded as a person asks; follow-ups
are worded as follow-ups. Some edits can be made with no hook, and a
formatter can rewrite the touched files at the end (edits first leave
trailing blanks on the lines they write, the formatter strips them: the tree
ends exactly as the tip, so the ground truth holds).
"""

from __future__ import annotations

import difflib
import os
import random
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path

from segmint_bench.untangle.cases import Case
from segmint_core.git import Git, decode
from segmint_core.planning.conventional import parse_subject
from segmint_core.trajectory.provenance import begin_intent, record_before_edit, record_edit
from segmint_core.trajectory.provenance.prompts import actionable
from segmint_core.trajectory.provenance.store import Store

SOURCE = "claude-code"
OPENINGS = (
    "Please {s}",
    "Can you {s}?",
    "Could you please {s}?",
    "I need you to {s}",
    "Let's {s}",
    "Hey, can you {s}",
    "{S}, please",
    "{S}",
)
FOLLOW_UPS = (
    "Now also update {f}",
    "Also handle the remaining cases in {f}",
    "That broke something in {f}, fix it",
    "Now do the same in {f}",
    "Great, now also adjust {f}",
    "Now also fix {f} accordingly",
)


@dataclass(frozen=True)
class Scenario:
    """How a case is replayed."""

    name: str
    prompts: str = "one"  # one: a prompt per commit; follow-ups: 1-3 per commit
    unrecorded: float = 0.0  # share of edits made with no hook
    formatter: bool = False  # a formatter rewrites the touched files at the end, with no hook
    one_session: bool = False  # every commit in one agent session, one after the other


SCENARIOS = (
    Scenario("one prompt per commit"),
    Scenario("follow-ups", prompts="follow-ups"),
    Scenario("follow-ups, one session", prompts="follow-ups", one_session=True),
    Scenario("25% unrecorded", unrecorded=0.25),
    Scenario("50% unrecorded", unrecorded=0.5),
    Scenario("formatter pass", formatter=True),
)


@dataclass(frozen=True)
class FileEdit:
    commit: int
    path: str
    data: bytes | None  # None: deleted
    mode: str


@dataclass
class Replayed:
    subjects: list[str]  # the real subjects, per commit
    prompts: list[str] = field(default_factory=list)
    edits: int = 0
    unrecorded: int = 0


def commit_edits(git: Git, case: Case) -> list[list[FileEdit]]:
    """Per commit of the case, its files as that commit leaves them."""
    parents = [case.base, *case.commits[:-1]]
    found: list[list[FileEdit]] = []
    for parent, commit in zip(parents, case.commits):
        out = git.run("diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", parent, commit).stdout
        tokens = out.split(b"\0")
        edits: list[FileEdit] = []
        for i in range(0, len(tokens) - 1, 2):
            meta, path = tokens[i], decode(tokens[i + 1])
            fields = meta.lstrip(b":").split(b" ")
            if len(fields) < 5:
                continue
            mode, oid, status = decode(fields[1]), decode(fields[3]), decode(fields[4])[:1]
            edits.append(FileEdit(len(found), path, None if status == "D" else b"", mode))
            if status != "D":
                edits[-1] = FileEdit(len(found), path, git.run("cat-file", "blob", oid).stdout, mode)
        found.append(edits)
    return found


def subjects_of(git: Git, case: Case) -> list[str]:
    return [git.run("log", "-1", "--format=%s", sha).text.strip() for sha in case.commits]


def replay(git: Git, case: Case, scenario: Scenario, seed: int) -> Replayed:
    """Check out the case's base and make its commits' edits as the scenario says, recording them."""
    rng = random.Random(f"{seed}-{case.tip}-{scenario.name}")
    root = Path(git.root)
    git.run("-c", "advice.detachedHead=false", "checkout", "--quiet", "--force", "--detach", case.base)
    git.run("clean", "--quiet", "-f", "-d", "-x")
    shutil.rmtree(Store(root).dir, ignore_errors=True)
    per_commit = commit_edits(git, case)
    for edits in per_commit:
        rng.shuffle(edits)
    result = Replayed(subjects_of(git, case))
    segments = [_segments(len(edits), scenario, rng) for edits in per_commit]
    order = _sequential(per_commit) if scenario.one_session else _interleaved(per_commit, rng)
    done = [0] * len(per_commit)
    written: dict[str, list[str]] = {}
    unhooked = set(rng.sample(range(len(order)), round(scenario.unrecorded * len(order))))
    for step, commit in enumerate(order):
        n = done[commit]
        edit = per_commit[commit][n]
        session = "s0" if scenario.one_session else f"s{commit}"
        if n in segments[commit]:
            text = _opening(result.subjects[commit], rng) if n == 0 else _follow_up(edit.path, rng)
            begin_intent(root, text, source=SOURCE, session_id=session, prompt_id=f"p{commit}-{n}")
            result.prompts.append(text)
        hooked = step not in unhooked
        if hooked:
            record_before_edit(root, [edit.path], source=SOURCE, session_id=session)
        _write(root, edit, written if scenario.formatter else None)
        result.edits += 1
        if hooked:
            record_edit(root, [edit.path], source=SOURCE, session_id=session)
        else:
            result.unrecorded += 1
        done[commit] += 1
    if scenario.formatter:
        for commit_edits_ in per_commit:
            for edit in commit_edits_:
                if edit.data is not None and edit.path in written:
                    _write(root, _final(per_commit, edit.path), None)
    return result


def reword(subject: str) -> str:
    """A real subject as the task a person would ask for: no type, scope, PR number or full stop."""
    text = parse_subject(subject).text if parse_subject(subject).type else subject
    text = text.strip()
    while text.endswith(")") and "(#" in text:
        text = text[: text.rindex("(#")].strip()
    return actionable(text.rstrip(".")) or text


def _opening(subject: str, rng: random.Random) -> str:
    task = reword(subject)
    template = rng.choice(OPENINGS)
    return template.format(s=task, S=task[:1].upper() + task[1:])


def _follow_up(path: str, rng: random.Random) -> str:
    return rng.choice(FOLLOW_UPS).format(f=os.path.basename(path))


def _segments(files: int, scenario: Scenario, rng: random.Random) -> set[int]:
    """The edit numbers of a commit where a prompt is given: its first, and follow-ups after."""
    if scenario.prompts != "follow-ups" or files < 2:
        return {0}
    count = rng.randint(1, min(3, files))
    return {0, *rng.sample(range(1, files), count - 1)}


def _sequential(per_commit: list[list[FileEdit]]) -> list[int]:
    return [c for c, edits in enumerate(per_commit) for _ in edits]


def _interleaved(per_commit: list[list[FileEdit]], rng: random.Random) -> list[int]:
    """A random merge of the commits' edit sequences where a file's edits keep commit order."""
    done = [0] * len(per_commit)
    pending: dict[str, list[int]] = {}
    for c, edits in enumerate(per_commit):
        for e in edits:
            pending.setdefault(e.path, []).append(c)
    order: list[int] = []
    while len(order) < sum(len(e) for e in per_commit):
        ready = [
            c for c, edits in enumerate(per_commit) if done[c] < len(edits) and pending[edits[done[c]].path][0] == c
        ]
        c = rng.choice(ready)
        pending[per_commit[c][done[c]].path].pop(0)
        done[c] += 1
        order.append(c)
    return order


def _final(per_commit: list[list[FileEdit]], path: str) -> FileEdit:
    return [e for edits in per_commit for e in edits if e.path == path][-1]


def _write(root: Path, edit: FileEdit, written: dict[str, list[str]] | None) -> None:
    """Put the file as the commit left it; with ``written`` (a formatter will run), the lines
    this edit writes get trailing blanks, the ones it keeps stay as they were on disk."""
    full = root / edit.path
    if edit.data is None:
        if full.is_symlink() or full.exists():
            full.unlink()
        return
    full.parent.mkdir(parents=True, exist_ok=True)
    if full.is_symlink() or full.is_dir():
        shutil.rmtree(full) if full.is_dir() and not full.is_symlink() else full.unlink()
    if edit.mode == "120000":
        if full.exists():
            full.unlink()
        os.symlink(os.fsdecode(edit.data), full)
        return
    data = edit.data
    if written is not None:
        before = written.get(edit.path)
        if before is None and full.is_file():  # the file as the base had it: its lines are nobody's new ones
            before = full.read_bytes().decode("utf-8", "surrogateescape").split("\n")
        data = _sloppy(before, data)
        written[edit.path] = data.decode("utf-8", "surrogateescape").split("\n")
    full.write_bytes(data)
    executable = edit.mode == "100755"
    mode = full.stat().st_mode
    full.chmod(mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH if executable else mode & ~0o111)


def _sloppy(before: list[str] | None, data: bytes) -> bytes:
    """``data`` with trailing blanks on the lines that are new against ``before`` (as written so far)."""
    target = data.decode("utf-8", "surrogateescape").split("\n")
    before = before or []
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, [b.rstrip() for b in before], [t.rstrip() for t in target], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(before[i1:i2])
        else:
            out.extend(line + "  " if line.strip() else line for line in target[j1:j2])
    return "\n".join(out).encode("utf-8", "surrogateescape")
