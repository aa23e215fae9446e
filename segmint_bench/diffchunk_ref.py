"""The reference implementation for diff parsing and chunking: diffchunk 0.2.0.

diffchunk installs its modules as a top-level package named ``src`` and pins
``mcp<2``, so it is installed beside Segmint with ``pip install --no-deps
diffchunk==0.2.0 chardet`` and imported from there; its tools do not need mcp.
"""

from __future__ import annotations

from importlib import metadata
from typing import Any

from segmint_core.errors import SegmintError

INSTALL_HINT = "pip install --no-deps diffchunk==0.2.0 chardet"


def diffchunk_tools() -> Any:
    """A fresh ``DiffChunkTools`` from diffchunk, or a clear error if missing."""
    try:
        version = metadata.version("diffchunk")
    except metadata.PackageNotFoundError:
        raise SegmintError(f"diffchunk is not installed; for the comparison run: {INSTALL_HINT}") from None
    try:
        from src.tools import DiffChunkTools  # diffchunk's own package name
    except ImportError as exc:
        raise SegmintError(
            f"diffchunk {version} is installed but cannot be imported ({exc}); try: {INSTALL_HINT}"
        ) from None
    return DiffChunkTools()


def diffchunk_version() -> str:
    return metadata.version("diffchunk")
