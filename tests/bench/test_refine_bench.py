"""``segmint bench untangle --refine``: scored against the local stand-in endpoint (tests/support/
openai_standin.py, a test double for a remote OpenAI-compatible server), and said plainly without one."""

from __future__ import annotations

import json
import re

from tests.bench.test_untangle import history
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.openai_standin import StandIn
from tests.support.refine import answer
from tests.support.repo import Repo

NO_REMOTE = {
    "OPENAI_API_KEY": "",
    "SEGMINT_API_KEY": "",
    "OPENAI_BASE_URL": "",
    "SEGMINT_BASE_URL": "",
    "SEGMINT_CHAT_MODEL": "",
}


def merge_everything(body: dict) -> str:
    groups = re.findall(r"^(group-\d+):", body["messages"][1]["content"], re.MULTILINE)
    return answer(merges=[{"group_ids": groups, "reason": "one intent"}] if len(groups) > 1 else [])


def bench(repo: Repo, *options: str, env: dict | None = None):
    return run_segmint(
        "bench",
        "untangle",
        str(repo.path),
        "--n",
        "1",
        "--synthetic-hunks",
        "0",
        "--no-cache",
        *options,
        env={**NO_REMOTE, **(env or {})},
    )


def test_refine_scores_the_models_groups_beside_the_engines(repo: Repo) -> None:
    history(repo)
    with StandIn(merge_everything) as standin:
        env = {"SEGMINT_BASE_URL": standin.base_url, "SEGMINT_CHAT_MODEL": "stand-in-chat"}
        result = bench(repo, "--refine", "--json", env=env)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    rows = {r["method"]: r for r in figures["summary"]}
    assert rows["graph"]["ari"] == 1.0, "the engine untangles this case"
    assert rows["graph + refine"]["ari"] == rows["all-in-one"]["ari"] == 0.0, "the model merged it all"
    assert figures["refine"] == {"model": "stand-in-chat", "cases": {"applied": 1}}
    assert len(standin.requests) == 1


def test_refine_without_a_model_says_none_is_configured_and_scores_the_rest(repo: Repo) -> None:
    history(repo)
    result = bench(repo, "--refine")
    assert result.returncode == 0, result.stderr
    assert "graph + refine: not measured: no chat model is configured here (set SEGMINT_CHAT_MODEL" in result.stdout
    assert "per-file" in result.stdout


def test_refine_is_refused_with_leave_one_out(repo: Repo, tmp_path) -> None:
    result = run_segmint(
        "bench", "untangle", "--leave-one-out", str(repo.path), str(tmp_path), "--refine", env=NO_REMOTE
    )
    assert_clean_error(result, "--refine goes with one REPO")
