"""The commits a rewrite may touch: HEAD's first-parent line back to what a remote-tracking ref has,
the first merge, or a limit."""

from __future__ import annotations

from dataclasses import dataclass

from segmint_core.git import Git, decode

STACK_LIMIT = 10  # as git-absorb's default: fixes go no further back than this many commits


@dataclass(frozen=True)
class Commit:
    sha: str
    parent: str | None
    subject: str

    @property
    def named(self) -> str:
        return f"{self.sha[:7]} '{self.subject}'"


def unpushed(git: Git, head: str, limit: int = STACK_LIMIT) -> list[Commit]:
    """HEAD's commits not on any remote-tracking ref, newest first, ending before the first merge."""
    out = git.run("log", f"--max-count={limit}", "--format=%H %P%x00%s", head, "--not", "--remotes").text
    stack = []
    for line in out.splitlines():
        ids, _, subject = line.partition("\0")
        sha, *parents = ids.split()
        if len(parents) > 1:
            break
        stack.append(Commit(sha, parents[0] if parents else None, subject))
    return stack


@dataclass(frozen=True)
class Made:
    """A commit as made: its whole message and its change with no context lines."""

    sha: str
    message: str
    patch: bytes


def made(git: Git, shas: list[str]) -> dict[str, Made]:
    """``shas`` read in one ``git show``, by sha."""
    if not shas:
        return {}
    out = git.run("show", "--no-color", "--no-ext-diff", "--no-renames", "-U0", "--format=%x1e%H%x1f%B%x1f", *shas)
    found = {}
    for record in out.stdout.split(b"\x1e")[1:]:
        sha, _, rest = record.partition(b"\x1f")
        message, _, patch = rest.partition(b"\x1f")
        found[decode(sha).strip()] = Made(decode(sha).strip(), decode(message).strip(), patch.lstrip(b"\n"))
    return found


def blobs_at(git: Git, commits: list[str], path: str) -> dict[str, str | None]:
    """The blob of ``path`` in each commit (None where it has none)."""
    query = "".join(f"{sha}:{path}\n" for sha in commits).encode("utf-8", "surrogateescape")
    out = git.run("cat-file", "--batch-check=%(objectname) %(objecttype)", input=query).text.splitlines()
    found: dict[str, str | None] = {}
    for sha, line in zip(commits, out):
        oid, _, kind = line.partition(" ")
        found[sha] = oid if kind == "blob" else None
    return found


def followed(git: Git, target: str, moves: list[tuple[str | None, str]]) -> str:
    """``target`` as it is now, after the branch moved (``moves``: each from, to, oldest first): a fold
    made it again, as many commits back from the new tip as it was from the old one."""
    for old, new in moves:
        if not old or _is_ancestor(git, target, new) or not _is_ancestor(git, target, old):
            continue
        depth = git.run("rev-list", "--count", "--first-parent", f"{target}..{old}").text.strip()
        target = git.run("rev-parse", f"{new}~{depth}").text.strip()
    return target


def _is_ancestor(git: Git, commit: str, of: str) -> bool:
    return git.run("merge-base", "--is-ancestor", commit, of, check=False).returncode == 0
