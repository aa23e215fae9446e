"""``segmint group`` through the real command line."""

from __future__ import annotations

import json
import socket

from tests.grouping.scenarios import two_intents
from tests.grouping.standin import StandIn
from tests.support.cli import assert_clean_error, run_segmint
from tests.support.repo import Repo

NO_REMOTE = {
    "OPENAI_API_KEY": "",
    "SEGMINT_API_KEY": "",
    "OPENAI_BASE_URL": "",
    "SEGMINT_BASE_URL": "",
    "SEGMINT_CHAT_MODEL": "",
    "SEGMINT_EMBEDDINGS": "",
}


def segmint(*args: str, repo: Repo, env: dict | None = None):
    return run_segmint(*args, "--repo", str(repo.path), env={**NO_REMOTE, **(env or {})})


def test_json_lists_changes_as_segmint_changes_does_when_nothing_is_split(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    repo.write("b.md", "Notes\n")
    repo.commit()
    repo.write("a.py", "def alpha():\n    return 2\n")
    repo.write("b.md", "Notes about the weather\n")
    grouped = segmint("group", "--json", repo=repo)
    listed = segmint("changes", "--json", repo=repo)
    assert grouped.returncode == 0, grouped.stderr
    data = json.loads(grouped.stdout)
    assert data["changes"] == json.loads(listed.stdout)["changes"]
    assert grouped.stdout.startswith(listed.stdout.rstrip("\n")[:-2])
    assert set(data["groups"][0]) == {"id", "change_ids", "hunk_ids", "summary", "reasons"}


def test_every_hunk_id_in_a_group_resolves_including_split_hunks(repo: Repo) -> None:
    result = segmint("group", "--json", repo=two_intents(repo))
    data = json.loads(result.stdout)
    hunk_ids = {h["id"] for c in data["changes"] for h in c["hunks"]}
    assert any(h.get("parent_id") for c in data["changes"] for h in c["hunks"])
    grouped = [h for g in data["groups"] for h in g["hunk_ids"]]
    assert sorted(grouped) == sorted(hunk_ids)
    assert segmint("group", "--json", repo=repo).stdout == result.stdout  # deterministic


def test_text_output_shows_summaries_and_reasons(repo: Repo) -> None:
    result = segmint("group", repo=two_intents(repo))
    assert result.returncode == 0, result.stderr
    assert "group-1  `check_token` takes `strict`" in result.stdout
    assert "1 hunk split between groups" in result.stdout


def test_openai_provider_without_a_key_names_the_setting_and_local_still_works(repo: Repo) -> None:
    two_intents(repo)
    assert_clean_error(segmint("group", "--provider", "openai", repo=repo), "OPENAI_API_KEY")
    assert segmint("group", "--provider", "local", repo=repo).returncode == 0


def test_unreachable_endpoint_is_a_clear_error(repo: Repo) -> None:
    two_intents(repo)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"SEGMINT_BASE_URL": f"http://127.0.0.1:{port}/v1", "SEGMINT_TIMEOUT": "2"}
    assert_clean_error(segmint("group", "--provider", "openai", repo=repo, env=env), "Cannot reach the model endpoint")
    assert segmint("group", "--provider", "local", repo=repo, env=env).returncode == 0


def test_configured_embeddings_provider_is_the_default(repo: Repo) -> None:
    two_intents(repo)
    with StandIn() as server:
        env = {"SEGMINT_EMBEDDINGS": "openai", "SEGMINT_BASE_URL": server.base_url}
        result = segmint("group", "--json", repo=repo, env=env)
    assert result.returncode == 0, result.stderr
    assert any(path == "/v1/embeddings" for path, _ in server.requests)


def test_a_lone_hunk_is_counted_in_the_singular(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    repo.commit()
    repo.write("a.py", "def alpha():\n    return 2\n")
    result = segmint("group", repo=repo)
    assert "    1 hunk in a.py\n" in result.stdout and result.stdout.endswith("\n1 group\n")


def test_uncertain_hunks_are_marked_and_the_least_certain_decisions_listed(repo: Repo) -> None:
    from segmint_core.session.session import Session

    session = Session.open(str(two_intents(repo).path))
    session.regroup()
    session.merge_groups([g.id for g in session.groups])
    (doubt,) = session.confidence().uncertain
    text = segmint("group", repo=repo).stdout
    for hunk in doubt.hunk_ids:
        assert f"    ? {hunk} may belong to a group of its own (" in text
    assert "Least certain, settle these first" in text
    assert f"  1. {doubt.text}, {round(100 * doubt.probability)}% likely" in text
    data = json.loads(segmint("group", "--json", repo=repo).stdout)
    assert data["confidence"]["uncertain"][0]["hunk_ids"] == doubt.hunk_ids
