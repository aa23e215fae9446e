"""Grouping and messages from recorded intents, on real repositories edited through the recording API."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import group_changes
from segmint_core.planning.intents import Asked, intent_title
from segmint_core.planning.facts import gather
from segmint_core.planning.style import HouseStyle
from segmint_core.trajectory.provenance import begin_intent, mark_session, record_before_edit, record_edit
from segmint_core.trajectory.provenance.store import Store
from tests.support.repo import Repo

if TYPE_CHECKING:
    from segmint_core.session.session import Session

LOADER = (
    "import json\n\n\n"
    "def load(path):\n    with open(path) as f:\n        return json.load(f)\n\n\n"
    "def save(path, data):\n    with open(path, 'w') as f:\n        json.dump(data, f)\n"
)


def project(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "p")
    repo.write("config.py", LOADER)
    repo.write("cli.py", "import config\n\n\ndef main():\n    config.load('a.json')\n")
    repo.commit("base")
    return repo


def edit(repo: Repo, session: str, path: str, old: str, new: str) -> None:
    record_before_edit(repo.path, [path], source="claude-code", session_id=session)
    repo.write(path, repo.read(path).decode().replace(old, new, 1))
    record_edit(repo.path, [path], source="claude-code", session_id=session)


def ask(repo: Repo, session: str, prompt: str) -> None:
    begin_intent(repo.path, prompt, source="claude-code", session_id=session)


def fix_the_crash(repo: Repo) -> None:
    """Task "a": the crash on an empty config file, fixed."""
    ask(repo, "a", "Please fix the crash on an empty config file")
    edit(repo, "a", "config.py", "        return json.load(f)\n", "        return json.loads(f.read() or '{}')\n")


def rename_main(repo: Repo) -> None:
    """Task "b": main renamed to run."""
    ask(repo, "b", "Please rename main to run in the CLI")
    edit(repo, "b", "cli.py", "def main():\n", "def run():\n")


def regrouped(repo: Repo) -> Session:
    """A session on ``repo`` with its groups made afresh, from the record."""
    from segmint_core.session.session import Session

    session = Session.open(str(repo.path))
    session.regroup()
    return session


def grouped(repo: Repo) -> list[tuple[str, list[str], list[str]]]:
    grouping = group_changes(capture(Git(repo.path)), root=str(repo.path))
    changes = {c.id: c for c in grouping.changes}
    out = []
    for group in grouping.groups:
        lines = [
            line
            for c in group.change_ids
            for h in changes[c].hunks
            if h.id in group.hunk_ids
            for line in h.lines
            if line[:1] in "+-"
        ]
        out.append((group.summary, lines, group.reasons))
    return out


def test_two_tasks_in_one_hunk_are_split_line_by_line(tmp_path: Path) -> None:
    repo = project(tmp_path)
    ask(repo, "a", "Please fix the crash on an empty config file")
    ask(repo, "b", "Can you make save write pretty JSON?")
    edit(
        repo,
        "a",
        "config.py",
        "        return json.load(f)\n",
        "        text = f.read()\n        return json.loads(text or '{}')\n",
    )
    edit(repo, "b", "config.py", "        json.dump(data, f)\n", "        json.dump(data, f, indent=2)\n")
    edit(repo, "a", "config.py", "def load(path):\n", "def load(path):\n    # an empty file is an empty config\n")
    groups = grouped(repo)
    assert [g[0] for g in groups] == ["Fix the crash on an empty config file", "Make save write pretty JSON"]
    assert groups[0][1] == [
        "+    # an empty file is an empty config",
        "-        return json.load(f)",
        "+        text = f.read()",
        "+        return json.loads(text or '{}')",
    ]
    assert groups[1][1] == ["-        json.dump(data, f)", "+        json.dump(data, f, indent=2)"]
    assert groups[0][2][0] == "written under prompt 1: 'Please fix the crash on an empty config file'"


def test_a_follow_up_of_the_same_session_joins_its_task(tmp_path: Path) -> None:
    repo = project(tmp_path)
    fix_the_crash(repo)
    ask(repo, "a", "Now also handle a missing file in the CLI")
    edit(repo, "a", "cli.py", "    config.load('a.json')\n", "    config.load('a.json') if exists('a.json') else {}\n")
    groups = grouped(repo)
    assert len(groups) == 1
    assert (
        "prompt 2 ('Now also handle a missing file in the CLI') follows up prompt 1 in the same session" in groups[0][2]
    )


def test_a_follow_up_after_a_session_resumed_joins_its_task_and_one_after_an_end_does_not(tmp_path: Path) -> None:
    repo = project(tmp_path)
    fix_the_crash(repo)
    mark_session(repo.path, source="claude-code", session_id="a", event="end")
    ask(repo, "a", "Now also handle a missing file in the CLI")  # the session ended: a task of its own
    edit(repo, "a", "cli.py", "    config.load('a.json')\n", "    config.load('a.json') if exists('a.json') else {}\n")
    assert len(grouped(repo)) == 2
    mark_session(repo.path, source="claude-code", session_id="a", event="end")
    mark_session(repo.path, source="claude-code", session_id="a", event="start")  # claude --resume
    ask(repo, "a", "Also make save tolerate a missing folder")
    edit(repo, "a", "config.py", "    with open(path, 'w') as f:\n", "    with open(path, 'w+') as f:\n")
    groups = grouped(repo)
    assert len(groups) == 2
    assert any(
        r.startswith("prompt 3 (") and r.endswith("follows up prompt 2 in the same session")
        for g in groups
        for r in g[2]
    )


def test_a_follow_up_naming_an_earlier_task_of_the_session_joins_that_task(tmp_path: Path) -> None:
    repo = project(tmp_path)
    ask(repo, "a", "Please fix the crash in config.load() on an empty file")
    edit(repo, "a", "config.py", "        return json.load(f)\n", "        return json.loads(f.read() or '{}')\n")
    ask(repo, "a", "Make save write pretty JSON")
    edit(repo, "a", "config.py", "        json.dump(data, f)\n", "        json.dump(data, f, indent=2)\n")
    ask(repo, "a", "Now also say in the docstring of config.load() that an empty file is an empty config")
    edit(repo, "a", "config.py", "def load(path):\n", 'def load(path):\n    """An empty config file is {}."""\n')
    groups = grouped(repo)
    assert [g[0] for g in groups] == ["Fix the crash in config.load() on an empty file", "Make save write pretty JSON"]
    assert '+    """An empty config file is {}."""' in groups[0][1]
    assert any(
        r.startswith("prompt 3 (") and r.endswith("follows up prompt 1 in the same session") for r in groups[0][2]
    )


def test_a_new_task_in_the_same_session_stays_apart(tmp_path: Path) -> None:
    repo = project(tmp_path)
    fix_the_crash(repo)
    ask(repo, "a", "Please rename main to run in the CLI")
    edit(repo, "a", "cli.py", "def main():\n", "def run():\n")
    assert len(grouped(repo)) == 2


def test_a_follow_up_in_another_session_stays_apart(tmp_path: Path) -> None:
    repo = project(tmp_path)
    fix_the_crash(repo)
    ask(repo, "b", "Now also rename main to run")
    edit(repo, "b", "cli.py", "def main():\n", "def run():\n")
    assert len(grouped(repo)) == 2


def test_unrecorded_lines_do_not_join_a_task_for_sitting_in_its_file(tmp_path: Path) -> None:
    repo = project(tmp_path)
    fix_the_crash(repo)
    repo.write("config.py", repo.read("config.py").decode().replace("import json\n", "import json\nimport os\n"))
    groups = grouped(repo)
    assert len(groups) == 2
    assert ["+import os"] in [g[1] for g in groups]


def test_a_damaged_record_leaves_grouping_to_the_diff(tmp_path: Path, caplog) -> None:
    repo = project(tmp_path)
    fix_the_crash(repo)
    Store(repo.path).events_path.unlink()
    Store(repo.path).events_path.mkdir()
    with caplog.at_level(logging.WARNING):
        groups = grouped(repo)
    assert len(groups) == 1 and not groups[0][2][0].startswith("written under")
    assert "grouping without recorded intents" in caplog.text


def test_titles_from_a_prompt_in_the_house_voice(tmp_path: Path) -> None:
    repo = project(tmp_path)
    repo.write("config.py", LOADER.replace("json.load(f)", "json.loads(f.read() or '{}')"))
    changes = capture(Git(repo.path))
    parts = [(c, c.hunks) for c in changes.changes]
    facts = gather(parts)
    asked = Asked("Hey, can you please fix the crash on an empty config file? It breaks first runs.")
    plain = HouseStyle(seen=50, conventional=0, capitalized=0.9, past_tense=0.8, period=0.0)
    assert intent_title(plain, facts, [], asked) == "Fixed the crash on an empty config file"
    conventional = HouseStyle(seen=0)
    assert intent_title(conventional, facts, [], asked) == "fix(config): fix the crash on an empty config file"
    long = Asked("please " + "make the configuration loader tolerate every kind of broken input " * 3)
    assert len(intent_title(plain, facts, [], long)) <= 72
    clauses = Asked("res.links should skip links whose value is undefined, they currently render as <undefined>")
    assert (
        intent_title(conventional, facts, [], clauses)
        == "fix(config): res.links should skip links whose value is undefined"
    )
    phrase = Asked("Disallow empty options to help users find options that should be arguments.")
    assert intent_title(plain, facts, [], phrase) == "Disallow empty options to help users find options"
    second = Asked("Please raise the default redirect limit from 20 to 30, and note it in the changelog")
    assert intent_title(plain, facts, [], second) == "Raised the default redirect limit from 20 to 30"
    quoted = Asked(
        "Fix the grammar in the docstring of Context.forward: 'if the other command expects it' should say 'them'"
    )
    assert intent_title(plain, facts, [], quoted) == "Fixed the grammar in the docstring of Context.forward"


def test_a_task_is_titled_under_the_prefix_a_plain_house_gives_its_area(tmp_path: Path) -> None:
    from segmint_core.session.session import Session

    repo = Repo(tmp_path / "p")
    repo.write("pkg/core.py", "def f():\n    return 1\n")
    repo.commit("[core] Start the core")
    for n in range(1, 12):
        repo.write(f"pkg/m{n}.py", f"def g{n}():\n    return {n}\n")
        repo.commit(f"[core] Fix parser edge case {n}")
    ask(repo, "a", "Please make f return two")
    edit(repo, "a", "pkg/core.py", "    return 1\n", "    return 2\n")
    (plan,) = Session.open(str(repo.path)).propose_commits()
    assert plan.title == "[core] Make f return two"


def test_recorded_lines_are_certain_and_follow_ups_are_in_doubt(tmp_path: Path) -> None:
    repo = project(tmp_path)
    fix_the_crash(repo)
    ask(repo, "a", "Now also handle a missing file in the CLI")
    edit(repo, "a", "cli.py", "    config.load('a.json')\n", "    config.load('a.json') if exists('a.json') else {}\n")
    session = regrouped(repo)
    found = session.confidence()
    (group,) = session.groups
    assert all(found.hunks[h] == 1.0 for h in group.hunk_ids)
    doubt = found.uncertain[0]
    assert doubt.kind == "split" and doubt.group_id == group.id
    assert "taken as a follow-up of prompt 1" in doubt.text and doubt.hunk_ids == ["change-1:1"]


def test_a_plan_is_titled_from_its_prompt_and_says_why(tmp_path: Path) -> None:
    from segmint_core.session.session import Session

    repo = project(tmp_path)
    ask(repo, "a", "Hey, can you please fix the crash on an empty config file because new users see a traceback?")
    edit(repo, "a", "config.py", "        return json.load(f)\n", "        return json.loads(f.read() or '{}')\n")
    rename_main(repo)
    plans = Session.open(str(repo.path)).propose_commits()
    titles = sorted(p.title for p in plans)
    assert titles == [
        "fix(config): fix the crash on an empty config file",
        "refactor(cli): rename main to run in the CLI",
    ]
    fix = next(p for p in plans if "crash" in p.title)
    assert fix.description.startswith("Because new users see a traceback.")
    assert "Hey" not in fix.description and "please" not in fix.description


def test_the_pull_request_lists_the_tasks(tmp_path: Path) -> None:
    from segmint_core.session.session import Session

    repo = project(tmp_path)
    fix_the_crash(repo)
    ask(repo, "a", "Now also handle a missing file in save")
    edit(repo, "a", "config.py", "    with open(path, 'w') as f:\n", "    with open(path, 'w+') as f:\n")
    rename_main(repo)
    draft = Session.open(str(repo.path)).generate_pr()
    tasks = draft.description.split("## Tasks\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert sorted(tasks) == [
        "- Fix the crash on an empty config file (and 1 follow-up)",
        "- Rename main to run in the CLI",
    ]


def test_groups_keep_their_tasks_when_part_of_their_work_is_committed_by_hand(tmp_path: Path) -> None:
    from segmint_core.session.session import Session

    repo = project(tmp_path)
    repo.write("CHANGES.md", "# Changes\n")
    repo.commit("changelog")
    fix_the_crash(repo)
    edit(repo, "a", "CHANGES.md", "# Changes\n", "# Changes\n\n- Fix the crash.\n")
    rename_main(repo)
    edit(repo, "b", "CHANGES.md", "- Fix the crash.\n", "- Fix the crash.\n- Rename main.\n")
    session = Session.open(str(repo.path))
    session.propose_commits()
    repo.git("commit", "-qm", "changelog by hand", "CHANGES.md")
    session.refresh()
    told = sorted((g.summary, g.reasons[0]) for g in session.groups)
    assert told == [
        (
            "Fix the crash on an empty config file",
            "written under prompt 1: 'Please fix the crash on an empty config file'",
        ),
        ("Rename main to run in the CLI", "written under prompt 2: 'Please rename main to run in the CLI'"),
    ]


def test_a_line_a_task_wrote_and_committed_then_rewritten_is_the_rewriters_change(tmp_path: Path) -> None:
    from segmint_core.session.session import Session

    repo = project(tmp_path)
    ask(repo, "a", "Please add a retry limit")
    edit(repo, "a", "config.py", "import json\n", "import json\n\nRETRIES = 3\n")
    session = Session.open(str(repo.path))
    (plan,) = session.propose_commits()
    session.apply_commit(plan.id)
    ask(repo, "b", "Please raise the retry limit to 5")
    edit(repo, "b", "config.py", "RETRIES = 3\n", "RETRIES = 5\n")
    groups = grouped(repo)
    assert [(g[0], g[1]) for g in groups] == [("Raise the retry limit to 5", ["-RETRIES = 3", "+RETRIES = 5"])]


def test_a_group_given_another_tasks_hunk_is_still_named_for_the_task_that_wrote_most_of_it(tmp_path: Path) -> None:
    repo = project(tmp_path)
    fix_the_crash(repo)
    ask(repo, "b", "Please rename main to run in the CLI")
    edit(repo, "b", "cli.py", "def main():\n    config.load('a.json')\n", "def run():\n    config.load('b.json')\n")
    session = regrouped(repo)
    crash, rename = sorted(session.groups, key=lambda g: g.summary)
    session.move_hunks(crash.hunk_ids, to_group_id=rename.id)  # a person's choice: one commit
    (group,) = session.groups
    assert group.summary == "Rename main to run in the CLI"
    assert group.reasons[:2] == [
        "written under prompt 1: 'Please fix the crash on an empty config file'",
        "written under prompt 2: 'Please rename main to run in the CLI'",
    ]


def test_the_pull_request_keeps_the_tasks_of_commits_already_made(tmp_path: Path) -> None:
    from segmint_core.session.session import Session

    repo = project(tmp_path)
    fix_the_crash(repo)
    rename_main(repo)
    session = Session.open(str(repo.path))
    first, second = session.propose_commits()
    session.apply_commit(first.id)
    half = session.generate_pr().description
    session.apply_commit(second.id)
    assert not session.changes
    done = Session.open(str(repo.path)).generate_pr().description  # read back from the saved session
    for description in (half, done):
        tasks = description.split("## Tasks\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
        assert sorted(tasks) == ["- Fix the crash on an empty config file", "- Rename main to run in the CLI"]


def test_a_new_file_two_tasks_wrote_is_committed_in_two_commits_exactly(tmp_path: Path) -> None:
    from segmint_core.session.session import Session

    repo = project(tmp_path)
    ask(repo, "a", "Please add a retry helper")
    record_before_edit(repo.path, ["retry.py"], source="claude-code", session_id="a")
    repo.write("retry.py", "def retry(fn, times=3):\n    for _ in range(times):\n        fn()\n")
    record_edit(repo.path, ["retry.py"], source="claude-code", session_id="a")
    ask(repo, "b", "Can you add a backoff helper?")
    edit(repo, "b", "retry.py", "        fn()\n", "        fn()\n\n\ndef backoff(n):\n    return 2 ** n\n")
    session = Session.open(str(repo.path))
    plans = session.propose_commits()
    assert sorted(p.title for p in plans) == ["feat(retry): add a backoff helper", "feat(retry): add a retry helper"]
    before = repo.read("retry.py")
    session.apply_all(actor="person")
    assert repo.git("status", "--porcelain") == ""
    assert repo.read("retry.py") == before
    assert repo.git("show", "HEAD~1:retry.py") == "def retry(fn, times=3):\n    for _ in range(times):\n        fn()\n"


def test_lines_found_before_a_task_was_asked_for_go_to_the_only_task_asked_before(tmp_path: Path) -> None:
    repo = project(tmp_path)
    fix_the_crash(repo)
    repo.write("cli.py", repo.read("cli.py").decode() + "    # usage: cli FILE\n")  # by hand, while task 1 runs
    ask(repo, "b", "Can you make save write pretty JSON?")  # finds the hand edit: before prompt 2
    edit(repo, "b", "config.py", "        json.dump(data, f)\n", "        json.dump(data, f, indent=2)\n")
    groups = grouped(repo)
    assert [g[0] for g in groups] == ["Fix the crash on an empty config file", "Make save write pretty JSON"]
    assert "+    # usage: cli FILE" in groups[0][1]


def test_a_task_whose_edits_went_unrecorded_takes_the_unrecorded_lines_whole(tmp_path: Path) -> None:
    repo = project(tmp_path)
    fix_the_crash(repo)
    ask(repo, "b", "Please log each run of the CLI")  # its edits made with no hook
    repo.write("cli.py", repo.read("cli.py").decode().replace("import config\n", "import config\nimport logging\n"))
    repo.write("README", "Runs are logged.\n")
    groups = grouped(repo)
    assert sorted(sorted(g[1]) for g in groups) == [
        ["+        return json.loads(f.read() or '{}')", "-        return json.load(f)"],
        ["+Runs are logged.", "+import logging"],
    ]


def test_a_version_bump_made_by_hand_goes_with_the_task_that_wrote_its_release_notes(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    changes = "# Changes\n\n## 1.1.0\n\n- Add `export`.\n"
    repo.write("CHANGES.md", changes)
    repo.write("pyproject.toml", '[project]\nname = "shapes"\nversion = "1.1.0"\n')
    repo.write("geometry.py", "def area(w, h):\n    return w * h\n")
    repo.commit("base")
    ask(repo, "a", "Please release 1.2.0")
    edit(repo, "a", "CHANGES.md", "## 1.1.0", "## 1.2.0\n\n- Fix `area` for negative sizes.\n\n## 1.1.0")
    ask(repo, "b", "Can you make area take negative sizes?")  # its edit made with no hook
    repo.write("geometry.py", repo.read("geometry.py").decode().replace("return w * h", "return abs(w * h)"))
    repo.write("pyproject.toml", '[project]\nname = "shapes"\nversion = "1.2.0"\n')  # by hand, no recorder
    groups = grouped(repo)
    assert len(groups) == 2
    release = next(g for g in groups if '+version = "1.2.0"' in g[1])
    assert "+## 1.2.0" in release[1] and "+    return abs(w * h)" not in release[1]


CARGO_TOML = '[package]\nname = "finder"\nversion = "0.1.0"\n\n[dependencies]\nregex = "1.9"\nnix = "0.26"\n'
CARGO_LOCK = (
    "# This file is automatically @generated by Cargo.\nversion = 3\n\n"
    '[[package]]\nname = "nix"\nversion = "0.26.0"\n\n'
    '[[package]]\nname = "regex"\nversion = "1.9.0"\n'
)


def cargo_project(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "c")
    repo.write("Cargo.toml", CARGO_TOML)
    repo.write("Cargo.lock", CARGO_LOCK)
    repo.write("src/main.rs", 'fn main() {\n    println!("find");\n}\n')
    repo.commit("base")
    return repo


def test_a_manifest_edited_by_hand_goes_with_the_only_task_that_wrote_its_lock_file(tmp_path: Path) -> None:
    # The shape of a case once below the offline engine: the lock file recorded, its manifest typed by hand.
    repo = cargo_project(tmp_path)
    ask(repo, "a", "Hey, can you limit nix features")
    edit(repo, "a", "Cargo.lock", 'version = "0.26.0"', 'version = "0.26.4"')
    repo.write("Cargo.toml", CARGO_TOML.replace('nix = "0.26"', 'nix = { version = "0.26.4", features = ["fs"] }'))
    groups = grouped(repo)
    assert len(groups) == 1
    assert '+nix = { version = "0.26.4", features = ["fs"] }' in groups[0][1]


def test_a_manifest_edited_by_hand_is_not_given_to_the_lock_files_task_when_another_was_asked_for(
    tmp_path: Path,
) -> None:
    repo = cargo_project(tmp_path)
    ask(repo, "a", "Please bump regex to 1.10")
    edit(repo, "a", "Cargo.lock", 'version = "1.9.0"', 'version = "1.10.0"')
    ask(repo, "b", "Can you print the version on start?")
    edit(repo, "b", "src/main.rs", 'println!("find");', 'println!("find {}", env!("CARGO_PKG_VERSION"));')
    repo.write("Cargo.toml", CARGO_TOML.replace('regex = "1.9"', 'regex = "1.10"'))  # by hand: whose?
    groups = grouped(repo)
    lock = next(g for g in groups if any("1.10.0" in line for line in g[1]))
    assert '+regex = "1.10"' not in lock[1]


def test_one_strong_link_does_not_take_hand_lines_the_engine_puts_among_another_tasks_lines(tmp_path: Path) -> None:
    # The shape of a case once below the offline engine: lines typed by hand use what task 1 defined
    # (one strong link) but sit among task 2's lines, where the engine, weighing everything, puts them.
    repo = Repo(tmp_path / "r")
    repo.write("geometry.py", "def area(w, h):\n    return w * h\n")
    repo.write(
        "report.py",
        "from geometry import area\n\n\ndef report(shapes):\n    lines = []\n    for w, h in shapes:\n"
        "        lines.append(f'{w}x{h}: {area(w, h)}')\n    return '\\n'.join(lines)\n",
    )
    repo.commit("base")
    ask(repo, "a", "Please add a perimeter function")
    edit(
        repo,
        "a",
        "geometry.py",
        "    return w * h\n",
        "    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n",
    )
    ask(repo, "b", "Can you add a total to the report?")
    total = "    total = sum(area(w, h) for w, h in shapes)\n    lines.append(f'total: {total}')\n"
    edit(repo, "b", "report.py", "    return '\\n'.join(lines)\n", total + "    return '\\n'.join(lines)\n")
    by_hand = "    edges = sum(perimeter(w, h) for w, h in shapes)\n    lines.append(f'edges: {edges}')\n"
    text = repo.read("report.py").decode().replace("    total = sum", by_hand + "    total = sum", 1)
    repo.write("report.py", text.replace("import area\n", "import area, perimeter\n", 1))
    groups = grouped(repo)
    perimeter_task = next(g for g in groups if "+def perimeter(w, h):" in g[1])
    total_task = next(g for g in groups if "+    total = sum(area(w, h) for w, h in shapes)" in g[1])
    assert "+    edges = sum(perimeter(w, h) for w, h in shapes)" not in perimeter_task[1]
    assert "+    edges = sum(perimeter(w, h) for w, h in shapes)" not in total_task[1]  # not the task's either


def test_a_prompt_opening_with_a_name_keeps_its_case(tmp_path: Path) -> None:
    repo = project(tmp_path)
    repo.write("config.py", LOADER.replace("json.load(f)", "json.loads(f.read() or '{}')"))
    facts = gather([(c, c.hunks) for c in capture(Git(repo.path)).changes])
    plain = HouseStyle(seen=50, conventional=0, capitalized=0.9, past_tense=0.0, period=0.0)
    named = Asked("res.links should skip undefined links")
    assert intent_title(plain, facts, [], named) == "res.links should skip undefined links"
    for prompt in ("WebSocket support for auth", "RunE commands should be considered runnable"):
        assert intent_title(plain, facts, [], Asked(prompt)) == prompt, "nor is a name lowered"
