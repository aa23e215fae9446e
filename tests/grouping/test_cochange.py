"""Files changed together in history: read from real repositories, cached per HEAD, linked and explained."""

from __future__ import annotations

import json
from dataclasses import replace

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import group_changes, history
from segmint_core.grouping.history import CACHE_NAME, EMPTY, history_at, read_history
from segmint_core.grouping.model import DEFAULT
from segmint_core.grouping.repository import Repository
from segmint_core.grouping.signals import cochange
from segmint_core.grouping.signals.base import Context
from tests.support.repo import Repo


def paired_history(repo: Repo, together: int = 4) -> Repo:
    """``api.py`` and ``docs/api.md`` changed together ``together`` times; ``cli.py`` and
    ``other/notes.txt`` each often, never with them or each other."""
    repo.write("api.py", "start\n")
    repo.write("docs/api.md", "start\n")
    repo.commit("init")
    for path in ("cli.py", "other/notes.txt"):
        repo.write(path, "start\n")
        repo.commit(f"add {path}")
    for n in range(together):
        repo.write("api.py", f"api {n}\n")
        repo.write("docs/api.md", f"api {n}\n")
        repo.commit(f"api {n}")
        repo.write("cli.py", f"cli {n}\n")
        repo.commit(f"cli {n}")
        repo.write("other/notes.txt", f"notes {n}\n")
        repo.commit(f"notes {n}")
    return repo


def test_history_reads_the_files_of_each_first_parent_commit(repo: Repo) -> None:
    paired_history(repo, together=2)
    found = read_history(Git(repo.path), "HEAD")
    assert found.head == repo.head()
    assert found.read == 9 and found.swept == 0
    assert found.commits[0] == ("other/notes.txt",)
    assert found.commits[2] == ("api.py", "docs/api.md")
    assert len(found.by_file["api.py"] & found.by_file["docs/api.md"]) == 3  # init and two together
    assert found.by_folder["docs"] == found.by_file["docs/api.md"]


def test_a_sweep_touching_many_files_is_left_out(repo: Repo) -> None:
    paired_history(repo, together=1)
    for n in range(history.SWEEP_FILES + 1):
        repo.write(f"pkg/m{n}.py", "x = 1\n")
    repo.write("api.py", "swept\n")
    repo.commit("reformat everything")
    found = read_history(Git(repo.path), "HEAD")
    assert found.swept == 1 and found.read == 7
    assert "pkg/m0.py" not in found.by_file and len(found.by_file["api.py"]) == 2
    # How large the house's commits run: each commit's files, the sweep as more than a sweep's bound.
    assert sorted(found.sizes) == sorted([*(len(c) for c in found.commits), history.SWEEP_FILES + 1])


def test_no_commits_no_repository_and_a_missing_tree_have_no_history(repo: Repo, tmp_path) -> None:
    assert history_at(Git(repo.path)) is EMPTY  # an unborn branch
    assert history_at(None) is EMPTY
    assert history_at(Git(str(tmp_path / "gone"))) is EMPTY
    repo.write("a.py", "a\n")
    assert Repository(Git(repo.path)).history() is EMPTY


def test_a_detached_head_reads_the_history_before_it(repo: Repo) -> None:
    paired_history(repo, together=2)
    early = repo.git("rev-list", "--max-count=1", "--skip=3", "HEAD").strip()
    repo.git("checkout", "--quiet", "--detach", early)
    found = history_at(Git(repo.path))
    assert found.head == early and found.read == 6
    assert history_at(Git(repo.path), early) is found  # read once per commit id


def test_history_is_cached_per_head_in_the_session_folder(repo: Repo) -> None:
    paired_history(repo, together=1)
    git = Git(repo.path)
    (repo.path / ".git" / "segmint").mkdir()
    first = history_at(git)
    saved = json.loads((repo.path / ".git" / "segmint" / CACHE_NAME).read_text())
    assert saved["head"] == repo.head() and saved["commits"] == [list(c) for c in first.commits]
    history._memory.clear()
    saved["commits"] = [["only/this.py"]]  # read back from the file, not the log
    (repo.path / ".git" / "segmint" / CACHE_NAME).write_text(json.dumps(saved))
    assert history_at(git).commits == (("only/this.py",),)
    repo.write("cli.py", "new\n")
    repo.commit("cli again")
    assert history_at(git).head == repo.head() and history_at(git).read == first.read + 1


