from __future__ import annotations

import pytest
from mcp.server import MCPServer

from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from tests.mcp.support import make_changes
from tests.support.repo import Repo


@pytest.fixture
def dirty(repo: Repo) -> Repo:
    return make_changes(repo)


@pytest.fixture
def session(dirty: Repo) -> Session:
    return Session.open(str(dirty.path))


@pytest.fixture
def server(session: Session) -> MCPServer:
    return build_server(session)
