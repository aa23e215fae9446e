"""Summaries: the heuristic one, and a chat model's through the local stand-in server."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.config import Settings
from segmint_core.git import Git
from segmint_core.grouping import describe_group, group_changes, summarize_group
from tests.grouping.scenarios import two_intents
from tests.grouping.standin import StandIn
from tests.support.repo import Repo


def test_a_changelog_entry_is_the_summary_without_its_references(repo: Repo) -> None:
    repo.write("CHANGES.rst", "Changes\n=======\n\n- Start.\n")
    repo.write("lib.py", "def a():\n    pass\n")
    repo.commit()
    entry = "- Add :func:`retry` with backoff. :issue:`123` :pr:`456`\n"
    repo.write("CHANGES.rst", "Changes\n=======\n\n- Start.\n" + entry)
    repo.write("lib.py", "def a():\n    pass\n\n\ndef retry():\n    pass\n")
    changes = capture(Git.discover(repo.path))
    grouping = group_changes(changes, timeline=None)
    assert [g.summary for g in grouping.groups] == ["Add `retry` with backoff"]


def test_a_new_changelog_is_summarised_by_its_first_entry_not_its_title(repo: Repo) -> None:
    repo.write("lib.py", "def a():\n    pass\n")
    repo.commit()
    repo.write("CHANGES.rst", "Changes\n=======\n\nVersion 1.0\n-----------\n\n- Add the first command.\n")
    changes = capture(Git.discover(repo.path)).changes
    assert summarize_group(changes, [h.id for h in changes[0].hunks])[0] == "Add the first command"


def test_files_rewritten_in_another_format_are_summarised_as_converted(repo: Repo) -> None:
    for name in ("changes", "api", "cli"):
        repo.write(f"docs/{name}.md", f"# {name.title()}\n\n- First.\n")
    repo.commit()
    for name in ("changes", "api", "cli"):
        repo.delete(f"docs/{name}.md")
        repo.write(f"docs/{name}.rst", f"{name.title()}\n{'=' * len(name)}\n\n-   First.\n")
    changes = capture(Git.discover(repo.path)).changes

    def summary(names: tuple[str, ...]) -> str:
        chosen = [c for c in changes if c.file_path.rsplit("/", 1)[-1].split(".")[0] in names]
        return summarize_group(chosen, [h.id for c in chosen for h in c.hunks])[0]

    assert summary(("changes",)) == "Convert changes.md to changes.rst"
    assert summary(("changes", "api", "cli")) == "Convert api.md and 2 more files to .rst"


def test_code_summaries_name_what_is_added_or_updated(repo: Repo) -> None:
    repo.write("lib.py", "def keep():\n    return 1\n")
    repo.commit()
    repo.write("lib.py", "def keep():\n    return 2\n\n\ndef fresh_helper():\n    return 3\n")
    changes = capture(Git.discover(repo.path)).changes
    summary, reasons = summarize_group(changes, [h.id for h in changes[0].hunks])
    assert summary == "Update `keep` in lib.py"
    assert reasons


def test_a_code_summary_names_the_files_its_code_is_in(repo: Repo) -> None:
    repo.write("pkg/math_utils.py", "def add(a, b):\n    return a + b\n")
    repo.write("pkg/__init__.py", "")
    repo.write("sub/__init__.py", "")
    repo.commit()
    repo.write("image.png", b"\x89PNG\x00\x01")
    repo.write("notes.md", "# Notes\n")
    repo.write("pkg/math_utils.py", 'def add(a, b):\n    """Add two numbers."""\n    return a + b\n')
    repo.write("pkg/__init__.py", "x = 1\n")
    repo.write("sub/__init__.py", "y = 1\n")
    changes = capture(Git.discover(repo.path)).changes
    every = [h.id for c in changes for h in c.hunks]
    summary, _ = summarize_group(changes, every)
    assert summary == "Update `add` in math_utils.py and 2 more files"
    one_more, _ = summarize_group(
        changes, [h.id for c in changes if c.file_path.endswith(("s.py", "pkg/__init__.py")) for h in c.hunks]
    )
    assert one_more.endswith("in math_utils.py and __init__.py")
    inits, _ = summarize_group(changes, [h.id for c in changes if c.file_path.endswith("__init__.py") for h in c.hunks])
    assert inits.endswith("__init__.py and 1 more file")


def test_model_summary_through_the_stand_in(repo: Repo) -> None:
    changes = capture(Git.discover(two_intents(repo).path))
    with StandIn(chat_reply="Add strict token checks.") as server:
        settings = Settings(base_url=server.base_url, api_key="k", chat_model="tiny")
        grouping = group_changes(changes, settings=settings, timeline=None)
    assert [g.summary for g in grouping.groups] == ["Add strict token checks", "Add strict token checks"]
    assert all(g.note is None for g in grouping.groups)
    chats = [body for path, body in server.requests if path == "/v1/chat/completions"]
    assert len(chats) == 2 and chats[0]["model"] == "tiny"


def test_a_failing_model_falls_back_to_the_heuristic_and_says_so(repo: Repo) -> None:
    changes = capture(Git.discover(two_intents(repo).path))
    with StandIn(fail_chat=True) as server:
        settings = Settings(base_url=server.base_url, api_key="k", chat_model="tiny")
        grouping = group_changes(changes, settings=settings, timeline=None)
        text, _ = describe_group(grouping.changes, grouping.groups[0].hunk_ids, settings=settings)
    assert grouping.groups[0].summary == "`check_token` takes `strict`"
    assert grouping.groups[0].note.startswith("model summary failed, heuristic summary used")
    assert grouping.groups[0].to_dict()["note"] == grouping.groups[0].note
    assert text.note and text.summary == "`check_token` takes `strict`"


def test_files_at_the_top_level_are_named_so(repo: Repo) -> None:
    repo.write("alpha.txt", "a\n")
    repo.write("omega.txt", "z\n")
    repo.commit()
    repo.write("alpha.txt", "a2\n")
    repo.write("omega.txt", "z2\n")
    changes = capture(Git.discover(repo.path)).changes
    _, reasons = summarize_group(changes, [h.id for c in changes for h in c.hunks])
    assert "files at the top level" in reasons and not any("folder /" in r for r in reasons)


def test_a_file_name_holding_a_newline_or_odd_bytes_is_named_escaped(repo: Repo) -> None:
    """Not "new line.txt", a file that does not exist: the name as tables and JSON show it."""
    repo.write("keep.txt", "k\n")
    repo.commit()
    repo.write("new\nline.txt", "a\n")
    repo.write("caf\udce9.txt", "b\n")
    changes = capture(Git.discover(repo.path)).changes
    summary, _ = summarize_group(changes, [h.id for c in changes for h in c.hunks])
    assert repr(summary) == repr("Docs: add caf\\xe9.txt and new\\nline.txt")  # repr: a failure's text must be UTF-8


def test_a_changelog_entry_keeps_no_lead_in_to_its_references(repo: Repo) -> None:
    repo.write("CHANGELOG.md", "# Changelog\n\n- Start.\n")
    repo.commit()
    repo.write(
        "CHANGELOG.md",
        "# Changelog\n\n- Start.\n- Colorized output is now significantly faster, see #720 and #853 (@tavianator)\n",
    )
    assert [g.summary for g in group_changes(capture(Git.discover(repo.path)), timeline=None).groups] == [
        "Colorized output is now significantly faster (@tavianator)"
    ]
    repo.write("CHANGELOG.md", "# Changelog\n\n- Start.\n- Fix the crash on empty input (see #12).\n")
    assert [g.summary for g in group_changes(capture(Git.discover(repo.path)), timeline=None).groups] == [
        "Fix the crash on empty input"
    ]
