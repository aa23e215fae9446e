"""A file kept whole (a lock file, a generated or minified one) shows the lines it really changes:
in the groups pane and the diff pane's file header (issue 34). The pull request lists no files with
counts, a lock file's neither (issue 37): the review shows them."""

from __future__ import annotations

import json

from segmint_tui.diff_render import HeaderBlock
from tests.support.cli import run_segmint
from tests.support.repo import Repo
from tests.tui.support import running, screen_text, settle


def lock(step: int) -> str:
    return (
        json.dumps({"packages": {f"p{i}": {"version": f"1.{i}.{step}"} for i in range(0, 30, 1 + 2 * step)}}, indent=2)
        + "\n"
    )


def relocked(repo: Repo) -> tuple[int, int]:
    """package-lock.json regenerated beside a one-line edit; the lock file's lines added and removed, as git counts."""
    repo.write("package-lock.json", lock(0))
    repo.write("a.txt", "a\n")
    repo.commit("base")
    repo.write("package-lock.json", lock(1))
    repo.write("a.txt", "a\nmore\n")
    added, removed, _ = repo.git("diff", "--numstat", "--", "package-lock.json").split("\t")
    assert (int(added), int(removed)) == (10, 70)
    return int(added), int(removed)


def test_the_pull_request_lists_no_file_with_its_counts_a_lock_file_neither(repo: Repo) -> None:
    added, removed = relocked(repo)
    assert run_segmint("plan", "--repo", str(repo.path)).returncode == 0
    pr = run_segmint("pr", "--repo", str(repo.path))
    assert pr.returncode == 0 and pr.stdout.startswith("# "), pr
    assert f"(+{added} -{removed})" not in pr.stdout and "## Files changed" not in pr.stdout, pr.stdout


async def test_the_groups_pane_and_the_diff_header_count_a_lock_file_s_lines(repo: Repo) -> None:
    added, removed = relocked(repo)
    async with running(repo.path) as pilot:
        app = pilot.app
        lock_group = next(
            n
            for n, g in enumerate(app.session.groups)
            if any(app.session.units.change_by_id[c].file_path == "package-lock.json" for c in g.change_ids)
        )
        await pilot.press(*["down"] * lock_group, "right")
        await settle(pilot)
        assert f"+{added} −{removed}  package-lock.json" in screen_text(app)
        headers = [b for b in app.main.diff.document.blocks if isinstance(b, HeaderBlock)]
        assert any(f"+{added} −{removed}" in b.raw(0) and "package-lock.json" in b.raw(0) for b in headers)
        assert "no line changes" not in screen_text(app)
