"""Argument types shared by the tools: bounded, so huge input is refused early.

The bounds become ``maxItems`` / ``maxLength`` in each tool's input schema, and
the SDK refuses larger arguments with a tool error before any work is done.
"""

from typing import Annotated

from pydantic import Field

MAX_IDS = 10_000
MAX_TEXT = 10_000   # any other text argument: a path, a pattern, an intent

Id = Annotated[str, Field(min_length=1, max_length=200)]
Ids = Annotated[list[Id], Field(max_length=MAX_IDS)]

ChangeIds = Annotated[Ids | None, Field(description="change ids from list_changes (change-1, ...); omitted means all")]
GroupIds = Annotated[Ids | None, Field(description="group ids (group-1, ...); omitted means all groups")]
CommitIds = Annotated[Ids | None, Field(description="commit plan ids (commit-1, ...); omitted means all plans")]

Revision = Annotated[
    int | None,
    Field(description="the changes_revision your ids were read at (get_session shows it); "
                      "if the changes were re-read since, the call is refused instead of acting on moved ids"),
]

Summary = Annotated[str, Field(min_length=1, max_length=2_000)]
Title = Annotated[str, Field(min_length=1, max_length=500)]
Description = Annotated[str, Field(max_length=50_000)]
