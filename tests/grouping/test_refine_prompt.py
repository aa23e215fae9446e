"""What a refinement sends: bounded requests of whole groups, hunks in brief, the uncertain decisions
that fit; and a tree larger than one request, asked in several (the local stand-in endpoint,
tests/support/openai_standin.py, plays the model)."""

from __future__ import annotations

import json

from segmint_core.changes.models import Change, Hunk
from segmint.cli.group import format_requests
from segmint_core.config import Settings
from segmint_core.grouping.models import ChangeGroup
from segmint_core.grouping.refine import ask, prompt
from tests.support.openai_standin import StandIn


def tree(groups: int, hunks_per_group: int, lines: int = 40) -> tuple[list[Change], list[ChangeGroup]]:
    changes, out = [], []
    for g in range(1, groups + 1):
        body = [f"+    value_{g}_{n} = compute_{n}(argument)" for n in range(lines)]
        hunks = [
            Hunk(
                f"change-{g}:{h}",
                10 * h,
                1,
                10 * h,
                lines + 1,
                f"@@ -{10 * h},1 +{10 * h},{lines + 1} @@",
                [" context", *body],
            )
            for h in range(1, hunks_per_group + 1)
        ]
        changes.append(Change(f"change-{g}", f"src/module_{g}.py", None, "modified", False, hunks))
        out.append(
            ChangeGroup(f"group-{g}", [f"change-{g}"], [h.id for h in hunks], f"Update module_{g}.py", ["stands alone"])
        )
    return changes, out


def test_hunks_are_summarised_and_every_request_is_bounded() -> None:
    changes, groups = tree(40, 5)
    plan = prompt.build(changes, groups, budget=1_500, max_requests=100)
    assert len(plan.requests) > 1 and not plan.left_out
    assert all(prompt.estimate_tokens(r.text) <= 1_500 for r in plan.requests)
    shown = [gid for r in plan.requests for gid in r.shown]
    assert shown == [g.id for g in groups], "each group whole, in one request, in order"
    first = plan.requests[0].text
    assert "value_1_0" in first and "value_1_2" in first and "value_1_3" not in first, "three lines a hunk"


def test_a_group_too_large_for_a_request_is_sent_without_its_lines() -> None:
    changes, groups = tree(1, 60)
    (request,) = prompt.build(changes, groups, budget=1_500).requests
    assert "change-1:60" in request.text and "value_1_0" not in request.text


def test_a_group_too_large_even_by_ids_alone_is_not_sent_and_is_named() -> None:
    changes, groups = tree(3, 5)
    many = [Hunk(f"change-3:{h}", h, 1, h, 1, f"@@ -{h} +{h} @@", ["-a", "+b"]) for h in range(1, 3_001)]
    changes[2] = Change("change-3", "src/module_3.py", None, "modified", False, many)
    groups[2] = ChangeGroup("group-3", ["change-3"], [h.id for h in many], "Update module_3.py", ["stands alone"])
    plan = prompt.build(changes, groups)
    assert [list(r.shown) for r in plan.requests] == [["group-1", "group-2"]] and plan.too_large == ["group-3"]
    assert all(prompt.estimate_tokens(r.text) <= prompt.TOKENS_PER_REQUEST for r in plan.requests)
    with StandIn(json.dumps({"moves": [], "merges": [], "splits": []})) as standin:
        refinement = ask(Settings(base_url=standin.base_url, api_key="k", chat_model="m"), changes, groups)
    assert "1 group not sent (too large for a request even without their lines): group-3" in refinement.notes


def test_past_the_last_request_groups_are_left_out_and_named() -> None:
    changes, groups = tree(40, 5)
    plan = prompt.build(changes, groups, budget=1_500, max_requests=2)
    assert len(plan.requests) == 2 and plan.left_out == [g.id for g in groups][-len(plan.left_out) :]


