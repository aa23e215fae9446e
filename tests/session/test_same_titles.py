"""Two proposed commits never carry one title: groups Segmint made that are titled alike are one
intent, and are merged before commits are proposed. Groups a person or agent shaped are theirs."""

from __future__ import annotations

from segmint_core.session.session import Session
from tests.support.repo import Repo

# httpx's README before 337eb70e ("Update README.md"): a line added above the first example and the
# three captions below it ended with a colon, which grouping alone cuts in two.
BEFORE = """# HTTPCore

## Usage

```python
import httpcore

http = httpcore.ConnectionPool()
response = await http.request('GET', 'http://example.com')
assert response.status_code == 200
assert response.body == b'Hello, world'
```

Top-level API...

```python
http = httpcore.ConnectionPool([ssl], [timeout], [limits])
response = await http.request(method, url, [headers], [body], [stream])
```

ConnectionPool as a context-manager...

```python
async with httpcore.ConnectionPool([ssl], [timeout], [limits]) as http:
    response = await http.request(method, url, [headers], [body], [stream])
```

Streaming...

```python
http = httpcore.ConnectionPool()
response = await http.request(method, url, stream=True)
async for part in response.stream():
    ...
```
"""
AFTER = (
    BEFORE.replace("## Usage\n\n", "## Usage\n\nMaking a request:\n\n")
    .replace("Top-level API...", "Top-level API:")
    .replace("context-manager...", "context-manager:")
    .replace("Streaming...", "Streaming responses:")
)


def readme_edited(repo: Repo) -> Session:
    repo.write("README.md", BEFORE)
    repo.commit("Add README.md")
    repo.write("README.md", AFTER)
    return Session.open(str(repo.path))


def test_groups_titled_alike_are_proposed_as_one_commit(repo: Repo) -> None:
    session = readme_edited(repo)
    assert len(session.regroup()) == 2, "grouping alone cuts the README in two"

    (plan,) = session.propose_commits()

    (group,) = session.groups
    assert plan.change_group_ids == [group.id] and set(plan.hunk_ids) == set(group.hunk_ids)
    assert len(plan.hunk_ids) == 2
    said = [a.text for a in session.state.activity if a.action == "merged"]
    assert len(said) == 1 and f"into {group.id}: their commits said “" in said[0], said
    session.apply_all()
    assert repo.git("status", "--porcelain") == ""
    assert repo.git("show", "HEAD:README.md") == AFTER


def test_groups_a_person_cut_keep_their_titles_apart(repo: Repo) -> None:
    session = readme_edited(repo)
    first, second = session.regroup()
    session.move_hunks(second.hunk_ids, to_group_id=second.id)  # settled where they are

    plans = session.propose_commits()

    assert len(plans) == 2 and plans[0].title == plans[1].title
    assert [g.id for g in session.groups] == [first.id, second.id]


def test_a_group_someone_named_is_not_merged(repo: Repo) -> None:
    session = readme_edited(repo)
    first, _ = session.regroup()
    session.update_group(first.id, "Say what the first example does")

    plans = session.propose_commits()

    assert len(plans) == 2 and plans[0].title == plans[1].title


def test_a_group_someone_moved_lines_into_is_not_merged(repo: Repo) -> None:
    session = readme_edited(repo)
    first, second = session.regroup()
    (hunk,) = second.hunk_ids
    session.move_lines(hunk, [1, 2], to_group_id=first.id)  # the first caption, beside the new line

    plans = session.propose_commits()

    assert len(plans) == 2 and plans[0].title == plans[1].title
