"""A change that only adds, changes or removes Python type annotations is titled by them."""

from __future__ import annotations

from tests.support.repo import Repo
from tests.support.titles import edited, titled

TEST_BEFORE = """from contextvars import ContextVar

import pytest

from app.routing import Route


@pytest.mark.anyio
async def test_run_until_first_complete():
    async def task1():
        await run()

    assert done


def test_accessing_context(test_client_factory) -> None:
    ctxvar: ContextVar[bytes] = ContextVar("ctxvar")
    ctxvar.set(b"data")
"""

TEST_AFTER = """from contextvars import ContextVar
from typing import Callable

import pytest

from app.routing import Route
from app.testclient import TestClient

TestClientFactory = Callable[..., TestClient]


@pytest.mark.anyio
async def test_run_until_first_complete() -> None:
    async def task1() -> None:
        await run()

    assert done


def test_accessing_context(
    test_client_factory: TestClientFactory,
) -> None:
    ctxvar: ContextVar[bytes] = ContextVar("ctxvar")
    ctxvar.set(b"data")
"""

RESPONSES = """import typing


class JSONResponse(Response):
    media_type = "application/json"

    def __init__(
        self,
        content: typing.Any,
        status_code: int = 200,
        headers: typing.Optional[typing.Dict[str, str]] = None,
        media_type: typing.Optional[str] = None,
        background: typing.Optional[BackgroundTask] = None,
    ) -> None:
        super().__init__(content, status_code, headers, media_type, background)
"""

RENDER = """class Response:
    charset = "utf-8"

    def render(self, content: typing.Union[str, bytes, None]) -> bytes:
        if content is None:
            return b""
        return content.encode(self.charset)
"""


def test_hints_added_to_a_test_file_with_their_imports_and_an_alias_name_the_file(repo: Repo) -> None:
    facts, title = titled(repo, "tests/test_concurrency.py", TEST_BEFORE, TEST_AFTER)
    assert facts.annotations is not None and not facts.annotations.changed and not facts.annotations.removed
    assert {a.target for a in facts.annotations.added} == {"return", "test_client_factory", "TestClientFactory"}
    assert title.endswith("add type hints to test_concurrency.py")


def test_the_typing_module_imported_whole_for_type_checking_alone_is_part_of_the_hints(repo: Repo) -> None:
    """httpx's ``import typing`` and ``if typing.TYPE_CHECKING:`` for a string annotation were
    read as a change to the code (``update test for httpcore exception mapping``)."""
    before = "import httpx\n\n\ndef test_mapping(server) -> None:\n    assert server\n"
    after = (
        "import typing\n\nimport httpx\n\nif typing.TYPE_CHECKING:  # pragma: no cover\n"
        "    from conftest import TestServer\n\n\n"
        'def test_mapping(server: "TestServer") -> None:\n    assert server\n'
    )
    facts, title = titled(repo, "tests/test_exceptions.py", before, after)
    assert facts.annotations is not None and [a.target for a in facts.annotations.added] == ["server"]
    assert title.endswith("add a type annotation to server in test_exceptions.py")


def test_one_parameter_retyped_in_a_constructor_names_it_and_its_class(repo: Repo) -> None:
    after = RESPONSES.replace("headers: typing.Optional[typing.Dict", "headers: typing.Optional[typing.Mapping")
    facts, title = titled(repo, "app/responses.py", RESPONSES, after)
    assert facts.annotations is not None and len(facts.annotations.changed) == 1
    old, new = facts.annotations.changed[0]
    assert (old.target, old.text, new.text) == (
        "headers",
        "typing.Optional[typing.Dict[str, str]]",
        "typing.Optional[typing.Mapping[str, str]]",
    )
    assert title.endswith("change headers type annotation in JSONResponse")


def test_a_retyped_parameter_beside_a_type_ignore_is_still_only_types(repo: Repo) -> None:
    after = RENDER.replace("typing.Union[str, bytes, None]", "typing.Any").replace(
        "encode(self.charset)", "encode(self.charset)  # type: ignore"
    )
    _, title = titled(repo, "app/responses.py", RENDER, after)
    assert title.endswith("change content type annotation in render")
    _, title = titled(repo, "app/responses.py", RENDER, RENDER.replace("-> bytes:", "-> typing.Any:"))
    assert title.endswith("change the return type of render")
    router = "class Router:\n    def __init__(self, app):\n        self.app = app\n"
    _, title = titled(repo, "app/routing.py", router, router.replace("app):", "app) -> None:"))
    assert title.endswith("add a return type to Router.__init__")


def test_a_parameter_retyped_deep_in_a_long_signature_is_read_without_its_brackets(repo: Repo) -> None:
    params = "".join(f"        option_{n}: int = {n},\n" for n in range(12))
    before = f"class Router:\n    def route(\n        self,\n{params}    ) -> None:\n        pass\n"
    after = before.replace("option_6: int = 6,", "option_6: int | None = 6,")
    facts, title = titled(repo, "app/routing.py", before, after)
    assert facts.annotations is not None and [new.text for _, new in facts.annotations.changed] == ["int | None"]
    assert "change option_6 type annotation in " in title


