"""A synthetic change set of a given number of hunks, for timing grouping at scale.

Built from the benchmarked repository's own text files (real identifiers and
line lengths): files are picked at random (fixed seed), and each gets a few
small edits -- a line rewritten with another name from the same file, a line
added after it -- far enough apart to stay separate hunks. The patch text is
written in git's shape and read by Segmint's parser, like any diff.
"""

from __future__ import annotations

import random
import re

from segmint_core.changes import ChangeSet
from segmint_core.changes.capture import merge_patches
from segmint_core.changes.parser import parse_diff
from segmint_core.errors import SegmintError
from segmint_core.git import Git

TEXT_FILE = re.compile(r"\.(py|pyi|md|rst|txt|toml|cfg|ini|ya?ml|js|ts|go|rs|c|h|sh)$")
EDITS_PER_FILE = 8
CONTEXT = 3
GAP = 12  # lines between edits, so hunks with 3 lines of context stay apart
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")


def synthetic_changes(git: Git, rev: str, hunks: int, seed: int = 0) -> ChangeSet:
    rng = random.Random(seed)
    paths = [p for p in git.run("ls-tree", "-r", "--name-only", rev).text.splitlines() if TEXT_FILE.search(p)]
    rng.shuffle(paths)
    texts = [(path, oid, text.splitlines()) for path, oid, text in _read_blobs(git, rev, paths[:2000])]
    quota = _allocate([len(_spots(lines)) for _, _, lines in texts], hunks)
    if sum(quota) < hunks:
        raise SegmintError(f"The repository has too little text for a {hunks}-hunk case")
    patch: list[str] = []
    for (path, oid, lines), count in zip(texts, quota):
        if count:
            # The old blob's id, as git names it, so grouping can read (and parse) the file.
            patch += [f"diff --git a/{path} b/{path}", f"index {oid}..{oid} 100644", f"--- a/{path}", f"+++ b/{path}"]
            patch += _edit(lines, count, rng)
    files = parse_diff("\n".join(patch) + "\n")
    return ChangeSet(merge_patches([], files, []), f"synthetic-{hunks}-{seed}", rev)


def _read_blobs(git: Git, rev: str, paths: list[str]) -> list[tuple[str, str, str]]:
    out = git.run("cat-file", "--batch", input="".join(f"{rev}:{p}\n" for p in paths).encode()).stdout
    blobs: list[tuple[str, str, str]] = []
    pos = 0
    for path in paths:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if len(header) < 3 or header[1] != b"blob":
            continue
        size = int(header[2])
        data = out[pos : pos + size]
        pos += size + 1
        if b"\0" not in data[:8000]:
            blobs.append((path, header[0].decode(), data.decode("utf-8", "replace")))
    return blobs


def _allocate(capacity: list[int], wanted: int) -> list[int]:
    """Edits per file: EDITS_PER_FILE each in turn, then more where there is room."""
    quota = [0] * len(capacity)
    left = wanted
    step = EDITS_PER_FILE
    while left > 0 and any(q < c for q, c in zip(quota, capacity)):
        for i, room in enumerate(capacity):
            take = min(step, room - quota[i], left)
            if take > 0:
                quota[i] += take
                left -= take
    return quota


def _spots(lines: list[str]) -> range:
    return range(CONTEXT + 1, len(lines) - CONTEXT - 1, GAP)


def _edit(lines: list[str], wanted: int, rng: random.Random) -> list[str]:
    """Hunks (git's shape, 3 lines of context) for ``wanted`` edits GAP lines apart:
    each rewrites one line with another name from the file and adds a line after it."""
    spots = list(_spots(lines))
    rng.shuffle(spots)
    names = sorted(set(_NAME.findall("\n".join(lines[:400])))) or ["value"]
    out: list[str] = []
    shift = 0
    for spot in sorted(spots[:wanted]):
        line = lines[spot]
        target = _NAME.search(line)
        replacement = rng.choice(names)
        changed = line[: target.start()] + replacement + line[target.end() :] if target else line + f"  # {replacement}"
        start = spot - CONTEXT
        out.append(f"@@ -{start + 1},{2 * CONTEXT + 1} +{start + 1 + shift},{2 * CONTEXT + 2} @@")
        out += [" " + x for x in lines[start:spot]]
        out += ["-" + line, "+" + changed, "+" + changed.replace(replacement, rng.choice(names), 1)]
        out += [" " + x for x in lines[spot + 1 : spot + 1 + CONTEXT]]
        shift += 1
    return out
