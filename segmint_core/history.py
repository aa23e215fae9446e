"""The repository's past commits, as one reader of its first-parent history reads them.

One bounded ``git log`` over the first-parent line from a revision: each
commit's subject and the files it touched (added, deleted, renamed or
modified, with line counts; a renamed file's old path too). A merge is read
against its first parent, as the line sees it, and a merge of a pull or merge
request by the request's title, which GitHub and GitLab write in its body
(``Merge pull request #12 from x/y`` is git's wording, not the house's).
The house style learns from it (``planning``), and grouping reads which files
changed together (``grouping/history.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from segmint_core.changes.models import Change, Hunk
from segmint_core.git import Git

_RECORD = "\x1e"
_FIELD = "\x1f"
_BRACE = re.compile(r"\{([^{}]*) => ([^{}]*)\}")
_SUMMARY = re.compile(r"^ (create|delete) mode \d+ (.+)$")
_PULL_MERGE = re.compile(r"^Merge pull request #\d+ from \S+$")  # GitHub: the title is the body's first line
_MR_MERGE = re.compile(r"^Merge branch '[^']+' into '[^']+'$")  # GitLab, its body ending "See merge request"


@dataclass
class PastFile:
    path: str
    status: str = "M"  # A, D, R or M
    added: int = 0
    removed: int = 0
    old_path: str | None = None  # a renamed file's path before


@dataclass
class PastCommit:
    sha: str
    subject: str
    files: list[PastFile] = field(default_factory=list)
    parts: list[tuple[Change, list[Hunk]]] | None = None  # its diff, when read

    @property
    def lines(self) -> int:
        return sum(f.added + f.removed for f in self.files)


def read_history(git: Git, rev: str = "HEAD", *, limit: int) -> list[PastCommit]:
    """Up to ``limit`` commits on the first-parent line ending at ``rev``, newest first."""
    res = git.run(
        "log",
        "--first-parent",
        f"--max-count={limit}",
        "--diff-merges=first-parent",
        "--no-color",
        "--numstat",
        "--summary",
        "-M",
        f"--format={_RECORD}%H{_FIELD}%s{_FIELD}%b{_FIELD}",
        rev,
        "--",
        check=False,
    )
    if res.returncode != 0:
        return []  # an unborn branch, or a revision git cannot read: no history to learn from
    return [commit for chunk in res.text.split(_RECORD)[1:] if (commit := _commit(chunk))]


def _commit(chunk: str) -> PastCommit | None:
    sha, subject, body, rest = (chunk.split(_FIELD, 3) + ["", "", ""])[:4]
    if not sha:
        return None
    commit = PastCommit(sha, request_title(subject, body))
    by_path: dict[str, PastFile] = {}
    for line in rest.splitlines():
        parts = line.split("\t")
        if len(parts) == 3:
            path, old_path = _paths(parts[2])
            past = PastFile(
                path,
                "R" if old_path is not None else "M",
                int(parts[0]) if parts[0].isdigit() else 0,
                int(parts[1]) if parts[1].isdigit() else 0,
                old_path,
            )
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


def _paths(text: str) -> tuple[str, str | None]:
    """``src/{a => b}/x.py`` or ``a.py => b.py``: the path after a rename and the one before (None: no rename)."""
    if _BRACE.search(text):

        def side(n: int) -> str:
            return re.sub(r"/{2,}", "/", _BRACE.sub(lambda m: m.group(n), text)).strip("/")

        return side(2), side(1)
    if " => " in text:
        before, after = text.split(" => ", 1)
        return after, before
    return text.strip('"'), None
