"""What a prompt says: the clause to title with, the why, whether it follows up."""

from __future__ import annotations

import pytest

from segmint_core.trajectory.provenance.prompts import actionable, is_follow_up, reason


@pytest.mark.parametrize(
    ("prompt", "clause"),
    [
        (
            "Hey, can you please fix the crash on an empty config? Users hit it on first run.",
            "fix the crash on an empty config",
        ),
        (
            "Please add a --verbose flag to the CLI because people cannot see what it does.",
            "add a --verbose flag to the CLI",
        ),
        ("I want you to refactor the parser so that it streams.", "refactor the parser"),
        ("Could you make the logo bigger please?", "make the logo bigger"),
        ("Fixing the docs build", "fix the docs build"),
        ("Let's implement the login page", "implement the login page"),
        ("ok great. now rename helper to parse_value", "rename helper to parse_value"),
        ("Now also handle the empty case", "handle the empty case"),
        ("```\ntraceback\n```\nfix this crash in load_config", "fix this crash in load_config"),
        ('"Fix the crash on an empty config"', "fix the crash on an empty config"),
        ("Say 'them' where the docstring says 'it'", "say 'them' where the docstring says 'it'"),
        ("Rename helper to `parse_value`", "rename helper to `parse_value`"),
    ],
)
def test_the_actionable_clause(prompt: str, clause: str) -> None:
    assert actionable(prompt) == clause


def test_the_why_when_the_prompt_gives_one() -> None:
    assert (
        reason("Please add a --verbose flag because people cannot see what it does.")
        == "Because people cannot see what it does."
    )
    assert reason("refactor the parser so that it streams") == "So that it streams."
    assert reason("fix the crash on an empty config") is None


@pytest.mark.parametrize(
    "prompt",
    [
        "Now also handle the empty case",
        "that broke the test, fix it",
        "also update the docs",
        "fix it",
        "do the same for the docs too",
        "ok great, now also log the size",
        "It still fails on Windows",
    ],
)
def test_follow_ups(prompt: str) -> None:
    assert is_follow_up(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "Please fix the crash on an empty config",
        "Can you add a --verbose flag to the CLI?",
        "Implement the login page",
        "I need you to rename helper to parse_value",
    ],
)
def test_tasks_of_their_own(prompt: str) -> None:
    assert not is_follow_up(prompt)


def test_a_prompt_with_thousands_of_blanks_in_a_row_is_read_in_a_moment() -> None:
    # Its reason and its polite tail were once looked for from every blank of the run: 20,000 blanks took 30 s.
    assert actionable("fix the parser" + " " * 20_000 + "now, please").startswith("fix the parser")
    assert actionable("fix the parser," + " ," * 10_000 + " please") == "fix the parser"
