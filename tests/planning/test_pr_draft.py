"""The pull-request draft shows the commits' titles and the tests' files as they are written."""

from __future__ import annotations

from segmint_core.planning.cases import ADDED, Case
from segmint_core.pr import testplan
from segmint_core.session.session import Session
from tests.support.repo import Repo


def draft_of(repo: Repo) -> str:
    session = Session.open(str(repo.path))
    session.propose_commits()
    return session.generate_pr().description


def plain_history(repo: Repo) -> None:
    """Eleven commits of a house writing plain capitalized subjects (``Fix thing 3``)."""
    for n in range(11):
        repo.write(f"src/m{n}.py", f"def g{n}():\n    return {n}\n")
        repo.commit(f"Fix thing {n}")


def a_plain_house(repo: Repo) -> None:
    """A README and a module, then the plain history above."""
    repo.write("README.md", "# Tool\n")
    repo.write("src/app.py", "def f():\n    return 1\n")
    repo.commit("Start the tool")
    plain_history(repo)


def test_titles_and_paths_render_in_markdown_as_written(repo: Repo) -> None:
    repo.write("app.py", "x = 1\n")
    repo.commit()
    repo.write("pkg/__init__.py", "VALUE = 1\n")
    repo.write("notes/<!-- hidden.md", "# Notes\n")
    repo.write("docs/a`b.md", "# B\n")
    body = draft_of(repo)
    commits = body.split("## Commits\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert any(c.endswith(": add \\_\\_init\\_\\_.py") for c in commits), commits  # not "add **init**.py"
    assert "- docs(notes): add \\<!-- hidden.md" in commits  # no comment hiding the rest
    assert "- docs: add a\\`b.md" in commits
    assert "\\<!-- hidden.md" in body.split("## Summary\n\n", 1)[1].split("\n\n", 1)[0]
    assert "## Files changed" not in body and "(+1 -0)" not in body, "the review shows the files, git their counts"


def test_a_test_s_file_is_one_code_span_whatever_backticks_its_name_holds() -> None:
    plan = testplan.test_plan(
        [testplan.Command("pytest", "pyproject.toml")], [Case("tests/test_a`b.py", "test_odd_name", ADDED)]
    )
    assert plan == "- [ ] `pytest` passes (pyproject.toml)\n- [ ] New test: odd name (``tests/test_a`b.py``)"


def test_names_inside_words_and_code_spans_are_left_as_they_are(repo: Repo) -> None:
    repo.write("app/config.py", "def load_config(path):\n    return open(path).read()\n")
    repo.commit()
    repo.write(
        "app/config.py", "def load_config(path):\n    if not path:\n        return None\n    return open(path).read()\n"
    )
    assert "- fix(config): handle missing path in load_config\n" in draft_of(repo)


def test_a_plain_title_with_a_colon_of_its_own_is_summarized_whole(repo: Repo) -> None:
    a_plain_house(repo)
    repo.write("README.md", "# Tool\n\n## Step 1: Install\n\npip install tool\n")
    body = draft_of(repo)
    assert "- Add docs for Step 1: Install\n" in body
    assert "## Summary\n\nAdds docs for Step 1: Install.\n" in body  # not "Install."


def test_a_past_tense_house_with_full_stops_is_summarized_in_its_tense_and_punctuated_once(repo: Repo) -> None:
    repo.write("src/app.py", "def f():\n    return 1\n")
    repo.write("README.md", "Hello.\n")
    repo.commit("Started the tool.")
    for n in range(11):
        repo.write(f"src/m{n}.py", f"def g{n}():\n    return {n}\n")
        repo.commit(f"fixed thing {n}.")
    repo.write("src/app.py", "def f():\n    return 1\n\n\ndef new_api(x):\n    return x\n")
    repo.write("NOTES.md", "# Notes\n")
    body = draft_of(repo)
    summary = body.split("## Summary\n\n", 1)[1].split("\n\n", 1)[0]
    assert summary == "Added NOTES.md. It also added new_api.", summary  # not "addeds new_api.."


def test_ignoring_and_converting_are_summarized_in_the_third_person(repo: Repo) -> None:
    repo.write(".gitignore", "dist/\n.venv/\n")
    repo.write("docs/guide.md", "# Guide\n")
    repo.commit("Start the tool")
    plain_history(repo)
    repo.write(".gitignore", "dist/\n")
    repo.delete("docs/guide.md")
    repo.write("docs/guide.rst", "Guide\n=====\n")
    summary = draft_of(repo).split("## Summary\n\n", 1)[1].split("\n\n", 1)[0]
    assert summary == "Converts guide.md to guide.rst. It also stops ignoring .venv/.", summary


def test_a_subject_that_is_no_verb_phrase_is_summarized_as_a_commit_included(repo: Repo) -> None:
    a_plain_house(repo)
    repo.write("README.md", "# Tool\n\n## Install\n\npip install tool\n")
    repo.write("src/app.py", "def f():\n    return 2\n")
    session = Session.open(str(repo.path))
    plans = session.propose_commits()
    session.update_commit(plans[-1].id, title="Windows paths")  # a house's subject naming a topic
    summary = session.generate_pr().description.split("## Summary\n\n", 1)[1].split("\n\n", 1)[0]
    assert summary.endswith('It also includes "Windows paths".'), summary  # not "It also Windows paths."


def test_a_subject_written_as_a_statement_is_summarized_as_it_reads(repo: Repo) -> None:
    # a Conventional description taken from a changelog entry: "Autoescapes is enabled ..." it read
    repo.write("CHANGES.md", "## Unreleased\n")
    repo.write("src/app.py", "EXTENSIONS = ('.html',)\n")
    repo.write("README.md", "# Tool\n")
    repo.commit("init")
    repo.write("CHANGES.md", "## Unreleased\n\n- Autoescape is enabled by default for `.svg` files.\n")
    repo.write("src/app.py", "EXTENSIONS = ('.html', '.svg')\n")
    repo.write("README.md", "# Tool\n\n## Install\n\npip install tool\n")
    session = Session.open(str(repo.path))
    plans = session.propose_commits()
    assert any(p.title.endswith("autoescape is enabled by default for `.svg` files") for p in plans), plans
    summary = session.generate_pr().description.split("## Summary\n\n", 1)[1].split("\n\n", 1)[0]
    assert summary.startswith("Autoescape is enabled by default for `.svg` files. It also "), summary
