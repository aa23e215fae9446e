"""A changelog's entries that no other file claims stay together; an entry linked to the code it
describes still goes with that code."""

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
    return sorted(sorted({paths[h.split(":")[0]] for h in g.hunk_ids} | {paths[c] for c in g.change_ids})
                  for g in grouping.groups)


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
    added = ["- Add `listen_tls(port, certificate)` to serve over TLS with a certificate.",
             "- Add `connect_proxy(host, proxy_url)` to reach a host through a proxy_url."]
    repo.write("History.md", HISTORY.replace("- Support Node 18.\n", "\n".join(added) + "\n- Support Node 18.\n"))
    groups = grouped(repo)
    assert ["History.md", "server.py"] in groups
    assert ["History.md", "client.py"] in groups
