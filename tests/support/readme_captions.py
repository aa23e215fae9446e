"""A README edited in two places that grouping alone cuts in two and titles alike (httpx's
``Update README.md``, 337eb70e)."""

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
