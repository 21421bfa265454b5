"""Every MCP tool's input and output schema, pinned byte for byte (titles included: the SDK
derives a ``$defs`` title from a class name, and a client may key on it), so renaming an
engine class cannot change what a client sees (issue 32). To change a schema on purpose:
``python -m tests.mcp.test_schema_pins > tests/mcp/tool_schemas.json`` and say why in the
commit."""

from __future__ import annotations

import json
from pathlib import Path

import anyio

PINNED = Path(__file__).with_name("tool_schemas.json")


def schemas(root: Path, project: Path) -> dict[str, object]:
    from mcp import Client

    from memsearch_tui.mcp.server import build_server

    out: dict[str, object] = {}

    async def main() -> None:
        async with Client(build_server(root, project, writes="review")) as c:
            for t in sorted((await c.list_tools()).tools, key=lambda t: t.name):
                out[t.name] = {"input": t.input_schema, "output": t.output_schema}

    anyio.run(main)
    return out


def test_tool_schemas_are_as_pinned(env) -> None:
    got = schemas(env.root, env.project)
    want = json.loads(PINNED.read_text(encoding="utf-8"))
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name] == want[name], name


if __name__ == "__main__":
    import tempfile

    from memsearch_tui.engine.api import Memory

    with tempfile.TemporaryDirectory() as tmp:
        root, project = Path(tmp) / "memory", Path(tmp) / "proj"
        project.mkdir()
        with Memory(root, project) as m:
            m.store.init()
        print(json.dumps(schemas(root, project), indent=1, sort_keys=True, ensure_ascii=False))
