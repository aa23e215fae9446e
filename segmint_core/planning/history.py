"""The repository's recent commits, as the house style is learned from them.

One bounded ``git log`` over the first-parent line from HEAD: each commit's
subject and the files it touched (added, deleted, renamed or modified, with
line counts). A merge is read against its first parent, as the line sees it,
and a merge of a pull or merge request by the request's title, which GitHub
and GitLab write in its body (``Merge pull request #12 from x/y`` is git's
wording, not the house's).
``read_patches`` then reads the diffs of the commits small enough to read
(one ``git show`` for all of them), so what a past commit did can be compared
with what the change at hand does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from segmint_core.changes.capture import merge_patches
from segmint_core.changes.models import Change, Hunk
from segmint_core.changes.parser import parse_diff
from segmint_core.errors import DiffParseError
from segmint_core.git import Git

HISTORY_LIMIT = 300
PATCH_LINE_LIMIT = 1500   # a past commit changing more lines than this is known by its files only
_RECORD = "\x1e"
_FIELD = "\x1f"
_BRACE = re.compile(r"\{([^{}]*) => ([^{}]*)\}")
_SUMMARY = re.compile(r"^ (create|delete) mode \d+ (.+)$")
_PULL_MERGE = re.compile(r"^Merge pull request #\d+ from \S+$")        # GitHub: the title is the body's first line
_MR_MERGE = re.compile(r"^Merge branch '[^']+' into '[^']+'$")          # GitLab, its body ending "See merge request"


@dataclass
class PastFile:
    path: str
    status: str = "M"     # A, D, R or M
    added: int = 0
    removed: int = 0


@dataclass
class PastCommit:
    sha: str
    subject: str
    files: list[PastFile] = field(default_factory=list)
    parts: list[tuple[Change, list[Hunk]]] | None = None    # its diff, when read

    @property
    def lines(self) -> int:
        return sum(f.added + f.removed for f in self.files)


def read_history(git: Git, rev: str = "HEAD", limit: int = HISTORY_LIMIT) -> list[PastCommit]:
    """Up to ``limit`` commits on the first-parent line ending at ``rev``, newest first."""
    res = git.run("log", "--first-parent", f"--max-count={limit}", "--diff-merges=first-parent",
                  "--no-color", "--numstat", "--summary", "-M", f"--format={_RECORD}%H{_FIELD}%s{_FIELD}%b{_FIELD}",
                  rev, "--", check=False)
    if res.returncode != 0:
        return []     # an unborn branch, or a revision git cannot read: no history to learn from
    return [commit for chunk in res.text.split(_RECORD)[1:] if (commit := _commit(chunk))]


def read_patches(git: Git, commits: list[PastCommit], line_limit: int = PATCH_LINE_LIMIT) -> None:
    """Fill in ``parts`` of the commits changing at most ``line_limit`` lines (text only)."""
    wanted = [c for c in commits if c.files and c.lines <= line_limit]
    if not wanted:
        return
    res = git.run("show", "--diff-merges=first-parent", "--no-color", "--no-ext-diff", "--no-textconv", "-M",
                  f"--format={_RECORD}%H", *(c.sha for c in wanted), "--", check=False)
    if res.returncode != 0:
        return    # a shallow clone missing a parent: the commits stay known by their files
    by_sha = {c.sha: c for c in wanted}
    for chunk in res.text.split(_RECORD)[1:]:
        sha, _, diff = chunk.partition("\n")
        commit = by_sha.get(sha.strip())
        if commit is None:
            continue
        try:
            changes = merge_patches(parse_diff(diff, strict=False), [], [])
        except DiffParseError:
            continue
        commit.parts = [(c, c.hunks) for c in changes if not c.binary]


def _commit(chunk: str) -> PastCommit | None:
    sha, subject, body, rest = (chunk.split(_FIELD, 3) + ["", "", ""])[:4]
    if not sha:
        return None
    commit = PastCommit(sha, request_title(subject, body))
    by_path: dict[str, PastFile] = {}
    for line in rest.splitlines():
        parts = line.split("\t")
        if len(parts) == 3:
            path, renamed = _new_path(parts[2])
            past = PastFile(path, "R" if renamed else "M",
                            int(parts[0]) if parts[0].isdigit() else 0, int(parts[1]) if parts[1].isdigit() else 0)
            by_path[path] = past
            commit.files.append(past)
        elif (m := _SUMMARY.match(line)) and m.group(2) in by_path:
            by_path[m.group(2)].status = "A" if m.group(1) == "create" else "D"
    return commit


def request_title(subject: str, body: str) -> str:
    """The title of the pull or merge request a merge commit merged, where its body holds one;
    otherwise ``subject``."""
    if not (_PULL_MERGE.match(subject) or _MR_MERGE.match(subject) and "See merge request" in body):
        return subject
    title = next((line.strip() for line in body.splitlines() if line.strip()), "")
    return title if title and not title.startswith("See merge request") else subject


def _new_path(text: str) -> tuple[str, bool]:
    """``src/{a => b}/x.py`` or ``a.py => b.py``: the path after a rename, and whether it was one."""
    if _BRACE.search(text):
        return re.sub(r"/{2,}", "/", _BRACE.sub(lambda m: m.group(2), text)).strip("/"), True
    if " => " in text:
        return text.split(" => ", 1)[1], True
    return text.strip('"'), False
