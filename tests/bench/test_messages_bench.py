"""``segmint bench messages`` in a house of plain subjects: real temporary repositories,
cloned by the bench and never touched; the figures read through the command."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from segmint_bench.messages import plain, voting
from segmint_bench.messages.plain import fold, lead_verb
from segmint_bench.messages.scoring import pick_and_propose, score, word_f1
from segmint_core.planning import offline_message, precedent
from segmint_core.planning.precedent import Precedent
from segmint_core.planning.style import HouseStyle
from segmint_core.planning.voice import Voting
from tests.planning.test_house_style import conventional_history
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo


def plain_history(repo: Repo) -> None:
    """Fourteen plain subjects, then two single commits the bench can score: one that adds a
    function with its test, one that edits a docstring."""
    repo.write("calc/ops.py", "def sub(a, b):\n    return a - b\n")
    repo.commit("Start the calculator")
    for n in range(12):
        repo.write(f"notes/note{n}.txt", f"note {n}\n")
        repo.commit(f"Add note {n}")
    repo.write("calc/ops.py", "def sub(a, b):\n    return a - b\n\n\ndef add(a, b):\n    return a + b\n")
    repo.write("tests/test_ops.py", "from calc.ops import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n")
    repo.commit("Added add to the calculator (#12)")
    repo.write(
        "calc/ops.py", '"""Operations."""\n\n\ndef sub(a, b):\n    return a - b\n\n\ndef add(a, b):\n    return a + b\n'
    )
    repo.commit("Document the operations module")


@pytest.mark.parametrize(
    ("forms", "key"),
    [
        (("Add", "Added", "Adds", "adding"), "ad"),
        (("Fix", "fixes", "Fixed", "fixing"), "fix"),
        (("Update", "Updated", "updates"), "updat"),
        (("use", "Used", "uses"), "us"),
        (("Stop", "stopped"), "stop"),
    ],
)
def test_the_lead_verb_folds_simple_inflection(forms: tuple[str, ...], key: str) -> None:
    assert {fold(w.lower()) for w in forms} == {key}


def test_the_lead_verb_is_the_first_word_after_an_area_prefix() -> None:
    assert lead_verb("[vim] Added mappings (#12)") == lead_verb("printer: add mappings") == "ad"
    assert lead_verb("fix(parser)!: Handle empty input") == "handl"
    assert lead_verb("") == ""


def test_word_f1_compares_lower_case_words_without_punctuation() -> None:
    assert word_f1("Add `add` to calc.", "added ADD, to calc") == pytest.approx(0.75)
    assert word_f1("Fix it", "Document the module") == 0.0


def test_a_plain_house_is_scored_on_word_f1_lead_verb_and_one_commit(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "plain")
    plain_history(repo)
    before = repo.head()
    result = run_segmint("bench", "messages", str(repo.path), "--n", "5", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert repo.head() == before and repo.git("status", "--porcelain") == ""  # cloned, never touched
    figures = json.loads(result.stdout)
    assert figures["style"] == "plain"  # auto: the house does not write Conventional Commits
    cases = {c["real"]: c for c in figures["cases"]}
    # The notes change one line each (too small); the pull request number is not a word of the subject.
    assert set(cases) == {"Added add to the calculator", "Document the operations module"}
    assert cases["Added add to the calculator"]["real_verb"] == "ad"
    summary = figures["summary"]
    assert summary["one_commit"] == statistics.fmean(c["commits"] == 1 for c in cases.values())
    assert summary["verb"] == statistics.fmean(c["verb_ok"] for c in cases.values())
    assert summary["clean"] == 1.0 and 0 <= summary["f1"] <= 1
    table = run_segmint("bench", "messages", str(repo.path), "--n", "5", cwd=tmp_path).stdout
    assert "plain style" in table and "word F1" in table and "lead verb" in table and "one commit" in table


def test_leave_one_out_prints_a_row_per_repository_and_the_mean_for_each_style(tmp_path: Path) -> None:
    plain_repos, conventional = [], Repo(tmp_path / "conventional")
    for name in ("one", "two"):
        repo = Repo(tmp_path / name)
        plain_history(repo)
        plain_repos.append(str(repo.path))
    conventional_history(conventional)
    conventional.write("shop/parser/rule2.py", "def rule2(text):\n    return text.strip().upper()\n")
    conventional.commit("fix(parser): upper-case rule2")
    args = ("bench", "messages", "--n", "3", "--json", "--leave-one-out", *plain_repos, str(conventional.path))
    figures = json.loads(run_segmint(*args, cwd=tmp_path).stdout)
    rows = figures["plain"]["rows"]
    assert [r["repo"] for r in rows] == plain_repos and rows[0]["fitted_on"] == [plain_repos[1]]
    assert figures["plain"]["mean"]["f1"] == pytest.approx(sum(r["held_out"]["f1"] for r in rows) / 2)
    assert [r["repo"] for r in figures["conventional"]["rows"]] == [str(conventional.path)]
    assert 0 <= figures["conventional"]["mean"]["type"] <= 1
    text = run_segmint("bench", "messages", "--n", "3", "--leave-one-out", *plain_repos, cwd=tmp_path).stdout
    assert "mean of the repositories" in text and text.count("/one") + text.count("/two") == 2
    forced = run_segmint("bench", "messages", "--n", "3", "--style", "conventional", plain_repos[0], cwd=tmp_path)
    assert_clean_error(forced, "No single commit with a Conventional subject fits the limits in")


def test_cases_kept_in_a_cache_are_read_back_and_score_the_same(tmp_path: Path) -> None:
    """The second run reads the proposed cases back instead of grouping again; its figures are
    the same, and another --n is proposed afresh."""
    repo = Repo(tmp_path / "conventional")
    conventional_history(repo)
    repo.write("shop/parser/rule2.py", "def rule2(text):\n    return text.strip().upper()\n")
    repo.commit("fix(parser): upper-case rule2")
    cache = tmp_path / "cache"
    args = ("bench", "messages", str(repo.path), "--n", "3", "--json", "--cases-cache", str(cache))
    first = run_segmint(*args, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "cases read from" not in first.stderr and len(list(cache.iterdir())) == 1
    second = run_segmint(*args, cwd=tmp_path)
    assert "cases read from" in second.stderr and "case 1/" not in second.stderr
    assert json.loads(second.stdout) == json.loads(first.stdout)
    other = run_segmint(*args[:3], "--n", "2", *args[5:], cwd=tmp_path)
    assert "cases read from" not in other.stderr and len(list(cache.iterdir())) == 2
    missing = run_segmint("bench", "messages", str(tmp_path / "nowhere"), "--cases-cache", str(cache), cwd=tmp_path)
    assert_clean_error(missing, "Cannot read")


def test_a_bundle_made_again_with_the_same_content_reads_its_cases_back(tmp_path: Path) -> None:
    """The cache keys a bundle on its bytes: the same bundle written afresh (a new time of
    change, as data set up again has) reads its cases back; a bundle of more history does not."""
    repo = Repo(tmp_path / "conventional")
    conventional_history(repo)
    bundle, cache = tmp_path / "history.bundle", tmp_path / "cache"
    repo.git("bundle", "create", str(bundle), "--all")
    args = ("bench", "messages", str(bundle), "--n", "3", "--json", "--cases-cache", str(cache))
    first = run_segmint(*args, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    content = bundle.read_bytes()
    bundle.unlink()
    bundle.write_bytes(content)
    again = run_segmint(*args, cwd=tmp_path)
    assert "cases read from" in again.stderr and json.loads(again.stdout) == json.loads(first.stdout)
    repo.write("shop/parser/rule2.py", "def rule2(text):\n    return text.strip().upper()\n")
    repo.commit("fix(parser): upper-case rule2")
    bundle.unlink()
    repo.git("bundle", "create", str(bundle), "--all")
    grown = run_segmint(*args, cwd=tmp_path)
    assert grown.returncode == 0 and "cases read from" not in grown.stderr


def test_each_case_titled_once_under_every_voting_gives_the_rows_of_titling_each_voting_afresh(
    tmp_path: Path,
) -> None:
    """The held-out benches read each proposed commit once and title it under every voting of
    their grids, the neighbours ranked once and kept; titled afresh under each voting, nothing
    kept between them, every row is the same."""
    plain_repo, conventional = Repo(tmp_path / "plain"), Repo(tmp_path / "conventional")
    plain_history(plain_repo)
    conventional_history(conventional)
    conventional.write("shop/parser/rule2.py", "def rule2(text):\n    return text.strip().upper()\n")
    conventional.commit("fix(parser): upper-case rule2")

    def afresh(parts: list, style: HouseStyle, voting: Voting) -> str:
        precedent._rankings.clear()
        return offline_message(parts, style=style, voting=voting).title

    plain_cases = pick_and_propose(str(plain_repo.path), n=3, seed=0, style="plain").proposals
    assert len(plain_cases) == 2
    for case in plain_cases:
        largest = case.plans[case.largest][0]
        fresh = [plain.score(case, afresh(largest, case.style, v)) for v in plain.GRID]
        assert [plain.score(case, t) for t in plain.retitled(case, plain.GRID)] == fresh
    cases = pick_and_propose(str(conventional.path), n=3, seed=0, style="conventional").proposals
    assert cases
    votings = [*voting.GRID, *voting.MODEL_GRID]
    for case in cases:
        fresh = [score(case, [afresh(parts, case.style, v) for parts, _ in case.plans]) for v in votings]
        assert [score(case, t) for t in voting.titles(case, votings)] == fresh


def test_the_nearest_past_commits_are_ranked_once_per_list_and_change() -> None:
    pasts = [Precedent(("k:code", "d:src"), "fix", None), Precedent(("k:doc",), "docs", None)]
    same = list(pasts)
    ranked = precedent.nearest(pasts, ("k:code",))
    assert precedent.nearest(pasts, ("k:code",)) is ranked  # kept
    assert precedent.nearest(same, ("k:code",)) == ranked and precedent.nearest(same, ("k:code",)) is not ranked
    assert precedent.nearest(pasts, ("k:code",), files_only=True) is not ranked
    assert [p.type for _, p in ranked] == ["fix"]
    assert precedent.vote(pasts, ("k:code",), lambda p: p.type, k=1).shares() == {"fix": 1.0}
