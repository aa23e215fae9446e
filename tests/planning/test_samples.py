"""An example's line or few rewritten, and nothing else, is a fix of the example: httpx's "Fix
sample in quickstart.md", click's "Fixed a broken example" (a ``.. click:example::`` block) and
"Fixed the naval example" were titled "Update ..." for want of evidence of a fix."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning.claims import fix_evidence
from segmint_core.planning.enclosing import Sections, literal_rows
from segmint_core.planning.style import HouseStyle
from segmint_core.planning.writer import offline_message, read_plan
from tests.support.repo import Repo

PLAIN = HouseStyle(seen=30, conventional=0, capitalized=1.0)

STREAMING = "## Streaming\n\n```pycon\n>>> with httpx.stream('GET', url) as r:\n...     if {} < TOO_LONG:\n...         r.read()\n```\n"
RST_EXAMPLE = """Commands
--------

A custom multi command implements two methods:

.. click:example::

    class MyCLI(click.MultiCommand):

        def list_commands(self, ctx):
            return []

        def get_command({}):
            return None

Then use it.
"""


def edited(repo: Repo, path: str, before: str, after: str) -> list:
    repo.write(path, before)
    repo.commit()
    repo.write(path, after)
    git = Git.discover(repo.path)
    changes = capture(git).changes
    return Sections(changes, git).resolve([(c, c.hunks) for c in changes])


def plain_title(parts: list) -> str:
    return offline_message(parts, style=PLAIN).title


def test_a_line_of_a_markdown_sample_rewritten_fixes_the_example(repo: Repo) -> None:
    old, new = "r.headers['Content-Length']", "int(r.headers['Content-Length'])"
    parts = edited(repo, "docs/quickstart.md", STREAMING.format(old), STREAMING.format(new))
    assert plain_title(parts) == "Fix example in quickstart.md"
    assert offline_message(parts).title == "docs(quickstart): fix example in quickstart.md"
    assert fix_evidence(read_plan(parts)[0])


def test_a_line_of_a_restructuredtext_example_block_rewritten_fixes_the_example(repo: Repo) -> None:
    parts = edited(repo, "docs/commands.rst", RST_EXAMPLE.format("self, name"), RST_EXAMPLE.format("self, ctx, name"))
    assert plain_title(parts) == "Fix example in commands.rst"


def test_a_line_of_an_example_folder_rewritten_fixes_that_example(repo: Repo) -> None:
    before = "@cli.group('mine')\ndef mine(ship):\n    '''Manages mines.'''\n"
    parts = edited(repo, "examples/naval/naval.py", before, before.replace("mine(ship)", "mine()"))
    assert plain_title(parts) == "Fix mine in the naval example"


def test_prose_edited_beside_a_sample_or_a_sample_grown_is_no_fix_of_it(repo: Repo) -> None:
    old = "r.headers['Content-Length']"
    prose = STREAMING.format(old).replace("## Streaming\n", "## Streaming\n\nRead it in parts.\n")
    assert "example" not in plain_title(edited(repo, "docs/quickstart.md", STREAMING.format(old), prose))
    repo.commit("prose")
    grown = prose.replace("...         r.read()\n", "...         r.read()\n...         r.close()\n")
    assert not plain_title(edited(repo, "docs/quickstart.md", prose, grown)).startswith("Fix")


def test_a_sample_taking_another_import_follows_a_new_api_and_is_no_fix(repo: Repo) -> None:
    config = "```python\nfrom starlette.datastructures import {}\n\nURL = config('URL', cast={})\n```\n"
    before, after = config.format("Secret", "URL"), config.format("DatabaseURL, Secret", "DatabaseURL")
    assert "example" not in plain_title(edited(repo, "docs/config.md", before, after))


def test_one_edit_made_alike_in_several_samples_is_a_pattern_applied_not_a_fix(repo: Repo) -> None:
    # Flask 2.2.3 took ``(object)`` off the two classes of its dispatch examples
    page = "Dispatch\n--------\n\n::\n\n    class Subdomain{0}:\n        pass\n\n    class Path{0}:\n        pass\n"
    parts = edited(repo, "docs/appdispatch.rst", page.format("(object)"), page.format(""))
    assert "example" not in plain_title(parts)


def test_a_note_s_indented_prose_is_no_literal_block(repo: Repo) -> None:
    note = "Commands\n--------\n\n.. note::\n\n    The {} command is lazy.\n"
    parts = edited(repo, "docs/commands.rst", note.format("list"), note.format("load"))
    assert "example" not in plain_title(parts)


def test_a_sample_only_laid_out_again_is_formatted_not_fixed(repo: Repo) -> None:
    old = "r.headers['Content-Length']"
    spaced = STREAMING.format(old).replace("if r", "if  r")
    assert "example" not in plain_title(edited(repo, "docs/quickstart.md", STREAMING.format(old), spaced))


def test_literal_rows_are_those_a_paragraph_or_a_code_directive_opens_until_the_margin() -> None:
    text = [
        "Run it::",  # 0
        "",
        "    tool --fast",  # 2
        "Prose.",  # 3
        ".. note::",  # 4
        "   Not code.",  # 5
        ".. code-block:: python",  # 6
        "",
        "   x = 1",  # 8
        "done",  # 9
    ]
    assert sorted(literal_rows(text)) == [1, 2, 7, 8]
