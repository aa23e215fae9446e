"""How ``segmint mcp`` finds the MCP endpoint of a TUI running on the same repository.

The TUI's embedded server writes two files in the session folder
(``.git/segmint/``), both readable by the user only (mode 0600):

- ``mcp-endpoint.json``: ``{"format": 1, "server": "segmint", "pid": ..., "url":
  "http://127.0.0.1:PORT/mcp", "host": "127.0.0.1", "port": PORT, "token_file":
  ".../mcp-token-PID", "root": "/path/to/repo", "started": "...Z", "version": "..."}``
- ``mcp-token-PID``: the bearer token the endpoint requires.

An endpoint counts only if its process is alive, its token file is a regular
file of this user's that nobody else can read, and the server answers
``GET /segmint`` with the token and names this repository. Anything less is
stale (the TUI crashed, the pid was reused) and ignored: ``segmint mcp``
then serves headless.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import asdict, dataclass
from pathlib import Path

from segmint_core.atomic import write_atomic
from segmint_core.errors import SegmintError
from segmint_core.git import Git
from segmint_core.proc import pid_alive

ENDPOINT_FILE = "mcp-endpoint.json"
IDENTITY_PATH = "/segmint"
FORMAT = 1
CHECK_TIMEOUT = 2.0


@dataclass(frozen=True)
class Endpoint:
    pid: int
    url: str
    host: str
    port: int
    token_file: str
    root: str
    started: str
    version: str
    server: str = "segmint"
    format: int = FORMAT

    def read_token(self) -> str:
        return Path(self.token_file).read_text(encoding="utf-8").strip()

    @property
    def identity_url(self) -> str:
        return f"http://{self.host}:{self.port}{IDENTITY_PATH}"


def session_folder(git: Git) -> Path:
    return Path(git.git_dir) / "segmint"


def token_path(folder: Path, pid: int) -> Path:
    return folder / f"mcp-token-{pid}"


def publish(folder: Path, endpoint: Endpoint, token: str) -> None:
    """Write the token file, then the endpoint file (so a reader never finds one without the other)."""
    folder.mkdir(parents=True, exist_ok=True)
    _write_private(Path(endpoint.token_file), token + "\n")
    _write_private(folder / ENDPOINT_FILE, json.dumps(asdict(endpoint), indent=1) + "\n")


def withdraw(folder: Path, endpoint: Endpoint) -> None:
    """Remove this endpoint's files; an endpoint file another TUI has written since stays."""
    current = read_endpoint(folder)
    if current is not None and current.pid == endpoint.pid and current.url == endpoint.url:
        _unlink(folder / ENDPOINT_FILE)
    _unlink(Path(endpoint.token_file))


def read_endpoint(folder: Path) -> Endpoint | None:
    try:
        data = json.loads((folder / ENDPOINT_FILE).read_text(encoding="utf-8"))
        endpoint = Endpoint(**data)
    except (OSError, ValueError, TypeError):
        return None
    if endpoint.format != FORMAT or endpoint.server != "segmint" or endpoint.host != "127.0.0.1":
        return None
    return endpoint


def find_endpoint(repo: str | None = None) -> Endpoint | None:
    """The live endpoint of a TUI on the repository containing ``repo`` (default: the current directory)."""
    try:
        git = Git.discover(repo)
        folder = session_folder(git)
    except SegmintError:
        return None
    endpoint = read_endpoint(folder)
    if endpoint is None or not _alive(endpoint.pid) or not _private_file(Path(endpoint.token_file)):
        return None
    if os.path.realpath(endpoint.root) != os.path.realpath(git.root):
        return None
    return endpoint if _answers(endpoint) else None


def _alive(pid: int) -> bool:
    # Another user's process passes here; the token file and the identity check stop it.
    return isinstance(pid, int) and pid_alive(pid)


def _private_file(path: Path) -> bool:
    try:
        st = path.lstat()
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def _answers(endpoint: Endpoint) -> bool:
    """Whether the endpoint is a Segmint server for this repository that accepts the token."""
    import httpx2  # only when there is an endpoint to check: keeps `segmint mcp` start-up lean

    try:
        token = endpoint.read_token()
        response = httpx2.get(endpoint.identity_url, headers={"Authorization": f"Bearer {token}"},
                              timeout=CHECK_TIMEOUT)
        identity = response.json() if response.status_code == 200 else {}
    except Exception:  # refused, timed out, not JSON: not a live Segmint endpoint
        return False
    return (isinstance(identity, dict) and identity.get("server") == "segmint"
            and os.path.realpath(str(identity.get("root"))) == os.path.realpath(endpoint.root))


def _write_private(path: Path, text: str) -> None:
    write_atomic(path, text.encode("utf-8"))  # created 0600: the token stays the user's


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
