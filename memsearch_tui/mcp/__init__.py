"""MCP face: an MCP server (official ``mcp`` SDK) over the engine API, for agents.

Imported only by the ``memsearch-tui mcp`` command: the SDK costs ~0.7 s to import, which
no other command should pay. ``build_server`` makes the server; ``serve`` runs it.
"""
