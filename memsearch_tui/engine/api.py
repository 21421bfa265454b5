"""The one typed engine API that the CLI, the TUI and the MCP server call."""
