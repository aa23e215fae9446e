"""A release's changelog block is one hunk and goes to one commit; the entries it holds still
title the other commits whose code they name."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.facts import Facts, TreeEntries
from segmint_core.planning.voice import own_words
from segmint_core.planning.writer import read_plan
from segmint_core.session.session import Session
from tests.support.repo import Repo
from tests.support.titles import titled

MARKUP = (
    "def striptags(value):\n"
    "    value = ' '.join(value.split())\n"
    "    return value.replace('<b>', '')\n"
    "\n"
    "\n"
    "def unescape(value):\n"
    "    return value\n"
)
CHANGES = "Version 2.1.4\n-------------\n\nReleased 2024-01-19\n\n-   Don't use regular expressions.\n"


def released_titles(repo: Repo, old: str, new: str, entry: str) -> list[str]:
    """The titles proposed for 2.1.5's release of MarkupSafe's excerpt, ``old`` in its code made ``new``,
    its changelog block holding ``entry``."""
    repo.write("src/markup.py", MARKUP)
    repo.write("src/version.py", '__version__ = "2.1.4"\n')
    repo.write("CHANGES.rst", CHANGES)
    repo.commit()
    repo.write("src/markup.py", MARKUP.replace(old, new))
    repo.write("src/version.py", '__version__ = "2.1.5"\n')
    block = f"Version 2.1.5\n-------------\n\nReleased 2024-02-02\n\n-   {entry}\n\n\n"
    repo.write("CHANGES.rst", block + CHANGES)
    return [p.title for p in Session(Git.discover(repo.path)).propose_commits()]


def test_a_fix_is_titled_by_the_release_entry_naming_its_function(repo: Repo) -> None:
    # MarkupSafe 2.1.5 from 2.1.4: "Fix ``striptags`` not collapsing spaces" sits in the release block
    entry = "Fix ``striptags`` not collapsing spaces. :issue:`417`"
    titles = released_titles(repo, "value = ' '.join(value.split())", "value = str(value)", entry)

    assert "fix(markup): fix `striptags` not collapsing spaces" in titles
    assert any("2.1.5" in t for t in titles)  # the release, with its block


def test_an_entry_naming_no_code_of_a_commit_does_not_title_it(repo: Repo) -> None:
    entry = "Fix ``striptags`` not collapsing spaces."
    titles = released_titles(repo, "    return value\n", "    return value.strip()\n", entry)

    assert not any("striptags" in t for t in titles), titles


PARSE = (
    "var defaults = {\n    comma: false,\n    decodeDotInKeys: true,\n    depth: 5\n};\n\nmodule.exports = defaults;\n"
)


def qs_titles(repo: Repo, old: str, new: str, entries: str) -> list[str]:
    """The titles proposed for qs 6.12.1's excerpt: ``old`` in ``lib/parse.js`` made ``new``, the
    version set, and a changelog block of ``entries`` tagged as ljharb's projects tag them."""
    repo.write("lib/parse.js", PARSE)
    repo.write("package.json", '{\n    "name": "qs",\n    "version": "6.12.0"\n}\n')
    repo.write("CHANGELOG.md", "## **6.12.0**\n- [New] `parse`: add `decodeDotInKeys` option (#488)\n")
    repo.commit()
    repo.write("lib/parse.js", PARSE.replace(old, new))
    repo.write("package.json", '{\n    "name": "qs",\n    "version": "6.12.1"\n}\n')
    repo.write(
        "CHANGELOG.md",
        f"## **6.12.1**\n{entries}\n## **6.12.0**\n- [New] `parse`: add `decodeDotInKeys` option (#488)\n",
    )
    return [p.title for p in Session(Git.discover(repo.path)).propose_commits()]


def test_an_entry_is_titled_without_its_tag_and_area(repo: Repo) -> None:
    entries = "- [Fix] `parse`: Disable `decodeDotInKeys` by default to restore previous behavior (#501)\n- [Tests] increase coverage\n"
    titles = qs_titles(repo, "decodeDotInKeys: true", "decodeDotInKeys: false", entries)

    assert "fix(parse): disable `decodeDotInKeys` by default" in titles, titles


