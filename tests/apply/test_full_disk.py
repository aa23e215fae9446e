"""apply --all on a disk that fills up part-way: nothing lost, nothing left half-done,
and once there is room again a rerun finishes the work (a small tmpfs, mounted here)."""

from __future__ import annotations

import errno
import os
import random
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

from segmint_core.errors import SegmintError
from segmint_core.session.applying import BatchStopped
from segmint_core.session.session import Session
from tests.support.repo import Repo

PAGE = 4096
THOROUGH = settings.default.max_examples >= 1000   # --hypothesis-profile=thorough: every free page count


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 3 MiB tmpfs, unmounted afterwards; skipped where mounting is not allowed."""
    where = tmp_path / "disk"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(where)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): {done.stderr.strip() or done.returncode}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def dirty(repo: Repo) -> dict[str, str]:
    """Six committed files of random text, each with an edit, planned as six commits; the new texts."""
    rng = random.Random(7)
    texts = {f"part{i}.txt": "".join(f"{rng.getrandbits(128):032x}\n" for _ in range(400)) for i in range(6)}
    for path, text in texts.items():
        repo.write(path, text)
    repo.commit("base")
    edited = {path: text.replace(text.splitlines()[200], "edited", 1) for path, text in texts.items()}
    for path, text in edited.items():
        repo.write(path, text)
    session = Session.open(str(repo.path))
    session.regroup()
    ids = [h.id for c in session.changes for h in c.hunks]
    session.move_hunks(ids, to_group_id=session.groups[0].id)
    for hunk_id in ids[1:]:
        session.move_hunks([hunk_id], new_group=True)
    session.propose_commits()
    return edited


def fill(disk: Path, leave: int) -> Path:
    """Fill the disk, then give back ``leave`` bytes."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * (64 * 1024))
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


@pytest.mark.parametrize("leave", range(0, 40) if THOROUGH else range(0, 40, 4))
def test_a_disk_filling_during_apply_all_loses_nothing_and_a_rerun_finishes(small_disk: Path, leave: int) -> None:
    repo = Repo(small_disk / "repo")
    edited = dirty(repo)
    worktree = repo.snapshot()["files"]
    base = repo.head()
    filler = fill(small_disk, leave * PAGE)

    try:
        Session.open(str(repo.path)).apply_all()
        stopped = None
    except (OSError, SegmintError) as exc:   # what the CLI turns into one sentence
        stopped = exc
    made = int(repo.git("rev-list", "--count", f"{base}..HEAD"))
    assert repo.snapshot()["files"] == worktree, "no work-tree byte changed"
    assert not (repo.path / ".git" / "index.lock").exists()
    assert repo.git("diff", "--cached", "--name-only") == "", "the index is at HEAD, whatever was committed"
    assert stopped is not None or made == 6
    assert isinstance(stopped, BatchStopped) == (0 < made < 6), "a stopped batch names the commits it made"
    if made and stopped is not None:
        assert [o.commit_id for o in stopped.made] == [p.id for p in Session.open(str(repo.path)).plans][:made]

    filler.unlink()
    session = Session.open(str(repo.path))
    assert not any(p.out_of_date for p in session.plans), [p.out_of_date for p in session.plans]
    assert [p.status for p in session.plans].count("applied") == made
    session.apply_all()
    assert repo.git("status", "--porcelain") == ""
    for path, text in edited.items():
        assert repo.git("show", f"HEAD:{path}") == text
    repo.git("fsck", "--no-progress")
