"""An on-disk cache for the untangling benchmark's expensive parts.

Tangling a case (checkout, capture, blame) costs tens of milliseconds and a
leave-one-repository-out run needs thousands of them, each time a signal
changes. Entries are pickles under ``--cache DIR`` (default
``$XDG_CACHE_HOME/segmint/bench``), named by a key that folds in the hash of
the source code that made them, so editing that code makes a new entry
instead of reusing a stale one. Only this benchmark reads what it wrote.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

CHECKOUT = Path(__file__).resolve().parents[2]  # the repository: segmint_core/ and segmint_bench/


def default_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "segmint" / "bench"


def source_hash(parts: tuple[str, ...], exclude: frozenset[str] = frozenset()) -> str:
    """A hash of the Python and data files under ``parts`` (paths relative to
    the checkout, files or folders), leaving out those named in ``exclude``."""
    digest = hashlib.sha256()
    for part in parts:
        root = CHECKOUT / part
        files = [root] if root.is_file() else sorted(root.rglob("*"))
        for path in files:
            rel = path.relative_to(CHECKOUT).as_posix()
            if path.is_file() and path.suffix in (".py", ".json", ".scm") and rel not in exclude:
                digest.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def packages_hash(names: tuple[str, ...]) -> str:
    """A hash of the installed versions of these distributions (``-`` for one not installed)."""
    digest = hashlib.sha256()
    for name in names:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"{name}={version}\0".encode())
    return digest.hexdigest()[:12]


class Cache:
    """Pickled values by (kind, key); ``Cache(None)`` keeps nothing."""

    def __init__(self, root: str | os.PathLike[str] | None) -> None:
        self.root = Path(root) if root is not None else None

    def get(self, kind: str, key: str) -> Any | None:
        if self.root is None:
            return None
        path = self.root / kind / f"{key}.pickle"
        try:
            with open(path, "rb") as f:
                return pickle.load(f)
        except FileNotFoundError:
            return None
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
            return None  # a damaged or outdated entry is made again

    def put(self, kind: str, key: str, value: Any) -> None:
        if self.root is None:
            return
        folder = self.root / kind
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        except OSError:
            return  # an unwritable cache only costs time
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temp, folder / f"{key}.pickle")
        except BaseException as exc:
            os.unlink(temp)
            if not isinstance(exc, OSError):
                raise
