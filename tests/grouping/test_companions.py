"""A group of test edits alone joins the code its tests call; one tied to nothing stays apart."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import group_changes
from tests.support.repo import Repo

CODE = "def parse_size(text):\n    return int(text)\n\n\ndef parse_name(text):\n    return text.strip()\n"
SUFFIXES = (
    "    units = {'k': 1024, 'm': 1024 ** 2, 'g': 1024 ** 3}\n    suffix = text[-1:].lower()\n"
    "    if suffix in units:\n        return int(text[:-1]) * units[suffix]\n    return int(text)\n"
)
# Named for the command line, not for the module: no test-file pairing ties it to shop/sizes.py.
TEST = "from shop.sizes import parse_name\n\n\ndef test_name():\n    assert parse_name(' a ') == 'a'\n"


def grouped(repo: Repo) -> list[list[str]]:
    changes = capture(Git.discover(repo.path))
    grouping = group_changes(changes, timeline=None, root=str(repo.path))
    paths = {c.id: c.file_path for c in grouping.changes}
    return sorted(sorted({paths[h.split(":")[0]] for h in g.hunk_ids}) for g in grouping.groups)


def sizes_repo(repo: Repo) -> None:
    repo.write("shop/sizes.py", CODE)
    repo.write("tests/test_cli.py", TEST)
    repo.commit("start")
    repo.write("shop/sizes.py", CODE.replace("    return int(text)\n", SUFFIXES))


def test_a_test_calling_the_changed_function_joins_it(repo: Repo) -> None:
    sizes_repo(repo)
    repo.write("tests/test_cli.py", TEST + "\n\ndef test_kilobytes():\n    assert parse_size('2k') == 2048\n")
    assert grouped(repo) == [["shop/sizes.py", "tests/test_cli.py"]]


def test_a_test_of_other_code_stays_apart(repo: Repo) -> None:
    sizes_repo(repo)
    repo.write("tests/test_cli.py", TEST + "\n\ndef test_inner_spaces():\n    assert parse_name(' a b ') == 'a b'\n")
    assert grouped(repo) == [["shop/sizes.py"], ["tests/test_cli.py"]]


GUIDE = "# Sizes\n\nSizes are read by the shop.\n"


def grouped_with_docs(repo: Repo, code: str, note: str) -> list[list[str]]:
    """The groups of ``shop/sizes.py`` rewritten as ``code`` and a ``note`` added to its docs page."""
    repo.write("shop/sizes.py", CODE)
    repo.write("docs/sizes.md", GUIDE)
    repo.commit("start")
    repo.write("shop/sizes.py", code)
    repo.write("docs/sizes.md", GUIDE + note)
    return grouped(repo)


def test_docs_naming_a_function_the_code_adds_join_it(repo: Repo) -> None:
    code = CODE + "\n\ndef parse_weight(text):\n    return float(text.rstrip('kg'))\n"
    note = "\nWeights such as `12kg` are read by `parse_weight`.\n"
    assert grouped_with_docs(repo, code, note) == [["docs/sizes.md", "shop/sizes.py"]]


def test_docs_naming_a_parameter_the_code_adds_join_it(repo: Repo) -> None:
    code = CODE.replace("def parse_size(text):", "def parse_size(text, base_unit=1):")
    note = "\nPass `base_unit` to count in blocks rather than bytes.\n"
    assert grouped_with_docs(repo, code, note) == [["docs/sizes.md", "shop/sizes.py"]]


def test_docs_naming_a_function_the_code_only_edits_stay_apart(repo: Repo) -> None:
    code = CODE.replace("    return text.strip()\n", "    return text.strip().lower()\n")
    note = "\nSee `parse_size` for what a size may be written as.\n"
    assert grouped_with_docs(repo, code, note) == [["docs/sizes.md"], ["shop/sizes.py"]]
