"""How ``segmint mcp`` finds the MCP endpoint of a TUI running on the same repository.

Each TUI's embedded server writes two files of its own in the session folder
(``.git/segmint/``), both readable by the user only (mode 0600), named for its
process and port:

- ``mcp-endpoint-PID-PORT.json``: ``{"format": 1, "server": "segmint", "pid": ...,
  "url": "http://127.0.0.1:PORT/mcp", "host": "127.0.0.1", "port": PORT, "token_file":
  ".../mcp-token-PID-PORT", "root": "/path/to/repo", "started": "...Z", "version": "..."}``
- ``mcp-token-PID-PORT``: the bearer token the endpoint requires.

and removes just those two on the way out, so two TUIs on one repository are
both found, and the one that quits first leaves the other's entry alone.
``segmint mcp`` joins the most recently published endpoint that counts.

An endpoint counts only if its process is alive, its token file is a regular
file of this user's that nobody else can read, and the server answers
``GET /segmint`` with the token and names this repository. Anything less is
stale (the TUI crashed, the pid was reused) and ignored: with none left,
``segmint mcp`` serves headless.
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

ENDPOINT_PREFIX = "mcp-endpoint-"
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


def endpoint_path(folder: Path, pid: int, port: int) -> Path:
    return folder / f"{ENDPOINT_PREFIX}{pid}-{port}.json"


def token_path(folder: Path, pid: int, port: int) -> Path:
    return folder / f"mcp-token-{pid}-{port}"


def publish(folder: Path, endpoint: Endpoint, token: str) -> Path:
    """Write the token file, then the endpoint file (so a reader never finds one without the other);
    returns the endpoint file."""
    folder.mkdir(parents=True, exist_ok=True)
    _write_private(Path(endpoint.token_file), token + "\n")
    path = endpoint_path(folder, endpoint.pid, endpoint.port)
    _write_private(path, json.dumps(asdict(endpoint), indent=1) + "\n")
    return path


def withdraw(folder: Path, endpoint: Endpoint) -> None:
    """Remove this endpoint's own two files; other TUIs' entries stay."""
    _unlink(endpoint_path(folder, endpoint.pid, endpoint.port))
    _unlink(Path(endpoint.token_file))


def read_endpoints(folder: Path) -> list[Endpoint]:
    """Every well-formed endpoint file in ``folder``, the most recently written first."""
    found = []
    for path in folder.glob(f"{ENDPOINT_PREFIX}*.json"):
        try:
            written = path.stat().st_mtime_ns
            endpoint = Endpoint(**json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            continue
        if endpoint.format == FORMAT and endpoint.server == "segmint" and endpoint.host == "127.0.0.1":
            found.append((written, endpoint))
    return [endpoint for _written, endpoint in sorted(found, key=lambda pair: pair[0], reverse=True)]


def find_endpoint(repo: str | None = None) -> Endpoint | None:
    """The live endpoint of a TUI on the repository containing ``repo`` (default: the current directory);
    of several, the one published last."""
    try:
        git = Git.discover(repo)
        folder = session_folder(git)
    except SegmintError:
        return None
    return next((e for e in read_endpoints(folder) if _counts(e, git.root)), None)


def _counts(endpoint: Endpoint, root: str) -> bool:
    if not _alive(endpoint.pid) or not _private_file(Path(endpoint.token_file)):
        return False
    if os.path.realpath(endpoint.root) != os.path.realpath(root):
        return False
    return _answers(endpoint)


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
        response = httpx2.get(
            endpoint.identity_url, headers={"Authorization": f"Bearer {token}"}, timeout=CHECK_TIMEOUT
        )
        identity = response.json() if response.status_code == 200 else {}
    except Exception:  # refused, timed out, not JSON: not a live Segmint endpoint
        return False
    return (
        isinstance(identity, dict)
        and identity.get("server") == "segmint"
        and os.path.realpath(str(identity.get("root"))) == os.path.realpath(endpoint.root)
    )


def _write_private(path: Path, text: str) -> None:
    write_atomic(path, text.encode("utf-8"))  # created 0600: the token stays the user's


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
