"""group_changes on real temporary repositories: coverage, splits, determinism, errors."""

from __future__ import annotations

import json

import pytest

from segmint_core.changes import capture
from segmint_core.changes.models import Change
from segmint_core.changes.patch import render_hunks
from segmint_core.errors import SegmintError, UnknownIdError
from segmint_core.git import Git
from segmint_core.grouping import apply_splits, group_changes, summarize_group
from segmint_core.grouping.units import build_units
from tests.grouping.scenarios import CONFIG_SEPARATOR, SEPARATOR, STRICT, two_intents
from tests.support.patches import applies
from tests.support.repo import Repo


def grouped(repo: Repo, **kwargs):
    changes = capture(Git.discover(repo.path))
    return changes, group_changes(changes, timeline=None, **kwargs)


def group_text(grouping, group) -> str:
    hunks = {h.id: h for c in grouping.changes for h in c.hunks}
    return "\n".join(line for h in group.hunk_ids for line in hunks[h].lines if line[:1] == "+")


def test_two_intents_become_two_groups_and_the_shared_changelog_hunk_is_split(repo: Repo) -> None:
    changes, grouping = grouped(two_intents(repo))
    assert len(grouping.groups) == 2
    strict, separator = grouping.groups
    assert STRICT in group_text(grouping, strict) and SEPARATOR not in group_text(grouping, strict)
    assert SEPARATOR in group_text(grouping, separator) and STRICT not in group_text(grouping, separator)
    assert list(grouping.splits) == ["change-1:1"]  # CHANGES.md: one hunk, two entries
    paths = {c.id: c.file_path for c in grouping.changes}
    assert [paths[c] for c in strict.change_ids] == ["CHANGES.md", "src/auth.py", "tests/test_auth.py"]
    assert [paths[c] for c in separator.change_ids] == ["CHANGES.md", "src/config.py"]
    assert any("check_token" in reason for reason in strict.reasons)
    assert strict.summary == "`check_token` takes `strict`"


def test_every_hunk_is_in_exactly_one_group_and_every_change_in_some_group(repo: Repo) -> None:
    changes, grouping = grouped(two_intents(repo))
    effective = [h.id for c in grouping.changes for h in c.hunks]
    in_groups = [h for g in grouping.groups for h in g.hunk_ids]
    assert sorted(in_groups) == sorted(effective) and len(in_groups) == len(set(in_groups))
    assert {c.id for c in changes.changes} <= {c for g in grouping.groups for c in g.change_ids}
    assert [g.id for g in grouping.groups] == [f"group-{n}" for n in range(1, len(grouping.groups) + 1)]


def test_split_hunks_apply_on_their_own_and_apply_splits_rebuilds_them(repo: Repo) -> None:
    changes, grouping = grouped(two_intents(repo))
    rebuilt = apply_splits(changes, grouping.splits)
    assert [c.to_dict() for c in rebuilt] == [c.to_dict() for c in grouping.changes]
    changelog = next(c for c in rebuilt if c.file_path == "CHANGES.md")
    assert [h.parent_id for h in changelog.hunks] == ["change-1:1", "change-1:1"]
    for hunk in changelog.hunks:
        patch = (
            "\n".join(
                ["diff --git a/CHANGES.md b/CHANGES.md", "--- a/CHANGES.md", "+++ b/CHANGES.md", *render_hunks([hunk])]
            )
            + "\n"
        )
        ok, err = applies(repo, patch, base="index")
        assert ok, err


def test_a_deleted_changelog_is_one_unit_not_cut_at_every_entry(repo: Repo) -> None:
    two_intents(repo)
    repo.commit("both intents")
    repo.delete("CHANGES.md")
    repo.write("src/config.py", CONFIG_SEPARATOR.replace("separator", "sep"))
    changes, grouping = grouped(repo)
    assert grouping.splits == {}
    deleted = next(c for c in grouping.changes if c.file_path == "CHANGES.md")
    holding = [g for g in grouping.groups if deleted.id in g.change_ids]
    assert len(deleted.hunks) == 1 and len(holding) == 1


def test_a_new_changelog_is_one_unit_not_cut_at_every_entry(repo: Repo) -> None:
    """Its entries would otherwise go to as many commits, each adding the same file."""
    two_intents(repo)
    repo.delete("CHANGES.md")
    repo.commit("both intents, no changelog yet")
    sections = [
        f"## Version {v}.0\n\n- `check_token` takes `strict` {v}.\n- `parse_config` takes `separator` {v}.\n\n"
        for v in range(6, 0, -1)
    ]
    repo.write("CHANGES.md", "# Changes\n\n" + "".join(sections))
    changes = capture(Git.discover(repo.path))
    added = next(c for c in changes.changes if c.file_path == "CHANGES.md")
    assert [u.change for u in build_units(changes.changes)].count(added) == 1
    modified = Change(added.id, added.file_path, None, "modified", False, added.hunks)
    assert len(build_units([modified])) > 1  # a changed one is still cut at its entries
    grouping = group_changes(changes, timeline=None)
    assert grouping.splits == {}
    assert sum(added.hunks[0].id in g.hunk_ids for g in grouping.groups) == 1


