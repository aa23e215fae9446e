"""A hunk inside a method is named by the method, read from its file, not by git's class header."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.changes.models import Hunk
from segmint_core.git import Git
from segmint_core.planning.enclosing import Sections, enclosing_line
from segmint_core.session.session import Session
from tests.support.repo import Repo

APP = (
    "class Flask:\n"
    "    def select_autoescape(self, filename):\n"
    '        """Whether to autoescape a template.\n'
    "\n"
    "        Long enough that git's hunk does not show the def line.\n"
    "        It says more.\n"
    "        And more.\n"
    '        """\n'
    "        if filename is None:\n"
    "            return True\n"
    '        return filename.endswith((".html", ".htm"))\n'
    "\n"
    "    def other(self):\n"
    "        return 1\n"
)


def test_a_fix_inside_a_method_names_the_method_not_the_class(repo: Repo) -> None:
    repo.write("src/app.py", APP)
    repo.commit()
    repo.write("src/app.py", APP.replace('(".html", ".htm")', '(".html", ".htm", ".svg")'))
    hunk = capture(Git.discover(repo.path)).changes[0].hunks[0]
    assert hunk.header.endswith("class Flask:")  # what git's default function context says

    plans = Session(Git.discover(repo.path)).propose_commits()

    assert [p.title for p in plans] == ["fix(app): add .svg to select_autoescape"]
    assert "Flask" not in plans[0].title


def test_a_block_between_the_hunk_and_its_definition_is_stepped_over() -> None:
    old = [
        "class A:",
        "    def m(self):",
        "        if x:",
        "            y = 1",
        "            z = 2",
        "        return y",
    ]
    hunk = Hunk("h", 5, 1, 5, 1, "@@ -5 +5 @@ class A:", ["-            z = 2", "+            z = 3"])
    assert enclosing_line(old, hunk) == "    def m(self):"


def test_a_constructors_hunk_is_its_classs() -> None:
    old = [
        "class FileResponse(Response):",
        "    def __init__(self, path, status_code=200):",
        "        self.path = path",
        "        self.status_code = status_code",
    ]
    header = "@@ -4 +4 @@ class FileResponse(Response):"
    hunk = Hunk("h", 4, 1, 4, 1, header, ["-        self.status_code = status_code", "+        self.code = 1"])
    assert enclosing_line(old, hunk) == "class FileResponse(Response):"


def test_top_level_code_and_text_that_is_not_the_hunks_keep_gits_header() -> None:
    old = ["def f():", "    return 1", "", "X = 1"]
    top = Hunk("h", 4, 1, 4, 1, "@@ -4 +4 @@ def f():", ["-X = 1", "+X = 2"])
    assert enclosing_line(old, top) is None
    elsewhere = Hunk("h", 2, 1, 2, 1, "@@ -2 +2 @@ def f():", ["-    return 9", "+    return 2"])
    assert enclosing_line(old, elsewhere) is None


def test_a_closed_function_above_is_not_the_enclosing_one() -> None:
    old = ["func a() {", "    one()", "}", "", "type T struct {", "    x int", "}"]
    hunk = Hunk("h", 6, 1, 6, 1, "@@ -6 +6 @@ type T struct {", ["-    x int", "+    x int64"])
    assert enclosing_line(old, hunk) is None  # a struct is no definition the writer names


def test_settings_files_and_new_files_are_left_alone(repo: Repo) -> None:
    repo.write("conf/app.toml", "[server]\n\n    port = 1\n")
    repo.commit()
    repo.write("conf/app.toml", "[server]\n\n    port = 2\n")
    repo.write("src/new.py", "class B:\n    def m(self):\n        return 1\n")
    changes = capture(Git.discover(repo.path)).changes
    parts = [(c, c.hunks) for c in changes]

    resolved = Sections(changes, Git.discover(repo.path)).resolve(parts)

    assert [[h.header for h in hunks] for _, hunks in resolved] == [[h.header for h in hunks] for _, hunks in parts]


def test_a_docs_hunk_is_in_the_section_its_first_changed_line_is_in(repo: Repo) -> None:
    page = (
        "# Tool\n\nIntro.\n\n## Install\n\n```bash\n# not a heading\npip install tool\n```\n\n"
        "Usage\n-----\n\nRun it.\n" + "\n" * 8 + "More.\n"
    )
    repo.write("docs/guide.md", page)
    repo.commit()
    repo.write("docs/guide.md", page.replace("pip install tool", "pipx install tool").replace("More.", "More, now."))
    changes = capture(Git.discover(repo.path)).changes

    resolved = Sections(changes, Git.discover(repo.path)).resolve([(c, c.hunks) for c in changes])

    assert [h.header.split("@@")[-1] for h in resolved[0][1]] == [" # Install", " # Usage"]
