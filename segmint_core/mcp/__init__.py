"""Segmint's MCP server: the shared session's tools, resources and prompt.

One server, two faces: ``segmint mcp`` serves it over stdio (``stdio``,
``headless``), and the TUI embeds it over streamable HTTP on 127.0.0.1
(``embedded``); a ``segmint mcp`` started while a TUI runs for the same
repository relays to the TUI's server (``discovery``, ``proxy``), so an agent
always sees what the person sees.

This package imports nothing at start-up: ``segmint send`` and the CLI stay
fast. Build a server with ``segmint_core.mcp.server.build_server(session)``.
"""