def test_the_groups_uncertain_decisions_name_go_first_with_the_decisions() -> None:
    changes, groups = tree(40, 5)
    uncertain = [
        "change-1:2 could belong to group-2 (both edit `compute_2`)",
        "group-1 and group-40 might be one intent",
    ]
    plan = prompt.build(changes, groups, uncertain=uncertain, budget=1_500, max_requests=100)
    assert list(plan.requests[0].shown)[:3] == ["group-1", "group-2", "group-40"]
    assert "change-1:2 could belong to group-2" in plan.requests[0].text
    assert "group-1 and group-40 might be one intent" in plan.requests[0].text
    one_each = 400 + prompt.estimate_tokens(prompt.SYSTEM + prompt.HEADER)  # room for one group a request
    apart = prompt.build(changes, groups, uncertain=uncertain, budget=one_each, max_requests=100)
    assert [list(r.shown) for r in apart.requests[:3]] == [["group-1"], ["group-2"], ["group-40"]]
    assert not any("might be one intent" in r.text or "could belong" in r.text for r in apart.requests), (
        "a decision naming groups of two requests goes in neither"
    )


def whole(request: prompt.Request) -> int:
    """A request's estimated size as sent: the instructions, then the groups and decisions."""
    return prompt.estimate_tokens(prompt.SYSTEM + request.text)


def test_the_budget_holds_for_the_whole_request_with_its_decisions() -> None:
    changes, groups = tree(120, 5)
    uncertain = [
        f"group-{g} and group-{g + 1} might be one intent: would move "
        + ", ".join(f"change-{g + 1}:{h}" for h in range(1, 6))
        + " (both edit compute_1)" * 30
        for g in range(1, 11)
    ]
    plan = prompt.build(changes, groups, uncertain=uncertain)
    assert len(plan.requests) > 2 and not plan.too_large
    assert all(whole(r) <= prompt.TOKENS_PER_REQUEST for r in plan.requests), [whole(r) for r in plan.requests]
    assert sum(r.text.count("might be one intent") for r in plan.requests) >= 8, "the decisions still go"
    assert plan.decisions_cut == 0


def test_decisions_past_their_requests_room_are_cut_and_counted() -> None:
    changes, groups = tree(3, 5)
    uncertain = [
        f"change-1:{h} could belong to a group of its own ({'it calls compute_1 ' * 90})" for h in range(1, 6)
    ] * 2
    plan = prompt.build(changes, groups, uncertain=uncertain)
    first = plan.requests[0]
    assert list(first.shown)[0] == "group-1" and whole(first) <= prompt.TOKENS_PER_REQUEST
    sent = first.text.count("could belong")
    assert 0 < sent < 10 and plan.decisions_cut == 10 - sent
    assert f"Not sent ({10 - sent} uncertain decisions past the room of their request)" in format_requests(plan)
    with StandIn(json.dumps({"moves": [], "merges": [], "splits": []})) as standin:
        refinement = ask(
            Settings(base_url=standin.base_url, api_key="k", chat_model="m"), changes, groups, uncertain=uncertain
        )
    sent_sizes = [
        prompt.estimate_tokens("".join(m["content"] for m in r["body"]["messages"])) for r in standin.requests
    ]
    assert sent_sizes and max(sent_sizes) <= prompt.TOKENS_PER_REQUEST, "as sent over the wire"
    assert (
        f"{10 - sent} uncertain decisions not sent (no room left in its request of about 4,000 tokens)"
        in refinement.notes
    )


def test_each_request_is_validated_on_its_own(monkeypatch) -> None:
    monkeypatch.setattr(prompt, "TOKENS_PER_REQUEST", 1_500)
    changes, groups = tree(12, 5)

    def reply(body: dict) -> str:
        text = body["messages"][1]["content"]
        if "group-1:" in text:
            return json.dumps(
                {"moves": [], "splits": [], "merges": [{"group_ids": ["group-2", "group-1"], "reason": "one change"}]}
            )
        return json.dumps(
            {"moves": [{"hunk_ids": ["change-1:1"], "to_group": "group-12", "reason": "r"}], "merges": [], "splits": []}
        )

    with StandIn(reply) as standin:
        settings = Settings(base_url=standin.base_url, api_key="k", chat_model="stand-in-chat")
        refinement = ask(settings, changes, groups)
    assert refinement.requests == len(standin.requests) > 1
    assert refinement.applied == ["merged group-2, group-1 into group-2 (one change)"]
    assert all(n.endswith("the answer names an unknown hunk id change-1:1") for n in refinement.notes)
    regrouped = refinement.regrouped({g.id: list(g.hunk_ids) for g in groups})
    assert regrouped["group-2"] == groups[1].hunk_ids + groups[0].hunk_ids and "group-1" not in regrouped


