"""Coding agents' hooks: what an agent's hook event means for the intent record, and the settings that call us.

- ``events``    one hook event (Claude Code's or Gemini CLI's JSON) read into a ``HookEvent``
- ``recording`` a ``HookEvent`` applied to the repository's provenance record
- ``settings``  Segmint's entries merged into (and taken out of) an agent's settings file

The hook runs once per agent event, so this package imports only the standard
library and git plumbing: never Textual, numpy or the MCP SDK.
"""
