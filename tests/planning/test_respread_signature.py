"""A signature spread over lines as it gains a parameter: only the new one is added, to the
class the hunk shows (git's hunk header names the class before it)."""

from __future__ import annotations

from tests.support.repo import Repo
from tests.support.titles import edited

BEFORE = """import typing


class JSONResponse:
    def render(self, content):
        return content


class RedirectResponse(Response):
    def __init__(
        self, url: typing.Union[str, URL], status_code: int = 307, headers: dict = None
    ) -> None:
        super().__init__(content=b"", status_code=status_code, headers=headers)
        self.headers["location"] = str(url)
"""
AFTER = BEFORE.replace(
    "        self, url: typing.Union[str, URL], status_code: int = 307, headers: dict = None\n",
    "        self,\n        url: typing.Union[str, URL],\n        status_code: int = 307,\n"
    "        headers: dict = None,\n        background: BackgroundTask = None,\n",
).replace("headers=headers)", "headers=headers, background=background)")


def test_the_parameter_a_respread_constructor_gains_is_named_with_its_class(repo: Repo) -> None:
    facts, title = edited(repo, {"app/responses.py": (BEFORE, AFTER)})
    assert facts.params == [("RedirectResponse", "background")]
    assert title.endswith("add background parameter to RedirectResponse")
