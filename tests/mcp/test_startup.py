"""Start-up stays light: building the server and listing tools loads no torch/ML stack."""

from __future__ import annotations

import subprocess
import sys

from tests.mcp.conftest import Env

PROBE = """
import sys, anyio
from pathlib import Path
from mcp import Client
from memsearch_tui.mcp.server import build_server
server = build_server(Path(sys.argv[1]), Path(sys.argv[2]))
async def main():
    async with Client(server) as c:
        await c.list_tools()
        r = await c.call_tool("search", {"query": "Fly.io", "strategy": "grep"})
        assert not r.is_error
anyio.run(main)
heavy = [m for m in ("torch", "sentence_transformers", "pymilvus", "textual") if m in sys.modules]
print(",".join(heavy) or "none")
"""


def test_tools_list_and_a_grep_search_import_nothing_heavy(env: Env):
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(env.root), str(env.project)],
        env=env.environ(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "none"


def test_other_commands_never_import_the_sdk():
    code = "import sys; import memsearch_tui.cli.app as a; a.build_app(a.ALL_MODULES); print('mcp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr
