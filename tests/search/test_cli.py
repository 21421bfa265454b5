"""``search`` and ``vectors`` through the real CLI: envelopes, exit codes, batch, light imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run_cli


@pytest.fixture
def cli(memory):
    root, project = memory

    def call(*args: str, stdin: str | None = None):
        done = run_cli("--memory-root", str(root), "--project", str(project), *args, stdin=stdin)
        return done.code, done.out, done.err

    return call


def test_search_json_envelope_names_strategy_and_reason(cli):
    rc, out, _ = cli("--json", "search", "gruvbox", "--strategy", "hybrid", "-k", "2")
    assert rc == 0
    env = json.loads(out)
    assert env["ok"] is True and env["error"] is None
    data = env["data"]
    assert data["strategy"] == "hybrid" and data["reason"] == "--strategy hybrid"
    hit = data["hits"][0]
    assert hit["id"] == "tools/editor" and len(hit["lines"]) == 2 and hit["title"] == "Editor settings"
    assert set(hit) >= {"id", "path", "heading", "lines", "score", "snippet", "source"}


def test_search_human_output_and_auto(cli):
    rc, out, _ = cli("search", "深色")
    assert rc == 0
    assert "grep" in out.splitlines()[0] and "people/用户偏好" in out and "深色主题" in out


def test_batch_reads_json_lines_and_answers_one_line_each(cli, tmp_path):
    lines = '{"id": "a", "query": "gruvbox"}\nnot json\n\n{"id": "b", "query": "Postgres", "source": "journal"}\n'
    rc, out, _ = cli("search", "--batch", "-", "--strategy", "hybrid", "-k", "1", stdin=lines)
    assert rc == 0
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r["id"] for r in rows] == ["a", 2, "b"]
    assert rows[0]["data"]["hits"][0]["id"] == "tools/editor"
    assert rows[1]["ok"] is False and rows[1]["error"]["code"] == "invalid"
    assert rows[2]["data"]["hits"][0]["source"] == "journal"
    f = tmp_path / "q.jsonl"
    f.write_text('{"id": 1, "query": "Fly.io"}\n')
    rc, out, _ = cli("search", "--batch", str(f), "-s", "index")
    assert rc == 0 and json.loads(out)["data"]["hits"][0]["id"] == "projects/alpha"
    rc, out, _ = cli("--json", "search", "--batch", str(tmp_path / "missing.jsonl"))
    assert rc == 1 and json.loads(out)["error"]["code"] == "not_found"


def test_errors_exit_codes(cli):
    rc, out, _ = cli("--json", "search", "x", "--strategy", "magic")
    assert rc == 2 and json.loads(out)["error"]["code"] == "usage"  # a bad option value, as -k 0
    rc, out, _ = cli("--json", "search")
    assert rc == 2 and json.loads(out)["ok"] is False
    rc, _, err = cli("search", "x", "-k", "0")
    assert rc == 2
    rc, out, _ = cli("--json", "vectors", "reset")
    assert rc == 1 and "--yes" in json.loads(out)["error"]["message"]


def test_vectors_index_status_reset(cli):
    rc, out, _ = cli("--json", "vectors", "index")
    assert rc == 0 and json.loads(out)["data"]["files"] == 6
    rc, out, _ = cli("vectors", "index")
    assert rc == 0 and "0 changed" in out and "0 embedded" in out
    rc, out, _ = cli("--json", "vectors", "status")
    st = json.loads(out)["data"]
    assert st["backend"] == "milvus-lite" and st["dims"] == 384 and st["vectors"] == st["chunks"] > 0
    rc, out, _ = cli("vectors", "status")
    assert "milvus-lite" in out and "orphan" in out
    assert "all-MiniLM-L6-v2 (bundled; auto: " in out  # the unset model, and why (issue 36)
    kept = Path(st["state_dir"]) / "model_choice.json"  # the share kept with the index state
    kept.write_text('{"cjk_share": 0.0, "sampled": 5000}\n', encoding="utf-8")
    assert (
        json.loads(cli("--json", "vectors", "status")[1])["data"]["model"]
        == "all-MiniLM-L6-v2 (bundled; auto: 0 % CJK)"
    )
    rc, out, _ = cli("--json", "vectors", "reset", "--yes")
    assert rc == 0 and json.loads(out)["data"]["dropped"] is True
    assert not kept.exists()  # forgotten: the next run measures the memory again
    rc, out, _ = cli("--json", "vectors", "index", "--force")
    assert rc == 0 and json.loads(out)["data"]["embedded"] > 0


def test_keyword_search_imports_neither_torch_nor_pymilvus(memory):
    root, project = memory
    code = (
        "import sys, contextlib, io\n"
        "from memsearch_tui.cli.app import run\n"
        "for s in ('grep', 'index'):\n"
        f"    with contextlib.redirect_stdout(io.StringIO()): assert run(['--memory-root', {str(root)!r}, '--project', {str(project)!r}, 'search', 'gruvbox', '-s', s]) == 0\n"
        "print([m for m in ('torch', 'pymilvus', 'sentence_transformers', 'milvus_lite') if m in sys.modules])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=os.environ.copy(), check=True
    )
    assert out.stdout.strip() == "[]"