def test_an_entry_naming_a_module_marked_as_code_titles_its_change(repo: Repo) -> None:
    # a name a sentence would use as a word ("depth") names code only where the entry marks it so
    entries = "- [Fix] `parse`: stop parsing past the depth limit\n"
    titles = qs_titles(repo, "    depth: 5\n", "    depth: 5,\n    strictDepth: true\n", entries)

    assert "fix(parse): stop parsing past the depth limit" in titles, titles


REDIRECT = (
    "SendStream.prototype.redirect = function redirect (path) {\n"
    "  var loc = encodeUrl(this.path + '/')\n"
    "  var doc = createHtmlDocument('Redirecting', '<a href=\"' + escapeHtml(loc) + '\">')\n"
    "  return doc\n"
    "}\n"
)


def send_titles(repo: Repo, also: str = "") -> list[str]:
    """send 0.19.0's excerpt: its one entry, which names no code, and the change to ``redirect``;
    ``also``: a line written into another code file."""
    repo.write("index.js", REDIRECT)
    repo.write("lib/mime.js", "module.exports = {}\n")
    repo.write("package.json", '{\n  "name": "send",\n  "version": "0.18.0"\n}\n')
    repo.write("HISTORY.md", "0.18.0 / 2022-03-23\n===================\n\n* Fix emitted 416 error missing headers\n")
    repo.commit()
    repo.write(
        "index.js", REDIRECT.replace("'<a href=\"' + escapeHtml(loc) + '\">'", "'Redirecting to ' + escapeHtml(loc)")
    )
    repo.write("package.json", '{\n  "name": "send",\n  "version": "0.19.0"\n}\n')
    entry = "0.19.0 / 2024-09-10\n===================\n\n* Remove link renderization in html while redirecting\n\n"
    repo.write(
        "HISTORY.md", entry + "0.18.0 / 2022-03-23\n===================\n\n* Fix emitted 416 error missing headers\n"
    )
    if also:
        repo.write("lib/mime.js", f"module.exports = {{}}\n{also}\n")
    return [p.title for p in Session(Git.discover(repo.path)).propose_commits()]


def test_a_releases_one_entry_titles_the_commit_holding_all_its_code(repo: Repo) -> None:
    titles = send_titles(repo)

    assert "fix(index): remove link renderization in html while redirecting" in titles, titles
    assert "chore(package): release 0.19.0" in titles, titles


def entry_said(repo: Repo, path: str, before: str, after: str, entry: str) -> Facts:
    """The facts of ``before`` made ``after`` in ``path``, the tree's one changelog entry ``entry``
    about its code (its block in another plan)."""
    repo.write(path, before)
    repo.commit()
    repo.write(path, after)
    changes = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    return read_plan(changes, entries=TreeEntries([entry], {path: 2}))[0]


def test_the_one_entry_titles_no_commit_holding_only_part_of_the_code(repo: Repo) -> None:
    titles = send_titles(repo, also="module.exports.types = ['text/html']")

    assert not any("renderization" in t for t in titles), titles


def test_an_entry_shortened_to_what_follows_its_opening_phrase_may_not_open_on_an_article(repo: Repo) -> None:
    # fd's "When using `--glob` in combination with `--full-path`, a `*` character does not match ..."
    entry = (
        "When using `--glob` in combination with `--full-path`, a `*` character does not match a path"
        " separation character (`/` or `\\\\`) anymore"
    )
    facts = entry_said(
        repo, "src/walk.rs", "fn run() {\n    glob(true);\n}\n", "fn run() {\n    glob(false);\n}\n", entry
    )

    assert facts.changelog_entries == [entry]  # the tree's one entry, its code all this plan's
    assert not any(text.lower().startswith("a `*`") for text in own_words(facts)), own_words(facts)