def test_files_changed_together_link_and_files_never_together_repel(repo: Repo) -> None:
    paired_history(repo)
    for path in ("api.py", "docs/api.md", "cli.py", "other/notes.txt"):
        repo.write(path, "edited\n")
    units = Repository(Git(repo.path)).units(capture(Git(repo.path)).changes)
    links = list(cochange.links(Context(units, DEFAULT, history=history_at(Git(repo.path)))))
    by_paths = {(units[x.a].path, units[x.b].path): x for x in links}
    together = by_paths[("api.py", "docs/api.md")]
    assert together.kind == cochange.COCHANGE and together.weight == 5 / 6  # 5 of the 5 commits of each, +1
    assert cochange.split_detail(together.detail) == ("api.py", "docs/api.md", 5, 15)
    assert by_paths[("api.py", "cli.py")].kind == cochange.NEVER and by_paths[("api.py", "cli.py")].weight < 0


def test_a_new_file_falls_back_on_its_folders_history(repo: Repo) -> None:
    paired_history(repo, together=2)
    repo.write("docs/new.md", "new\n")
    repo.write("api.py", "edited\n")
    units = Repository(Git(repo.path)).units(capture(Git(repo.path)).changes)
    (only,) = cochange.links(Context(units, DEFAULT, history=history_at(Git(repo.path))))
    assert only.kind == cochange.FOLDERS
    assert cochange.split_detail(only.detail)[:3] == ("./", "docs/", 3)


def test_no_history_no_links(repo: Repo) -> None:
    repo.write("a.py", "a\n")
    repo.write("b/c.py", "c\n")
    units = Repository(Git(repo.path)).units(capture(Git(repo.path)).changes)
    assert list(cochange.links(Context(units, DEFAULT, history=EMPTY))) == []
    assert list(cochange.links(Context(units, DEFAULT))) == []


def test_a_group_joined_by_history_says_so_in_plain_words(repo: Repo) -> None:
    paired_history(repo, together=6)
    repo.write("api.py", "def fetch():\n    return 1\n")
    repo.write("docs/api.md", "# Fetching\n\nCall it twice.\n")
    changes = capture(Git(repo.path))
    assert (
        len(group_changes(changes, timeline=None, root=str(repo.path)).groups) == 2
    )  # the shipped model does not read history
    weighing = replace(DEFAULT, coefficients={**DEFAULT.coefficients, cochange.COCHANGE: 8.0})
    (group,) = group_changes(changes, timeline=None, model=weighing, root=str(repo.path)).groups
    assert "api.py and docs/api.md changed together in 7 of the last 21 commits" in group.reasons
    assert group_changes(changes, timeline=None, model=weighing, root=str(repo.path)).groups[0].reasons == group.reasons


def test_a_bench_case_reads_only_the_history_before_it_and_its_links_are_held_back(repo: Repo) -> None:
    from segmint_bench.untangle.cache import Cache
    from segmint_bench.untangle.corpus import Selection
    from segmint_bench.untangle.features import load_samples

    paired_history(repo, together=3)
    repo.write("api.py", "api later\n")
    repo.write("docs/api.md", "api later\n")
    repo.commit("api later")
    last = repo.head()
    (kept,) = [
        s
        for s in load_samples(str(repo.path), Selection(1, 20), Cache(None), keep=frozenset({"cochange"}))
        if s.tangle.case.tip == last
    ]
    before = int(repo.git("rev-list", "--count", "--first-parent", kept.tangle.case.base).strip())
    found = [cochange.split_detail(x.detail) for x in kept.links if x.kind.startswith("cochange")]
    assert found and all(read == before for *_, read in found)  # the case's own commit is not read
    (held,) = [s for s in load_samples(str(repo.path), Selection(1, 20), Cache(None)) if s.tangle.case.tip == last]
    assert not any(x.kind.startswith("cochange") for x in held.links)
    assert len(held.links) == len(kept.links) - len(found)


def test_a_change_set_of_more_files_than_the_signal_reads_gets_no_history_links(repo: Repo, monkeypatch) -> None:
    paired_history(repo)
    for path in ("api.py", "docs/api.md"):
        repo.write(path, "edited\n")
    units = Repository(Git(repo.path)).units(capture(Git(repo.path)).changes)
    ctx = Context(units, DEFAULT, history=history_at(Git(repo.path)))
    assert list(cochange.links(ctx))
    monkeypatch.setattr(cochange, "MAX_FILES", 1)
    assert list(cochange.links(ctx)) == []
