"""Checking rebuilt patches with git itself (``git apply --cached --check``)."""

from __future__ import annotations

import itertools
import os
import subprocess
import tempfile

from segmint_core.changes import Change, build_patch
from tests.support.repo import GIT_ENV, Repo


def applies(repo: Repo, patch: str, *, base: str) -> tuple[bool, str]:
    """Whether ``patch`` applies to ``base``: "HEAD" (via a scratch index) or "index"."""
    env = {**os.environ, **GIT_ENV}
    with tempfile.TemporaryDirectory(prefix="segmint-test-") as tmp:
        if base == "HEAD":
            env["GIT_INDEX_FILE"] = os.path.join(tmp, "index")
            has_head = repo.git("rev-parse", "--verify", "--quiet", "HEAD", check=False).strip()
            repo.git("read-tree", "HEAD" if has_head else "--empty", env={"GIT_INDEX_FILE": env["GIT_INDEX_FILE"]})
        proc = subprocess.run(
            ["git", "apply", "--cached", "--check", "-"],
            cwd=repo.path,
            env=env,
            input=patch.encode("utf-8", "surrogateescape"),
            capture_output=True,
        )
    return proc.returncode == 0, proc.stderr.decode(errors="replace")


def layer_subsets(change: Change, limit: int = 64):
    """(layer patch, base, hunk subset) for the subsets of each layer's hunks."""
    for fp, base in ((change.staged_patch, "HEAD"), (change.unstaged_patch, "index")):
        if fp is None:
            continue
        count = 0
        for r in range(1 if fp.hunks else 0, len(fp.hunks) + 1):
            for subset in itertools.combinations(fp.hunks, r):
                yield fp, base, list(subset)
                count += 1
                if count >= limit:
                    return


def assert_all_subsets_apply(repo: Repo, change: Change) -> int:
    checked = 0
    for fp, base, subset in layer_subsets(change):
        patch = build_patch(fp, subset)
        ok, err = applies(repo, patch, base=base)
        assert ok, f"subset {[h.id for h in subset]} of {change.file_path} ({base}) fails: {err}\n{patch}"
        checked += 1
    return checked
