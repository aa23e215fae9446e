"""A scratch clone where cases are tangled: the base checked out, the tip's
tree written over the work tree (new files untracked, deleted files gone)."""

from __future__ import annotations

import os
import shutil
import tempfile

from segmint_core.bench.untangle.cases import Case
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
        self._head = self._find_head()

    def head(self) -> str:
        """The commit the clone's history starts from (as cloned, before any case)."""
        return self._head

    def _find_head(self) -> str:
        # A bundle's clone may have no HEAD, only remote branches.
        head = self.git.run("rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False).text.strip()
        if head:
            return head
        refs = self.git.run("for-each-ref", "--format=%(objectname)", "refs/remotes", "refs/heads").text.split()
        if not refs:
            raise SegmintError("The repository has no commits to benchmark on")
        return refs[0]

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
