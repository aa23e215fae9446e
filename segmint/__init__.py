"""The ``segmint`` command: the entry point above both faces, the terminal UI and the MCP server."""
