"""Argument types shared by the tools: bounded, so huge input is refused early.

The bounds become ``maxItems`` / ``maxLength`` in each tool's input schema, and
the SDK refuses larger arguments with a tool error before any work is done.
"""

from typing import Annotated

from pydantic import Field

MAX_IDS = 10_000
MAX_TEXT = 10_000  # any other text argument: a path, a pattern, an intent

Id = Annotated[str, Field(min_length=1, max_length=200)]
Ids = Annotated[list[Id], Field(max_length=MAX_IDS)]

ChangeIds = Annotated[Ids | None, Field(description="change ids (change-1, ...); omit for all")]
GroupIds = Annotated[Ids | None, Field(description="group ids (group-1, ...); omit for all")]
CommitIds = Annotated[Ids | None, Field(description="commit plan ids (commit-1, ...); omit for all")]

Revision = Annotated[
    int | None,
    Field(description="changes_revision from get_session; refused if stale"),
]

Summary = Annotated[str, Field(min_length=1, max_length=2_000)]
Title = Annotated[str, Field(min_length=1, max_length=500)]
Description = Annotated[str, Field(max_length=50_000)]
