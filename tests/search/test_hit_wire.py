"""The wire a search hit travels on, pinned (issue 32): the keys, in order, of ``search
--json`` on every path (Typer's, the fast path's literal and indexed searches, with and
without ``--explain``), of ``search --batch`` and of the MCP ``search`` tool's structured
result. Written before the hit became one engine record, so the refactor could not move
them. The TUI reads the same record (``tests/search/test_one_hit_record.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from tests.helpers import run_cli

RESULT = ["query", "strategy", "requested", "reason", "files", "took_ms", "hits", "notes", "explain"]
HIT = ["id", "path", "source", "kind", "title", "heading", "lines", "snippet", "score", "turn", "chunk_id", "explain"]
HIT_EXPLAIN = ["tier", "rank", "score", "keyword", "dense", "weights", "matched", "boost"]
QUERY_EXPLAIN = ["terms", "script", "model", "model_languages", "weights"]
REPO = Path(__file__).resolve().parents[2]


def _keys(data: dict[str, object], explain: bool) -> dict[str, object]:
    hits = data["hits"]
    assert isinstance(hits, list) and hits, data
    out: dict[str, object] = {"result": list(data), "hit": [list(h) for h in hits][0]}
    if explain:
        out["hit_explain"] = list(hits[0]["explain"])
        out["query_explain"] = list(data["explain"])  # type: ignore[arg-type]
    return out


def _want(explain: bool) -> dict[str, object]:
    want: dict[str, object] = {"result": RESULT, "hit": HIT}
    if explain:
        want |= {"hit_explain": HIT_EXPLAIN, "query_explain": QUERY_EXPLAIN}
    return want


@pytest.mark.parametrize("strategy", ["grep", "index"])
@pytest.mark.parametrize("explain", [False, True])
def test_search_json_keys_on_the_typer_path(memory, strategy, explain):
    root, project = memory
    args = ["--json", "search", "Fly.io", "--strategy", strategy, *(["--explain"] if explain else [])]
    r = run_cli("--memory-root", str(root), "--project", str(project), *args)
    assert r.code == 0
    env = r.json
    assert list(env) == ["ok", "data", "error"] or set(env) == {"ok", "data", "error"}
    assert _keys(env["data"], explain) == _want(explain)
    hit = env["data"]["hits"][0]
    assert isinstance(hit["lines"], list) and len(hit["lines"]) == 2
    assert (hit["explain"] is None) is (not explain)


@pytest.mark.parametrize("strategy", ["grep", "index"])
def test_search_json_keys_on_the_fast_path(memory, strategy):
    """``memsearch-tui --json search`` as a process: the fast path builds the JSON itself."""
    root, project = memory
    argv = [sys.executable, "-c", "import sys; from memsearch_tui.cli import main; main(sys.argv[1:])"]
    argv += ["--memory-root", str(root), "--project", str(project), "--json", "search", "Fly.io", "-s", strategy]
    out = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert _keys(json.loads(out.stdout)["data"], False) == _want(False)


def test_search_batch_rows_carry_the_same_keys(memory, tmp_path):
    root, project = memory
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"id": "a", "query": "Fly.io"}\n', encoding="utf-8")
    args = ["--json", "search", "--batch", str(queries), "--strategy", "index"]
    r = run_cli("--memory-root", str(root), "--project", str(project), *args)
    assert r.code == 0
    (row,) = [json.loads(x) for x in r.out.splitlines()]
    assert list(row) == ["id", "ok", "data", "error"]
    assert _keys(row["data"], False) == _want(False)


@pytest.mark.parametrize("explain", [False, True])
def test_mcp_search_tool_structured_result_keys(memory, explain):
    from mcp import Client

    from memsearch_tui.mcp.server import build_server

    root, project = memory
    got: dict[str, object] = {}

    async def main() -> None:
        async with Client(build_server(root, project, writes="review")) as c:
            r = await c.call_tool("search", {"query": "Fly.io", "strategy": "index", "explain": explain})
            assert not r.is_error, r.content
            got.update(r.structured_content or {})

    anyio.run(main)
    want = _want(explain)
    if explain:  # the MCP schema lists the optional keys the CLI leaves out when empty
        want["query_explain"] = [*QUERY_EXPLAIN, "window", "spelling"]
    assert _keys(got, explain) == want