def test_hints_removed_are_named_and_one_hint_added_names_its_target(repo: Repo) -> None:
    before = "def parse(text: str, strict: bool = False) -> list[str]:\n    return text.split()\n"
    _, title = titled(repo, "app/parse.py", before, "def parse(text, strict=False):\n    return text.split()\n")
    assert title.endswith("remove type hints from parse")
    endpoint = (
        "class WebSocketEndpoint:\n    encoding = None\n\n    def __init__(self, scope):\n        self.scope = scope\n"
    )
    after = endpoint.replace("encoding = None", "encoding: typing.Optional[str] = None")
    _, title = titled(repo, "app/endpoints.py", endpoint, after)
    assert title.endswith("add a type annotation to encoding in WebSocketEndpoint")


def test_annotations_beside_any_other_change_are_no_such_change(repo: Repo) -> None:
    after = RENDER.replace("typing.Union[str, bytes, None]", "typing.Any").replace('return b""', 'return b"-"')
    facts, _ = titled(repo, "app/responses.py", RENDER, after)
    assert facts.annotations is None
    # an import the code itself uses, not only an annotation
    before = "import os\n\n\ndef load(path):\n    return os.fspath(path)\n"
    after = "import os\nfrom pathlib import Path\n\n\ndef load(path: str):\n    return Path(path)\n"
    facts, _ = titled(repo, "app/load.py", before, after)
    assert facts.annotations is None
    # a new field declared bare in a class is no annotation of something that was there
    facts, _ = titled(repo, "app/models.py", "class Point:\n    x: int\n", "class Point:\n    x: int\n    y: int\n")
    assert facts.annotations is None


def test_text_that_only_looks_like_annotations_is_no_annotation(repo: Repo) -> None:
    # a docstring's numpydoc parameter, a dictionary's entries, a lambda's parameter
    doc = 'def f(x):\n    """Do it.\n\n    x : int\n        The x.\n    """\n    return x\n'
    facts, _ = titled(repo, "app/doc.py", doc, doc.replace("x : int", "x : str"))
    assert facts.annotations is None
    entries = "".join(f"    Key{n}: handler_{n},\n" for n in range(12))
    table = f"HANDLERS = {{\n{entries}}}\n"
    facts, _ = titled(repo, "app/table.py", table, table.replace("Key6: handler_6,", "Key6: other_handler,"))
    assert facts.annotations is None
    sort = "def order(xs):\n    return sorted(xs, key=lambda x: x.name)\n"
    facts, _ = titled(repo, "app/order.py", sort, sort.replace("x: x.name", "x: x.title"))
    assert facts.annotations is None


def test_annotations_over_several_files_and_only_a_type_ignore_are_told_apart(repo: Repo) -> None:
    one, two = "def a(x):\n    return x\n", "def b(y):\n    return y\n"
    files = {
        "app/one.py": (one, one.replace("a(x)", "a(x: int)")),
        "app/two.py": (two, two.replace("b(y)", "b(y: str)")),
    }
    facts, title = edited(repo, files)
    assert facts.annotations is not None and len(facts.annotations.added) == 2
    assert title.endswith("add type hints to one.py and two.py") and not title.startswith("feat")
    code = "def a(x):\n    return x.value\n"
    facts, _ = titled(repo, "app/three.py", code, code.replace("x.value", "x.value  # type: ignore"))
    assert facts.annotations is None and facts.pragmas is not None


GITHUB_TS = """export class GitHub {
  async getPullRequest(number: number): Promise<PullRequest> {
    const found = this.cache ? this.cache[number] : undefined;
    return found ?? (await this.fetch({number: number, full: true}));
  }
}
"""


def test_typescript_parameters_returns_and_members_are_read_too(repo: Repo) -> None:
    facts, title = titled(repo, "src/github.ts", GITHUB_TS, GITHUB_TS.replace("(number: number)", "(number: string)"))
    assert facts.annotations is not None and [(o.text, n.text) for o, n in facts.annotations.changed] == [
        ("number", "string")
    ]
    assert title.endswith("change number type annotation in getPullRequest")
    after = GITHUB_TS.replace("Promise<PullRequest> {", "Promise<PullRequest | undefined> {")
    _, title = titled(repo, "src/github.ts", GITHUB_TS, after)
    assert "change the return type" in title
    options = "interface Options {\n  name?: string;\n  size: number;\n}\n"
    facts, _ = titled(repo, "src/options.ts", options, options.replace("name?: string;", "name?: string | null;"))
    assert facts.annotations is not None and len(facts.annotations.changed) == 1


def test_typescript_object_keys_conditionals_and_values_are_no_annotations(repo: Repo) -> None:
    for old, new in (
        ("cache ? this.cache[number] : undefined", "cache ? this.cache[number] : null"),
        ("{number: number, full: true}", "{number: number, full: false}"),
        ("{number: number, full: true}", "{number: other, full: true}"),
    ):
        facts, _ = titled(repo, "src/github.ts", GITHUB_TS, GITHUB_TS.replace(old, new))
        assert facts.annotations is None, new
