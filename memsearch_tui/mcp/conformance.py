"""The MCPServer with the protocol's error rules (spec 2025-11-25), not the SDK's defaults.

- an unknown tool or prompt is a JSON-RPC error ``-32602`` (the SDK answers a tool error,
  and for a prompt code 0 with a traceback on stderr);
- a resource that does not exist, or that is not a resource (``memory://.trash/…``), is
  ``-32002`` "resource not found" (the SDK answers ``-32603`` internal error);
- a line the SDK's JSON parser refuses but JSON allows (a lone surrogate escape) is
  parsed again and answered, not dropped (:mod:`.stdio_lines`);
- arguments a tool does not declare are refused (``additionalProperties: false`` in every
  input schema, checked on the call): an agent's typo must not be silently dropped. Like
  every other argument check this is a tool execution error (``isError``, SEP-1303), so
  the model can read it and correct the call; the message names the fields and the rule,
  never the values given (pydantic's own text quotes them, and one may be a secret).
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from mcp_types import Tool as MCPTool
from pydantic import ValidationError

from memsearch_tui.engine.api.text import plural

RESOURCE_NOT_FOUND = -32002


class ConformantServer(MCPServer):
    """An MCPServer whose refusals use the codes the spec names."""

    async def list_tools(self) -> list[MCPTool]:
        return [_closed(t) for t in await super().list_tools()]

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        tool = next((t for t in await super().list_tools() if t.name == name), None)
        if tool is None:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {name}", data={"tool": name[:100]})
        declared = set(tool.input_schema.get("properties", {}))
        unknown = sorted(set(arguments) - declared)
        if unknown:
            names = ", ".join(repr(k[:40]) for k in unknown[:5])
            what = plural(len(unknown), "unknown argument").split(" ", 1)[1]
            raise ToolError(f"invalid: {what} {names}; {name} takes {', '.join(sorted(declared))}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):  # pydantic's text quotes the values
                raise ToolError(f"invalid: {_fields(exc.__cause__)}") from exc.__cause__
            raise

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None, context: Any = None) -> Any:
        if name not in {p.name for p in await self.list_prompts()}:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown prompt: {name}", data={"prompt": name[:100]})
        return await super().get_prompt(name, arguments, context)

    async def run_stdio_async(self) -> None:
        """The SDK's stdio loop, with the lines its JSON parser drops parsed again
        (:mod:`~memsearch_tui.mcp.stdio_lines`): a lone surrogate gets an answer."""
        from mcp.server.stdio import stdio_server

        from memsearch_tui.mcp.stdio_lines import ReparsingStream

        async with stdio_server() as (read_stream, write_stream):
            options = self._lowlevel_server.create_initialization_options()
            await self._lowlevel_server.run(ReparsingStream(read_stream), write_stream, options)

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        try:
            return await super().read_resource(uri, context)
        except ResourceNotFoundError as exc:
            raise MCPError(code=RESOURCE_NOT_FOUND, message=str(exc), data={"uri": str(uri)[:1000]}) from None


def _fields(err: ValidationError) -> str:
    """Which arguments failed and why, never their values (an argument may hold a secret)."""
    parts = [f"{'.'.join(str(x) for x in e['loc']) or 'arguments'}: {e['msg']}" for e in err.errors()[:10]]
    return "; ".join(parts)


def _closed(tool: MCPTool) -> MCPTool:
    """``tool`` with ``additionalProperties: false`` on its input schema."""
    return tool.model_copy(update={"input_schema": {**tool.input_schema, "additionalProperties": False}})