def test_an_entry_reworded_is_no_entry_added(repo: Repo) -> None:
    # pathspec 0.12.1 gave 0.12.0's entry "(with a leading underscore)": that is no entry of its own
    old = "- Signature of protected method `PathSpec._match_file()` has been changed from `bool` to a tuple.\n"
    new = old.replace("()` has", "()` (with a leading underscore) has")
    facts, _ = titled(repo, "CHANGES.rst", f"0.12.0\n------\n\n{old}", f"0.12.0\n------\n\n{new}")

    assert facts.changelog_entries == []


def test_an_issue_label_leading_an_entry_is_no_words_of_it(repo: Repo) -> None:
    before = "0.12.0\n------\n\n- Added a thing.\n"
    entry = "- `Issue #84`_: PathSpec.match_file() returns None since 0.12.0.\n"
    facts, _ = titled(repo, "CHANGES.rst", before, f"0.12.1\n------\n\n{entry}\n{before}")

    assert facts.changelog_entries == ["PathSpec.match_file() returns None since 0.12.0"]


def test_an_entry_is_not_shortened_to_a_word_wanting_its_to(repo: Repo) -> None:
    # packaging 24.0's "Fix errors when trying to access the ..." was titled "fix errors when trying"
    entry = (
        "Fix errors when trying to access the `description_content_type`, `keywords`, and `requires_python`"
        " attributes on `metadata.Metadata` when those values have not been provided"
    )
    before = "def get(self, name):\n    return self._raw[name]\n"
    facts = entry_said(repo, "src/metadata.py", before, before.replace("[name]", ".get(name)"), entry)

    said = own_words(facts)
    assert said[-1] == "Fix errors when trying to access the `description_content_type`", said


def test_an_entry_is_not_shortened_between_built_and_in(repo: Repo) -> None:
    # packaging 24.0's "... the use of the built in `ExceptionGroup` ..." was titled "... the use of the built"
    entry = "Fix a bug preventing the use of the built in `ExceptionGroup` on versions of Python that support it"
    before = "def group(errors):\n    return errors\n"
    facts = entry_said(repo, "src/errors.py", before, before.replace("errors\n", "ExceptionGroup('', errors)\n"), entry)

    assert not any(text.endswith("built") for text in own_words(facts)), own_words(facts)


def test_an_entry_saying_fix_does_not_title_a_feature(repo: Repo) -> None:
    # pytest-mock 3.14.0's plugin code was titled "feat(plugin): fix a regression"
    repo.write("CHANGELOG.rst", "Releases\n========\n\n")
    repo.write("src/plugin.py", "class Mocker:\n    def spy(self, obj):\n        return obj\n")
    repo.commit()
    repo.write(
        "CHANGELOG.rst",
        "Releases\n========\n\n- Fixed a regression in ``spy_return_list``.\n",
    )
    repo.write(
        "src/plugin.py",
        "class Mocker:\n    def spy(self, obj):\n        return obj\n\n"
        "    def spy_return_list(self, obj):\n        return [obj]\n",
    )
    title = offline_message([(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]).title
    assert title.startswith("feat") and "fix" not in title, title


def test_a_changelog_built_into_html_holds_no_entries(repo: Repo) -> None:
    # Mako 1.3.3's sdist ships its docs built; a script line of doc/changelog.html titled twelve pages
    page = '<html>\n<script type="text/javascript">\n  var OPTIONS = {URL_ROOT: "./"};\n</script>\n</html>\n'
    new = page.replace('var OPTIONS = {URL_ROOT: "./"};', "document.documentElement.dataset.content_root = './';")
    for name in ("changelog", "index", "usage"):
        repo.write(f"doc/{name}.html", page)
    repo.commit()
    for name in ("changelog", "index", "usage"):
        repo.write(f"doc/{name}.html", new)
    parts = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    facts, _ = read_plan(parts)

    assert facts.changelog_entries == []
    assert "documentElement" not in offline_message(parts).title