def test_same_input_gives_byte_identical_output(repo: Repo) -> None:
    two_intents(repo)
    first = json.dumps(grouped(repo)[1].to_dict())
    second = json.dumps(grouped(repo)[1].to_dict())
    assert first == second


def test_change_ids_select_a_subset(repo: Repo) -> None:
    changes = capture(Git.discover(two_intents(repo).path))
    grouping = group_changes(changes, change_ids=["change-2", "change-3"], timeline=None)
    assert sorted({c for g in grouping.groups for c in g.change_ids}) == ["change-2", "change-3"]
    assert [c.id for c in grouping.changes] == ["change-2", "change-3"]


def test_unknown_ids_and_provider_are_clear_errors(repo: Repo) -> None:
    changes = capture(Git.discover(two_intents(repo).path))
    with pytest.raises(UnknownIdError, match="Unknown change ID: bad-id"):
        group_changes(changes, change_ids=["change-1", "bad-id"], timeline=None)
    with pytest.raises(SegmintError, match="choose one of local, openai, sentence-transformers"):
        group_changes(changes, provider="magic", timeline=None)


def test_hunkless_changes_join_a_group(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.write("old_name.py", "def helper():\n    return 1\n")
    repo.write("run.sh", "echo hi\n", mode=0o644)
    repo.commit("init")
    repo.git("mv", "old_name.py", "new_name.py")
    (repo.path / "run.sh").chmod(0o755)
    repo.write("logo.png", b"\x89PNG\r\n\x1a\n\0\0binary")
    repo.write("empty.txt", "")
    repo.write("a.py", "x = 2\n")
    changes, grouping = grouped(repo)
    assert {c.id for c in changes.changes} == {c for g in grouping.groups for c in g.change_ids}
    hunkless = [c for c in changes.changes if not c.hunks]
    assert len(hunkless) >= 3
    for group in grouping.groups:
        assert group.summary and group.reasons


def test_empty_change_set_gives_no_groups(repo: Repo) -> None:
    repo.write("a.txt", "a\n")
    repo.commit("init")
    changes, grouping = grouped(repo)
    assert grouping.groups == [] and grouping.changes == [] and grouping.splits == {}


def test_progress_is_reported(repo: Repo) -> None:
    changes = capture(Git.discover(two_intents(repo).path))
    calls = []
    group_changes(changes, timeline=None, progress=lambda done, total, message: calls.append((done, total, message)))
    messages = {m for _, _, m in calls}
    assert {"linking", "clustering", "summarizing groups"} <= messages
    assert any(m.startswith("embedding") for m in messages)
    assert all(0 <= done <= total for done, total, _ in calls)


def test_summarize_group_explains_any_set_of_hunks(repo: Repo) -> None:
    changes, grouping = grouped(two_intents(repo))
    auth = next(c for c in grouping.changes if c.file_path == "src/auth.py")
    tests = next(c for c in grouping.changes if c.file_path == "tests/test_auth.py")
    summary, reasons = summarize_group(grouping.changes, [h.id for h in auth.hunks + tests.hunks])
    assert "check_token" in summary
    assert any("tests for src/auth.py" == r or "check_token" in r for r in reasons)


def test_a_function_changed_in_two_hunks_is_named_once_in_the_reasons(repo: Repo) -> None:
    body = "".join(f"    step_{i} = {i}\n" for i in range(30))
    repo.write("app/config.py", f"def load_config(path):\n{body}    return path\n")
    repo.commit()
    edited = body.replace("step_1 = 1", "step_1 = load_config.cache").replace("step_28 = 28", "step_28 = -28")
    repo.write("app/config.py", f"def load_config(path):\n{edited}    return path\n")
    _, grouping = grouped(repo)
    reasons = [r for g in grouping.groups for r in g.reasons]
    assert "both change `load_config`" in reasons
    assert "both edit `load_config`" not in reasons


def test_one_substitution_in_many_places_is_one_group(repo: Repo) -> None:
    body = [f"value_{n} = compute(old_setting, {n})\n" if n % 25 == 0 else f"# filler line {n}\n" for n in range(2_000)]
    repo.write("config.py", "".join(body))
    repo.write("app.py", "def main():\n    return 1\n")
    repo.commit()
    repo.write("config.py", "".join(line.replace("old_setting", "new_setting") for line in body))
    repo.write("app.py", "def main():\n    return 2\n")
    changes = capture(Git.discover(repo.path))
    renamed = [h.id for c in changes.changes if c.file_path == "config.py" for h in c.hunks]
    assert len(renamed) == 80
    grouping = group_changes(changes, timeline=None)
    holding = [g for g in grouping.groups if set(renamed) & set(g.hunk_ids)]
    assert len(holding) == 1 and set(renamed) <= set(holding[0].hunk_ids)
    assert any("the same edit in" in r for r in holding[0].reasons)
    app = next(c.id for c in changes.changes if c.file_path == "app.py")
    assert app not in holding[0].change_ids, "the unrelated edit stays out"


def test_a_lone_change_is_the_only_one_not_apart_from_others(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.commit()
    repo.write("a.py", "x = 2\n")
    (group,) = group_changes(capture(Git.discover(repo.path)), timeline=None).groups
    assert group.reasons == ["the only change"]
