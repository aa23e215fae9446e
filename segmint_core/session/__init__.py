"""The shared session: one per repository, the state both the TUI and the MCP server edit."""

__all__ = ["Session"]


def __getattr__(name: str):
    # Loaded on first use, so that importing a leaf such as ``session.models``
    # (the pull-request draft does) does not load the whole session first.
    if name == "Session":
        from segmint_core.session.session import Session

        return Session
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
