"""``segmint bench provenance``: replaying a small history as recorded agent sessions, and the command."""

from __future__ import annotations

import json

from segmint_bench.provenance import format_below, summarize
from segmint_bench.provenance.replay import SCENARIOS, replay, reword
from segmint_bench.untangle.corpus import Selection, tangles
from segmint_bench.untangle.workspace import Workspace
from segmint_core.changes import capture
from segmint_core.trajectory.provenance.attribution import line_provenance
from tests.bench.test_untangle import history
from tests.support.cli import run_segmint
from tests.support.repo import Repo


def test_subjects_are_reworded_as_a_person_asks() -> None:
    assert reword("fix(parser): Handle an empty config (#123)") == "handle an empty config"
    assert reword("Fixed yet another deadlock.") == "fix yet another deadlock"


def test_a_replay_ends_as_the_tip_and_records_every_commits_lines_under_its_prompt(repo: Repo) -> None:
    history(repo)
    with Workspace(str(repo.path)) as workspace:
        ((_, tangle),) = list(tangles(workspace, Selection(2, 5)))
        for scenario in SCENARIOS:
            replayed = replay(workspace.git, tangle.case, scenario, seed=0)
            assert capture(workspace.git).fingerprint == tangle.changes.fingerprint, scenario.name
            provenance = line_provenance(workspace.root, tangle.changes)
            owners = {(h, i): provenance.owners[h][i] for h, i in tangle.truth}
            if scenario.unrecorded == 0:
                by_commit: dict[int, set] = {}
                for key, commit in tangle.truth.items():
                    by_commit.setdefault(commit, set()).add(owners[key])
                assert all(len(o) == 1 and None not in o for o in by_commit.values()), scenario.name
                assert len({o for found in by_commit.values() for o in found}) == 2
            assert any("fix sub" in p.lower() for p in replayed.prompts), replayed.prompts
    assert repo.git("status", "--porcelain") == ""  # the benchmarked repository is untouched


def test_the_command_prints_every_scenario_beside_the_offline_engine(repo: Repo) -> None:
    history(repo)
    result = run_segmint("bench", "provenance", str(repo.path), "--k", "2", "--n", "1", "--no-cache")
    assert result.returncode == 0, result.stderr
    for scenario in SCENARIOS:
        assert scenario.name in result.stdout
    assert "offline" in result.stdout and "title word F1" in result.stdout
    data = json.loads(
        run_segmint(
            "bench", "provenance", str(repo.path), "--k", "2", "--n", "1", "--no-cache", "--scenarios", "one", "--json"
        ).stdout
    )
    (row,) = data["cases"]
    assert row["ari"] == 1.0 and row["scenario"] == "one prompt per commit" and row["titles"]
    assert row["lines"] > 0 and row["offline_groups"] >= 1
    listed = run_segmint(
        "bench", "provenance", str(repo.path), "--k", "2", "--n", "1", "--no-cache", "--scenarios", "one", "--below"
    )
    assert "Cases below the offline engine: 0" in listed.stdout


def case_row(case: str, ari: float, offline: float) -> dict:
    return {
        "repo": "r",
        "k": 2,
        "case": case,
        "scenario": "25% unrecorded",
        "ari": ari,
        "exact": 0.0,
        "offline_ari": offline,
        "offline_exact": 0.0,
        "groups": 3,
        "offline_groups": 2,
        "lines": 17,
        "edits": 4,
        "unrecorded": 1,
    }


def test_the_cases_below_the_offline_engine_are_listed_with_their_sizes() -> None:
    rows = [case_row("a..b", 0.2, 0.3), case_row("c..d", 0.9, 0.3), case_row("e..f", 0.5, 0.5)]
    text = format_below(rows)
    assert text.splitlines()[0] == "Cases below the offline engine: 1"
    assert "r k=2 a..b: ARI 0.200 (offline 0.300), 17 changed lines, 3 groups (offline 2), 1 of 4 edits" in text
    assert summarize(rows)["by_k"]["25% unrecorded"]["2"]["below_offline"] == 1


def test_an_unknown_scenario_is_one_sentence(repo: Repo) -> None:
    history(repo)
    result = run_segmint("bench", "provenance", str(repo.path), "--scenarios", "nope")
    assert result.returncode == 2 and "No scenario starts with nope" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_commands_short_option_is_not_taken_for_a_top_level_one(repo: Repo) -> None:
    history(repo)
    result = run_segmint(
        "bench", "untangle", str(repo.path), "--k", "2", "--n", "1", "--synthetic-hunks", "0", "--no-cache"
    )
    assert result.returncode == 0, result.stderr


def test_a_sloppy_edit_leaves_trailing_blanks_only_on_the_lines_it_writes(tmp_path) -> None:
    # Once every line of a file's first edit got blanks, so that task owned the whole file and a later
    # task's lines repeating the file's text were lined up against it (two formatter cases below offline).
    from segmint_bench.provenance.replay import FileEdit, _write

    (tmp_path / "a.go").write_bytes(b"func a() {\n\tc.Execute()\n}\n")
    written: dict[str, list[str]] = {}
    _write(tmp_path, FileEdit(0, "a.go", b"func a() {\n\tc.Reset()\n\tc.Execute()\n}\n", "100644"), written)
    assert (tmp_path / "a.go").read_bytes() == b"func a() {\n\tc.Reset()  \n\tc.Execute()\n}\n"
    _write(
        tmp_path, FileEdit(1, "a.go", b"func a() {\n\tc.Reset()\n\tc.Execute()\n}\n\nfunc b() {}\n", "100644"), written
    )
    assert (tmp_path / "a.go").read_bytes() == b"func a() {\n\tc.Reset()  \n\tc.Execute()\n}\n\nfunc b() {}  \n"


def test_a_case_whose_later_commit_rewrites_an_earlier_ones_new_line_is_told_and_scored_apart(repo: Repo) -> None:
    from segmint_bench.provenance.runner import rewrites_earlier_lines
    from segmint_core.git import Git

    repo.write("guide.rst", "Intro\n")
    repo.commit("base")
    repo.write("guide.rst", "Intro\n\n.. _exit-codes\n\nExit codes\n")
    first = repo.commit("Add a section on exit codes")
    repo.write("guide.rst", "Intro\n\n.. _exit-codes:\n\nExit codes\n")
    fixup = repo.commit("Fix the cross link typo")
    repo.write("other.txt", "Intro\n")
    apart = repo.commit("Add other.txt")
    git = Git(repo.path)
    assert rewrites_earlier_lines(git, (first, fixup))
    assert not rewrites_earlier_lines(git, (first, apart)), "a removed line of HEAD's is no rewrite"
    rows = [{**case_row("a..b", 0.5, 0.3), "rewrites": True}, {**case_row("c..d", 0.9, 0.3), "rewrites": False}]
    figures = summarize(rows)["by_k"]["25% unrecorded"]["2"]
    assert (figures["ari"], figures["ari_without_rewrites"], figures["cases_without_rewrites"]) == (0.7, 0.9, 1)
