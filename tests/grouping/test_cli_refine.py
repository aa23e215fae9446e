"""``segmint group --refine`` through the real command line, against the local stand-in endpoint
(tests/support/openai_standin.py, a test double for a remote OpenAI-compatible server)."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import assert_clean_error, run_segmint
from tests.support.openai_standin import StandIn
from tests.support.refine import OFFLINE, answer, replying, three_groups
from tests.support.repo import Repo

NO_REMOTE = {
    "OPENAI_API_KEY": "",
    "SEGMINT_API_KEY": "",
    "OPENAI_BASE_URL": "",
    "SEGMINT_BASE_URL": "",
    "SEGMINT_CHAT_MODEL": "",
    "SEGMINT_EMBEDDINGS": "",
}
MERGE = answer(merges=[{"group_ids": ["group-2", "group-1"], "reason": "the guide documents the setting"}])


def segmint(*args: str, repo: Repo, standin: StandIn | None = None):
    env = dict(NO_REMOTE)
    if standin is not None:
        env.update(SEGMINT_BASE_URL=standin.base_url, SEGMINT_CHAT_MODEL="stand-in-chat", SEGMINT_TIMEOUT="5")
    return run_segmint(*args, "--repo", str(repo.path), env=env)


def groups_of(result) -> dict[str, list[str]]:
    return {g["id"]: g["hunk_ids"] for g in json.loads(result.stdout)["groups"]}


def test_a_good_answer_is_applied_and_said(repo: Repo) -> None:
    three_groups(repo)
    with StandIn(replying(MERGE)) as standin:
        result = segmint("group", "--refine", repo=repo, standin=standin)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith(
        "Refined with stand-in-chat:\n  merged group-2, group-1 into group-2 (the guide documents the setting)\n"
    )
    shown = segmint("group", "--json", repo=repo)
    assert groups_of(shown) == {"group-2": ["change-1:1", "change-2:1"], "group-3": ["change-3:1", "change-3:2"]}


def test_a_bad_answer_keeps_the_groups_with_a_note_in_json(repo: Repo) -> None:
    three_groups(repo)
    bad = answer(moves=[{"hunk_ids": ["change-7:1"], "to_group": "group-1", "reason": "r"}])
    with StandIn(replying(bad)) as standin:
        result = segmint("group", "--refine", "--json", repo=repo, standin=standin)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert groups_of(result) == OFFLINE
    assert data["refinement"] == {
        "model": "stand-in-chat",
        "applied": [],
        "notes": ["kept the offline grouping: the answer names an unknown hunk id change-7:1"],
    }


def test_malformed_json_keeps_the_groups_with_a_note(repo: Repo) -> None:
    three_groups(repo)
    with StandIn(replying("Sure! Here are my suggestions: move change-1:1.")) as standin:
        result = segmint("group", "--refine", repo=repo, standin=standin)
    assert result.returncode == 0, result.stderr
    assert "  no group changed\n  note: kept the offline grouping: the answer is not JSON" in result.stdout
    assert groups_of(segmint("group", "--json", repo=repo)) == OFFLINE


def test_without_a_chat_model_it_is_a_clear_error_and_nothing_changes(repo: Repo) -> None:
    three_groups(repo)
    assert_clean_error(segmint("group", "--refine", repo=repo), "set SEGMINT_CHAT_MODEL")
    assert groups_of(segmint("group", "--json", repo=repo)) == OFFLINE


@pytest.mark.parametrize("timeout", ["-1", "0", "nan", "inf", "1e308", "soon"])
def test_a_timeout_that_is_not_a_positive_number_of_seconds_is_named(repo: Repo, timeout: str) -> None:
    three_groups(repo)
    with StandIn(replying(MERGE)) as standin:
        result = run_segmint(
            "group",
            "--refine",
            "--repo",
            str(repo.path),
            env={
                **NO_REMOTE,
                "SEGMINT_BASE_URL": standin.base_url,
                "SEGMINT_CHAT_MODEL": "stand-in-chat",
                "SEGMINT_TIMEOUT": timeout,
            },
        )
        assert not standin.requests
    assert_clean_error(result, f"SEGMINT_TIMEOUT must be a positive number of seconds up to 3600, not '{timeout}'")
    assert groups_of(segmint("group", "--json", repo=repo)) == OFFLINE


def test_a_timeout_in_the_config_file_that_is_not_a_number_is_named(repo: Repo, tmp_path) -> None:
    three_groups(repo)
    (tmp_path / "segmint").mkdir()
    (tmp_path / "segmint" / "config.toml").write_text(
        'chat_model = "m"\nbase_url = "http://127.0.0.1:9/v1"\ntimeout = [30]\n'
    )
    result = run_segmint(
        "group",
        "--refine",
        "--repo",
        str(repo.path),
        env={**NO_REMOTE, "XDG_CONFIG_HOME": str(tmp_path), "SEGMINT_TIMEOUT": ""},
    )
    assert_clean_error(result, "SEGMINT_TIMEOUT must be a positive number of seconds up to 3600, not [30]")


def test_a_slow_endpoint_is_named_as_slow_with_the_setting_to_raise(repo: Repo) -> None:
    three_groups(repo)
    with StandIn(replying(MERGE)) as standin:
        standin.delay = 3
        result = run_segmint(
            "group",
            "--refine",
            "--repo",
            str(repo.path),
            env={
                **NO_REMOTE,
                "SEGMINT_BASE_URL": standin.base_url,
                "SEGMINT_CHAT_MODEL": "stand-in-chat",
                "SEGMINT_TIMEOUT": "0.5",
            },
        )
    assert result.returncode == 0, result.stderr
    assert (
        f"note: kept the offline grouping: The model endpoint {standin.base_url} did not answer within 0.5 s "
        "(raise SEGMINT_TIMEOUT)"
    ) in result.stdout
    assert groups_of(segmint("group", "--json", repo=repo)) == OFFLINE


def test_an_answer_cut_at_its_token_limit_is_named_as_cut(repo: Repo) -> None:
    three_groups(repo)
    with StandIn(replying(MERGE[:40])) as standin:
        standin.finish_reason = "length"
        result = segmint("group", "--refine", repo=repo, standin=standin)
    assert result.returncode == 0, result.stderr
    assert (
        "note: kept the offline grouping: The chat model stand-in-chat's answer was cut at 1,500 tokens"
        in result.stdout
    )
    assert groups_of(segmint("group", "--json", repo=repo)) == OFFLINE


@pytest.mark.parametrize(
    "url", ["not a url", "localhost:11434/v1", "ftp://example.org/v1", "http://[::1", "http://h:port/v1"]
)
def test_a_base_url_that_is_not_an_http_address_is_named(repo: Repo, url: str) -> None:
    three_groups(repo)
    result = run_segmint(
        "group",
        "--refine",
        "--repo",
        str(repo.path),
        env={**NO_REMOTE, "SEGMINT_BASE_URL": url, "SEGMINT_CHAT_MODEL": "m"},
    )
    assert result.returncode == 0, result.stderr
    assert (
        "note: kept the offline grouping: SEGMINT_BASE_URL (or OPENAI_BASE_URL) must be an http:// or https:// "
        f"address such as http://localhost:11434/v1, not {url!r}"
    ) in result.stdout
    assert groups_of(segmint("group", "--json", repo=repo)) == OFFLINE


def test_an_endpoint_answering_a_web_page_is_named_not_an_internal_error(repo: Repo) -> None:
    three_groups(repo)
    with StandIn(replying(MERGE)) as standin:
        standin.html = "<html><body>Sign in to the proxy</body></html>"
        result = segmint("group", "--refine", repo=repo, standin=standin)
    assert result.returncode == 0, result.stderr
    assert (
        f"note: kept the offline grouping: The model endpoint {standin.base_url} did not answer as an "
        "OpenAI-compatible API (check SEGMINT_BASE_URL / OPENAI_BASE_URL)"
    ) in result.stdout
    assert groups_of(segmint("group", "--json", repo=repo)) == OFFLINE


@pytest.mark.parametrize(
    "raw",
    [
        [1, 2],
        {"choices": [{}]},
        {"choices": [1]},
        {"choices": [{"message": {"content": [{"type": "text", "text": "{}"}]}}]},
    ],
)
def test_an_endpoint_answering_json_of_another_shape_keeps_the_groups_with_a_note(repo: Repo, raw: object) -> None:
    three_groups(repo)
    with StandIn(replying(MERGE)) as standin:
        standin.raw = raw
        result = segmint("group", "--refine", repo=repo, standin=standin)
    assert result.returncode == 0, result.stderr
    assert "note: kept the offline grouping: The " in result.stdout
    assert groups_of(segmint("group", "--json", repo=repo)) == OFFLINE


def test_a_chat_model_of_spaces_is_no_model_and_a_value_s_own_spaces_go(repo: Repo) -> None:
    three_groups(repo)
    result = run_segmint(
        "group",
        "--refine",
        "--repo",
        str(repo.path),
        env={**NO_REMOTE, "SEGMINT_CHAT_MODEL": "   ", "SEGMINT_BASE_URL": "http://127.0.0.1:9/v1"},
    )
    assert_clean_error(result, "set SEGMINT_CHAT_MODEL")
    with StandIn(replying(MERGE)) as standin:
        result = run_segmint(
            "group",
            "--refine",
            "--repo",
            str(repo.path),
            env={
                **NO_REMOTE,
                "SEGMINT_BASE_URL": f" {standin.base_url}\n",
                "SEGMINT_CHAT_MODEL": "stand-in-chat\n",
                "OPENAI_API_KEY": "sk-pasted\n",
            },
        )
        (request, *_) = standin.requests
    assert result.returncode == 0 and "Refined with stand-in-chat:\n  merged group-2" in result.stdout, result
    assert request["body"]["model"] == "stand-in-chat" and request["auth"] == "Bearer sk-pasted"


def test_a_setting_in_the_config_file_that_is_not_a_string_is_named(repo: Repo, tmp_path) -> None:
    three_groups(repo)
    (tmp_path / "segmint").mkdir()
    (tmp_path / "segmint" / "config.toml").write_text('chat_model = 5\nbase_url = "http://127.0.0.1:9/v1"\n')
    result = run_segmint(
        "group", "--refine", "--repo", str(repo.path), env={**NO_REMOTE, "XDG_CONFIG_HOME": str(tmp_path)}
    )
    assert_clean_error(
        result, f"chat_model in {tmp_path / 'segmint' / 'config.toml'} must be a string in quotes, not 5"
    )


def test_dry_run_prints_what_would_be_sent_and_needs_no_model(repo: Repo) -> None:
    three_groups(repo)
    repo.write("setup.cfg", '[metadata]\nname = y\ntoken = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"\n')
    result = segmint("group", "--refine", "--dry-run", repo=repo)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Instructions (sent with each request):\nYou review how a tool grouped")
    assert "--- request 1 of 1: 4 groups, about " in result.stdout, "the new line came as a group of its own"
    assert "  - change-3:2 src/parser.py @@ -14,4 +14,4 @@" in result.stdout
    assert "ghp_0123" not in result.stdout and "+[line hidden: looks like a secret]" in result.stdout
    assert_clean_error(segmint("group", "--dry-run", repo=repo), "--dry-run goes with --refine")
