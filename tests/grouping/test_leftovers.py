"""A changelog's or a test file's parts that no other file claims stay with the rest of the file;
a part linked to the code it concerns still goes with that code."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import group_changes
from tests.support.repo import Repo

HISTORY = "# History\n\n## Unreleased\n\n- Support Node 18.\n"
# Entries sharing no word with each other or with any file: nothing but their file ties them.
ENTRIES = [
    "- Deprecate `res.sendfile` in favour of streams.",
    "- Bump qs to 6.14.0 for arrays.",
    "- Document every router option, including strict mode.",
    "- Remove the ancient jsonp callback whitelist.",
]
SERVER = "def listen(port):\n    return port\n"
CLIENT = "def connect(host):\n    return host\n"


def grouped(repo: Repo) -> list[list[str]]:
    changes = capture(Git.discover(repo.path))
    grouping = group_changes(changes, timeline=None, root=str(repo.path))
    paths = {c.id: c.file_path for c in grouping.changes}
    return sorted(
        sorted({paths[h.split(":")[0]] for h in g.hunk_ids} | {paths[c] for c in g.change_ids}) for g in grouping.groups
    )


def test_entries_added_to_a_changelog_alone_are_one_group(repo: Repo) -> None:
    repo.write("History.md", HISTORY)
    repo.commit()
    repo.write("History.md", HISTORY.replace("- Support Node 18.\n", "\n".join(ENTRIES) + "\n- Support Node 18.\n"))
    assert grouped(repo) == [["History.md"]]


def test_entries_scattered_through_a_changelog_are_one_group(repo: Repo) -> None:
    old = "".join(f"## 1.{n}.0\n\n- Release {n}.\n\n" for n in range(9, 0, -1))
    repo.write("History.md", f"# History\n\n{old}")
    repo.commit()
    text = f"# History\n\n{old}"
    for n, entry in zip((8, 6, 4, 2), ENTRIES):
        text = text.replace(f"- Release {n}.\n", f"- Release {n}.\n{entry}\n")
    repo.write("History.md", text)
    assert grouped(repo) == [["History.md"]]


def test_an_entry_naming_its_code_goes_with_it_and_the_others_with_the_larger_part(repo: Repo) -> None:
    repo.write("History.md", HISTORY)
    repo.write("server.py", SERVER)
    repo.commit()
    repo.write("server.py", SERVER + "\n\ndef listen_tls(port, certificate):\n    return listen(port), certificate\n")
    added = ["- Add `listen_tls(port, certificate)` to serve over TLS with a certificate.", *ENTRIES[:2]]
    repo.write("History.md", HISTORY.replace("- Support Node 18.\n", "\n".join(added) + "\n- Support Node 18.\n"))
    groups = grouped(repo)
    assert ["History.md", "server.py"] in groups
    assert not any(paths == ["History.md"] for paths in groups)


def test_entries_claimed_by_different_code_stay_apart(repo: Repo) -> None:
    repo.write("History.md", HISTORY)
    repo.write("server.py", SERVER)
    repo.write("client.py", CLIENT)
    repo.commit()
    repo.write("server.py", SERVER + "\n\ndef listen_tls(port, certificate):\n    return listen(port), certificate\n")
    repo.write("client.py", CLIENT + "\n\ndef connect_proxy(host, proxy_url):\n    return connect(host), proxy_url\n")
    added = [
        "- Add `listen_tls(port, certificate)` to serve over TLS with a certificate.",
        "- Add `connect_proxy(host, proxy_url)` to reach a host through a proxy_url.",
    ]
    repo.write("History.md", HISTORY.replace("- Support Node 18.\n", "\n".join(added) + "\n- Support Node 18.\n"))
    groups = grouped(repo)
    assert ["History.md", "server.py"] in groups
    assert ["History.md", "client.py"] in groups


def test_an_import_a_new_test_needs_stays_with_the_test(repo: Repo) -> None:
    tests = "import pytest\n\nfrom app import compute\n\n\n" + "".join(
        f"def test_case_{n}():\n    assert compute() == {n}\n\n\n" for n in range(40)
    )
    repo.write("tests/test_app.py", tests)
    repo.write("app.py", "def compute():\n    return 1\n")
    repo.commit()
    repo.write(
        "tests/test_app.py",
        tests.replace("import pytest\n", "import pytest\nimport zoneinfo\n")
        + "def test_offsets_are_kept():\n    zone = zoneinfo.ZoneInfo('Europe/Paris')\n"
        "    assert zone.key == 'Europe/Paris'\n",
    )
    assert grouped(repo) == [["tests/test_app.py"]]


def test_a_test_file_and_a_docs_page_of_two_intents_stay_apart(repo: Repo) -> None:
    # only the file's own leftovers move: a group of another file is never joined to it
    repo.write("tests/test_app.py", "def test_one():\n    assert True\n")
    repo.write("docs/usage.md", "# Usage\n\nRun it.\n")
    repo.commit()
    repo.write("tests/test_app.py", "def test_one():\n    assert True\n\n\ndef test_two():\n    assert 2\n")
    repo.write("docs/usage.md", "# Usage\n\nRun it with `--verbose` for every pelican sighting.\n")
    assert grouped(repo) == [["docs/usage.md"], ["tests/test_app.py"]]
