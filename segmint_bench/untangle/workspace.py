"""A scratch clone where cases are tangled: the base checked out, the tip's
tree written over the work tree (new files untracked, deleted files gone)."""

from __future__ import annotations

import os
import shutil
import tempfile

from segmint_bench.untangle.cases import Case
from segmint_core.errors import SegmintError
from segmint_core.git import Git


class Workspace:
    """A throwaway clone of the benchmarked repository (the original is never touched)."""

    def __init__(self, source: str) -> None:
        if not os.path.exists(source):
            raise SegmintError(f"No such repository: {source}")
        self.dir = tempfile.mkdtemp(prefix="segmint-untangle-")
        root = os.path.join(self.dir, "repo")
        origin = Git.discover(source).root if os.path.isdir(source) else os.path.abspath(source)
        shared = ("--shared",) if os.path.isdir(origin) else ()
        Git(self.dir).run("clone", "--quiet", "--no-checkout", *shared, origin, root)
        self.git = Git(root)
        self.git.run("config", "core.autocrlf", "false")
        # A shared clone reads the source's objects, so a commit only the
        # source names (a clone of a bundle keeps it under refs/remotes) works here too.
        self._head = find_head(self.git) or (find_head(Git(origin)) if shared else None)
        if not self._head:
            raise SegmintError("The repository has no commits to benchmark on")

    def head(self) -> str:
        """The commit the clone's history starts from (as cloned, before any case)."""
        return self._head

    @property
    def root(self) -> str:
        return self.git.root

    def tangle(self, case: Case) -> None:
        """Check out the case's base and put its tip's files in the work tree."""
        self.git.run("-c", "advice.detachedHead=false", "checkout", "--quiet", "--force", "--detach", case.base)
        self.git.run("clean", "--quiet", "-f", "-d", "-x")
        self.git.run("restore", f"--source={case.tip}", "--worktree", "--", ".")

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "Workspace":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def find_head(git: Git) -> str | None:
    """HEAD, or else the first branch: a bundle's clone has an unborn HEAD and only remote branches."""
    head = git.run("rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False).text.strip()
    if head:
        return head
    refs = git.run("for-each-ref", "--format=%(objectname)", "refs/remotes", "refs/heads").text.split()
    return refs[0] if refs else None
