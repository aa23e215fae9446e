"""The Flask example of issue 17: a faithful excerpt of Flask 2.2.2 -> 2.2.3.

``fixtures/flask`` holds real files of the two PyPI sdists (BSD-3-Clause, see its
LICENSE.rst), cut to the parts that changed: CHANGES.rst's new section, the docs
index and the new lifecycle page, pip-compile's requirements/tests.txt, the
typo fixed in globals.py, scaffold.py's constructor and request hooks, the
test that now raises ValueError, and setup.cfg's pytest section (unchanged). The base tree is committed in a temporary
repository and the new one written over it, as a person would find it.
"""

from __future__ import annotations

from pathlib import Path

from segmint_core.changes import capture
from segmint_core.config import Settings
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.session.session import Session
from tests.support.repo import Repo

FIXTURE = Path(__file__).parent / "fixtures" / "flask"


def flask_repo(repo: Repo) -> Repo:
    for side in ("before", "after"):
        if side == "after":
            repo.commit("Flask 2.2.2")
        for path in sorted((FIXTURE / side).rglob("*")):
            if path.is_file():  # written afresh: a copied modification time would hide an edit from git
                repo.write(path.relative_to(FIXTURE / side).as_posix(), path.read_bytes())
    return repo


def title_for(repo: Repo, *paths: str) -> str:
    """The offline title of the changes to ``paths`` alone, as one commit."""
    cs = capture(Git.discover(repo.path))
    return offline_message([(c, c.hunks) for c in cs.changes if c.file_path in paths]).title


def test_each_flask_change_gets_a_subject_an_engineer_would_accept(repo: Repo) -> None:
    flask_repo(repo)
    assert (
        title_for(repo, "requirements/tests.txt")
        == "build(deps): bump asgiref, attrs, packaging, pytest and python-dotenv"
    )
    assert title_for(repo, "src/flask/globals.py") == "fix(globals): correct typo in __getattr__"
    assert title_for(repo, "docs/lifecycle.rst", "docs/index.rst") == "docs: add lifecycle.rst"
    assert (
        title_for(repo, "tests/test_appctx.py") == "test(appctx): use ValueError instead of Exception in test_appctx.py"
    )
    # the constructor's annotation is the fix; the request hooks' docstrings, most of the lines, come with it
    assert (
        title_for(repo, "src/flask/scaffold.py")
        == "fix(scaffold): correct the type of template_folder and document Scaffold"
    )


def test_proposing_commits_for_the_flask_change_gives_clean_specific_titles(repo: Repo) -> None:
    flask_repo(repo)
    plans = Session.open(str(repo.path), settings=Settings()).propose_commits()
    titles = [p.title for p in plans]
    for title in titles:
        assert len(title) <= 72 and title.isprintable() and "…" not in title, title
        assert " more" not in title and "correct Scaffold" not in title, title  # no "X, Y and 3 more"
        assert "TestHelpers" not in title and "remoevd" not in title, title  # a typo is fixed, not a rename
    assert "build(deps): bump asgiref, attrs, packaging, pytest and python-dotenv" in titles
    assert all("Grouped because" not in p.description for p in plans)