def test_hunks_show_fewer_lines_when_that_lets_every_group_be_sent() -> None:
    changes, groups = tree(40, 5)
    roomy = prompt.build(changes, groups, budget=1_500, max_requests=100)
    tight = prompt.build(changes, groups, budget=1_500, max_requests=len(roomy.requests) - 2)
    assert not tight.left_out and [g for r in tight.requests for g in r.shown] == [g.id for g in groups]
    assert "value_1_0" in tight.requests[0].text and "value_1_1" not in tight.requests[0].text


def test_the_folder_and_stem_only_git_ignored_files_have_are_not_named() -> None:
    hunk = lambda cid: Hunk(f"{cid}:1", 1, 1, 1, 1, "@@ -1 +1 @@", ["-a", "+b"])  # noqa: E731
    changes = [
        Change("change-1", "vault/tokens.env", None, "modified", False, [hunk("change-1")]),
        Change("change-2", "vault/tokens.json", None, "modified", False, [hunk("change-2")]),
        Change("change-3", "src/app.py", None, "modified", False, [hunk("change-3")]),
    ]
    groups = [
        ChangeGroup(
            "group-1",
            ["change-1", "change-2"],
            ["change-1:1", "change-2:1"],
            "Update settings",
            ["files in the same folder vault/", "files about `tokens`"],
        ),
        ChangeGroup("group-2", ["change-3"], ["change-3:1"], "Update app.py", ["files in the same folder src/"]),
    ]
    uncertain = [
        "group-1 and group-2 might be one intent (files in the same folder vault/)",
        "change-3:1 could belong to group-1 (files about `tokens`)",
    ]
    (request,) = prompt.build(
        changes, groups, uncertain=uncertain, withheld={"vault/tokens.env", "vault/tokens.json"}
    ).requests
    assert "vault" not in request.text and "tokens" not in request.text
    assert "files in the same folder src/" in request.text, "a folder a file sent lives in is no secret"


def test_a_withheld_file_s_name_is_matched_whole_not_inside_other_words() -> None:
    hunk = lambda cid: Hunk(f"{cid}:1", 1, 1, 1, 1, "@@ -1 +1 @@", ["-a", "+b"])  # noqa: E731
    changes = [
        Change("change-1", "key", None, "modified", False, [hunk("change-1")]),
        Change("change-2", "config/.env", None, "modified", False, [hunk("change-2")]),
        Change("change-3", "src/keyboard.py", None, "modified", False, [hunk("change-3")]),
        Change("change-4", "deploy/prod.env.example", None, "modified", False, [hunk("change-4")]),
    ]
    groups = [
        ChangeGroup(
            "group-1",
            ["change-1", "change-2"],
            ["change-1:1", "change-2:1"],
            "Update key and .env",
            ["files about `key`"],
        ),
        ChangeGroup(
            "group-2",
            ["change-3", "change-4"],
            ["change-3:1", "change-4:1"],
            "Update `keyboard` in keyboard.py and prod.env.example",
            ["files about `keyboard`"],
        ),
    ]
    uncertain = ["change-3:1 could belong to group-1 (both name `keyboard_layout`)"]
    (request,) = prompt.build(changes, groups, uncertain=uncertain, withheld={"key", "config/.env"}).requests
    assert "Update key and .env" not in request.text and "files about `key`" not in request.text
    assert "group-2: Update `keyboard` in keyboard.py and prod.env.example" in request.text
    assert "evidence: files about `keyboard`" in request.text and "both name `keyboard_layout`" in request.text
