"""Segmint's terminal UI: a Textual app over the shared session (``segmint`` with no sub-command)."""
