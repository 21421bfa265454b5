"""``memory://{+path}``: the store's INDEX.md files and entries as MCP resources.

The SDK already rejects ``..``, absolute paths and NUL bytes in template parameters; the
engine (``Memory.store_file``) checks again that the resolved path (symlinks followed)
stays inside the memory root and is an INDEX.md or an entry, never trash, versions or
state.
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

from memsearch_tui.engine.api import Memory, redact_text
from memsearch_tui.engine.api.errors import MemsearchError, NotFound, Refused


def register(server: MCPServer, memory: Memory) -> None:
    def load(path: str) -> str:
        try:
            return redact_text(memory.entries.store_file(path).text)
        except (NotFound, Refused) as exc:  # not a resource of this server: "resource not found"
            raise ResourceNotFoundError(memory.for_agent(exc.message)) from None
        except MemsearchError as exc:
            raise ResourceError(f"{exc.code}: {memory.for_agent(exc.message)}") from None

    @server.resource("memory://INDEX.md", name="index", mime_type="text/markdown")
    def root_index() -> str:
        """The store's root INDEX.md: one row per category."""
        return load("INDEX.md")

    @server.resource("memory://{+path}", name="memory-file", mime_type="text/markdown")
    def memory_file(path: str) -> str:
        """A file of the memory store: `<category>/INDEX.md` or an entry `<category>/<slug>.md`."""
        return load(path)
