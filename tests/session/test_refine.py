"""Refining the groups with a chat model (the local stand-in endpoint, tests/support/openai_standin.py:
a test double for a remote OpenAI-compatible server): a good answer is applied exactly; every kind of
bad answer keeps the offline grouping and says why; nothing private is sent."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest

from segmint_core.config import Settings
from segmint_core.errors import SegmintError
from segmint_core.session.session import Session
from tests.support.openai_standin import StandIn
from tests.support.refine import OFFLINE, answer, grouping
from tests.support.refine import three_groups as make_three_groups
from tests.support.repo import Repo


@pytest.fixture
def three_groups(repo: Repo) -> Repo:
    return make_three_groups(repo)


def refine(repo: Repo, standin: StandIn, **options) -> tuple[Session, object]:
    settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat", **options)
    session = Session.open(str(repo.path), settings=settings)
    assert grouping(session) == OFFLINE
    return session, session.refine_groups(actor="agent")


def test_a_good_answer_is_applied_exactly_and_logged_with_its_actor(three_groups: Repo) -> None:
    reply = answer(
        moves=[{"hunk_ids": ["change-1:1"], "to_group": "group-2", "reason": "the guide documents the setting"}],
        splits=[
            {
                "group_id": "group-3",
                "parts": [["change-3:1"], ["change-3:2"]],
                "reason": "parse and render change for different reasons",
            }
        ],
    )
    with StandIn(reply) as standin:
        session, refinement = refine(three_groups, standin)
        request = standin.requests[-1]["body"]
    assert grouping(session) == {
        "group-2": ["change-1:1", "change-2:1"],
        "group-3": ["change-3:1"],
        "group-4": ["change-3:2"],
    }
    assert refinement.notes == []
    assert refinement.applied == [
        "split group-3 in 2 (parse and render change for different reasons)",
        "moved change-1:1 to group-2 (the guide documents the setting)",
    ]
    last = session.activity[-1]
    assert (last.actor, last.action) == ("agent", "refined")
    assert last.text.startswith("agent asked stand-in-chat to refine the groups: split group-3 in 2")
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["schema"]["required"] == ["moves", "merges", "splits"]
    # Another process (the TUI, say) reads the same groups, and z takes the refinement back.
    other = Session.open(str(three_groups.path), settings=Settings())
    assert grouping(other) == grouping(session)
    other.undo_move()
    assert grouping(other) == OFFLINE


def test_a_merge_keeps_the_first_group(three_groups: Repo) -> None:
    reply = answer(merges=[{"group_ids": ["group-2", "group-1"], "reason": "one release"}])
    with StandIn(reply) as standin:
        session, refinement = refine(three_groups, standin)
    assert grouping(session) == {"group-2": ["change-1:1", "change-2:1"], "group-3": ["change-3:1", "change-3:2"]}
    assert refinement.applied == ["merged group-2, group-1 into group-2 (one release)"]


MOVE = {"hunk_ids": ["change-1:1"], "to_group": "group-2", "reason": "r"}
BAD_ANSWERS = {
    "malformed JSON": ('{"moves": [', "the answer is not JSON"),
    "not an object": ("[]", "not an object of moves, merges and splits"),
    "a key missing": (json.dumps({"moves": [], "merges": []}), "not exactly"),
    "an extra key": (json.dumps({"moves": [], "merges": [], "splits": [], "groups": []}), "not exactly"),
    "a wrong type": (
        answer(moves=[{"hunk_ids": "change-1:1", "to_group": "group-2", "reason": "r"}]),
        "moves[1].hunk_ids must be a non-empty list of ids",
    ),
    "an empty reason": (answer(moves=[{**MOVE, "reason": " "}]), "moves[1].reason must be a non-empty string"),
    "an unknown hunk": (answer(moves=[{**MOVE, "hunk_ids": ["change-9:1"]}]), "unknown hunk id change-9:1"),
    "an unknown group": (answer(moves=[{**MOVE, "to_group": "group-9"}]), "unknown group id group-9"),
    "a doubled hunk": (answer(moves=[MOVE, {**MOVE, "to_group": "group-3"}]), "change-1:1 more than once"),
    "a doubled group": (
        answer(
            merges=[
                {"group_ids": ["group-1", "group-2"], "reason": "r"},
                {"group_ids": ["group-2", "group-3"], "reason": "r"},
            ]
        ),
        "group-2 more than once",
    ),
    "a dropped hunk": (
        answer(splits=[{"group_id": "group-3", "parts": [["change-3:1"], []], "reason": "r"}]),
        "at least two parts, none of them empty",
    ),
    "a split that drops a hunk": (
        answer(splits=[{"group_id": "group-3", "parts": [["change-3:1"], ["change-1:1"]], "reason": "r"}]),
        "names change-1:1, not in that group",
    ),
    "a split that leaves a hunk out": (
        answer(splits=[{"group_id": "group-3", "parts": [["change-3:1"]], "reason": "r"}]),
        "at least two parts",
    ),
    "a merge of one group": (answer(merges=[{"group_ids": ["group-1"], "reason": "r"}]), "a merge names only group-1"),
    "a move to where it is": (answer(moves=[{**MOVE, "to_group": "group-1"}]), "already in group-1"),
}


@pytest.mark.parametrize("case", list(BAD_ANSWERS))
def test_a_bad_answer_keeps_the_offline_grouping_with_a_note(three_groups: Repo, case: str) -> None:
    reply, why = BAD_ANSWERS[case]
    with StandIn(reply) as standin:
        session, refinement = refine(three_groups, standin)
    assert grouping(session) == OFFLINE
    assert refinement.applied == [] and len(refinement.notes) == 1
    assert refinement.notes[0].startswith("kept the offline grouping: ") and why in refinement.notes[0]
    last = session.activity[-1]
    assert (last.actor, last.action) == ("agent", "kept") and why in last.text


def test_a_split_that_drops_a_hunk_of_its_group_is_refused(repo: Repo) -> None:
    repo.write(
        "a.py",
        "def f():\n    return 1\n" + "\n" * 12 + "def g():\n    return 2\n" + "\n" * 12 + "def h():\n    return 3\n",
    )
    repo.commit()
    repo.write(
        "a.py",
        "def f():\n    return 10\n" + "\n" * 12 + "def g():\n    return 20\n" + "\n" * 12 + "def h():\n    return 30\n",
    )
    session = Session.open(str(repo.path), settings=Settings())
    session.regroup()
    session.merge_groups([g.id for g in session.groups]) if len(session.groups) > 1 else None
    (group,) = session.groups
    assert group.hunk_ids == ["change-1:1", "change-1:2", "change-1:3"]
    reply = answer(splits=[{"group_id": group.id, "parts": [["change-1:1"], ["change-1:2"]], "reason": "r"}])
    with StandIn(reply) as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        refinement = Session.open(str(repo.path), settings=settings).refine_groups()
    assert refinement.notes == [f"kept the offline grouping: the split of {group.id} drops change-1:3"]


@pytest.mark.parametrize("failure", ["error", "timeout"])
def test_an_endpoint_failure_keeps_the_offline_grouping(three_groups: Repo, failure: str) -> None:
    with StandIn(answer(moves=[MOVE])) as standin:
        if failure == "error":
            standin.fail_with = 500
        else:
            standin.delay = 1.0
        session, refinement = refine(three_groups, standin, timeout=0.2)
    assert grouping(session) == OFFLINE and refinement.applied == []
    assert refinement.notes[0].startswith("kept the offline grouping: ")
    assert (
        "failed" if failure == "error" else "did not answer within 0.2 s (raise SEGMINT_TIMEOUT)"
    ) in refinement.notes[0]


def test_a_request_that_timed_out_is_not_tried_again(three_groups: Repo) -> None:
    """SEGMINT_TIMEOUT bounds a request in total: a slow endpoint costs it once, not once per attempt."""
    import openai  # noqa: F401 - imported before the clock starts, as a running session has it

    with StandIn(answer(moves=[MOVE])) as standin:
        standin.delay = 5.0
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat", timeout=1.0)
        session = Session.open(str(three_groups.path), settings=settings)
        began = time.monotonic()
        refinement = session.refine_groups()
        took = time.monotonic() - began
        assert len(standin.requests) == 1
    assert took < 2.0, f"{took:.2f} s: a second attempt of its own 1 s would have doubled it"
    assert "did not answer within 1 s (raise SEGMINT_TIMEOUT)" in refinement.notes[0]


@pytest.mark.parametrize("failures", [1, None])
def test_a_passing_failure_is_tried_once_more_within_the_timeout(three_groups: Repo, failures: int | None) -> None:
    with StandIn(answer(moves=[MOVE])) as standin:
        standin.fail_with, standin.fail_count = 503, failures
        session, refinement = refine(three_groups, standin, timeout=5.0)
        assert len(standin.requests) == 2, "tried once more, and only once"
    if failures == 1:
        assert grouping(session)["group-2"] == ["change-1:1", "change-2:1"]
    else:
        assert grouping(session) == OFFLINE and "failed" in refinement.notes[0]


def test_an_endpoint_without_structured_output_is_asked_again_plainly(three_groups: Repo) -> None:
    with StandIn(answer(moves=[MOVE])) as standin:
        standin.refuse_response_format = True
        session, refinement = refine(three_groups, standin)
        asked = [("response_format" in r["body"]) for r in standin.requests]
    assert asked == [True, False], "asked with the schema, refused, then asked without it"
    assert grouping(session)["group-2"] == ["change-1:1", "change-2:1"]


def test_groups_edited_while_the_model_answers_are_left_alone(three_groups: Repo) -> None:
    with StandIn(answer(moves=[MOVE])) as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        session = Session.open(str(three_groups.path), settings=settings)
        person = Session.open(str(three_groups.path), settings=Settings())
        standin.delay = 0.5
        edit = threading.Timer(0.1, lambda: person.merge_groups(["group-1", "group-3"]))
        edit.start()
        refinement = session.refine_groups()
        edit.join()
    assert refinement.applied == [] and "the groups changed while the model answered" in refinement.notes[-1]
    assert grouping(session) == {"group-1": ["change-1:1", "change-3:1", "change-3:2"], "group-2": ["change-2:1"]}


def test_without_a_chat_model_refining_is_refused_clearly(three_groups: Repo) -> None:
    session = Session.open(str(three_groups.path), settings=Settings())
    with pytest.raises(SegmintError, match="set SEGMINT_CHAT_MODEL"):
        session.refine_groups()


def test_secret_lines_and_ignored_files_are_not_sent(repo: Repo) -> None:
    repo.write(".gitignore", "*.env\n")
    repo.write("deploy.env", "HOST=example.org\n")
    repo.git("add", "-f", "deploy.env")
    repo.write("settings.py", "DEBUG = False\n")
    repo.commit()
    repo.write("deploy.env", "HOST=internal.example.org\nDB_URL=postgres://admin:opensesame@db/prod\n")
    repo.write("settings.py", 'DEBUG = False\nAPI_KEY = "sk-live-0123456789abcdefghijklmnop"\nNAME = "x"\n')
    Session.open(str(repo.path), settings=Settings()).regroup()
    with StandIn(answer()) as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        refinement = Session.open(str(repo.path), settings=settings).refine_groups()
        sent = "\n".join(m["content"] for r in standin.requests for m in r["body"]["messages"])
    assert refinement.notes == ["the model found nothing to change"]
    assert "sk-live-0123456789" not in sent and "looks like a secret" in sent and 'NAME = "x"' in sent
    assert "internal.example.org" not in sent and "opensesame" not in sent and "deploy.env" not in sent
    assert "a git-ignored or secret file: nothing of it is sent" in sent


def test_files_and_lines_are_withheld_by_their_whole_names_and_shapes(repo: Repo) -> None:
    """Secrets by shape (a .env, a private key, `password = ...`) stay here; words that only hold
    such a name (tokenizer.py, keyboard, author) go."""
    repo.write(".env", "DEBUG=1\n")
    repo.write("src/tokenizer.py", "x = 1\n")
    repo.write("src/keyboard.py", "y = 1\n")
    repo.write("certs/tls.key", "")
    repo.write(".env.example", "DEBUG=\n")
    repo.commit()
    repo.write(".env", "DEBUG=1\nDB_HOST=internal.example.org\n")
    repo.write("src/tokenizer.py", "x = 1\ntokenizer = Tokenizer(vocab_size=50000)\npassword = 'hunter2hunter2'\n")
    repo.write("src/keyboard.py", "y = 1\nkeyboard_layout = 'us-international'\nauthor = 'jane.doe@example.org'\n")
    repo.write(
        "certs/tls.key", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"
    )
    repo.write(".env.example", "DEBUG=\nDB_HOST=\n")
    session = Session.open(str(repo.path), settings=Settings())
    session.regroup()
    sent = "\n".join(r.text for r in session.refine_requests().requests)
    assert "tokenizer = Tokenizer(vocab_size=50000)" in sent and "keyboard_layout = 'us-international'" in sent
    assert "author = 'jane.doe@example.org'" in sent and "+DB_HOST=" in sent, "the example file goes"
    assert "hunter2" not in sent and "internal.example.org" not in sent and "MIIEvQ" not in sent
    assert "tls.key" not in sent and sent.count("a git-ignored or secret file: nothing of it is sent") == 2


def test_the_session_loads_the_grouping_engine_only_when_it_refines() -> None:
    """Opening a session (``segmint changes``, ``segmint mcp``) must not pay for numpy and the engine."""
    check = (
        "import sys, segmint_core.session.session, segmint_core.mcp.server\n"
        "print('numpy' in sys.modules, 'segmint_core.grouping.engine' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_the_model_is_told_each_uncertain_decision_with_its_odds_and_every_hunk_it_would_move(repo: Repo) -> None:
    from tests.session.test_confidence import mixed

    session = mixed(repo)
    (doubt,) = session.confidence().uncertain
    (request,) = session.refine_requests().requests
    (line,) = [x for x in request.text.splitlines() if x.startswith(f"- {doubt.text}")]
    assert f"({round(100 * doubt.probability)}% likely" in line
    assert all(h in line for h in doubt.hunk_ids)
