"""Issue 36 item 6: the first meaning search in a fresh project — what it pays between Enter
and the hits. It embeds every pending chunk first; Milvus opens beside that work (not
before it), and a small build needs no torch."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from memsearch_tui.engine.search import Searcher, milvus_backend
from memsearch_tui.engine.search.indexer import SMALL_BATCH, SMALL_BUILD


def days(project: Path, n_days: int, turns: int) -> None:
    """``n_days`` journal days of ``turns`` turns each, English and Chinese."""
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True, exist_ok=True)
    for d in range(n_days):
        lines = [f"# 2026-11-{d + 1:02d}\n\n## Session 09:00\n"]
        for t in range(turns):
            text = (
                f"Reviewed the rollout plan {d}.{t} for the payments service"
                if t % 2
                else f"讨论了第 {d}.{t} 次发布的回滚方案"
            )
            lines.append(f"\n### 09:{t:02d}\n<!-- session:s{d} turn:{t} transcript:/t.jsonl -->\n- {text}\n")
        (mem / f"2026-11-{d + 1:02d}.md").write_text("".join(lines), encoding="utf-8")


@pytest.mark.slow  # the model and Milvus Lite
def test_first_meaning_search_opens_milvus_beside_the_embedding(tmp_path, data_dir, monkeypatch):
    project = tmp_path / "proj"
    days(project, 4, 20)  # 80 turns: more than the query encoder's small batch
    opened_in: list[str] = []
    real_init = milvus_backend.MilvusVectors.__init__

    def init(self, *args, **kwargs):  # records where Milvus opens; the real store still opens
        opened_in.append(threading.current_thread().name)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(milvus_backend.MilvusVectors, "__init__", init)
    with Searcher(tmp_path / "memory", project) as s:
        res = s.search("what was decided about the payments rollout", strategy="hybrid", k=3)
        again = s.search("回滚方案", strategy="hybrid", k=3)
        assert s.vectors.count() == s.manifest.db.execute("SELECT count(*) FROM chunks").fetchone()[0] > SMALL_BATCH
    assert res.strategy == "hybrid" and res.hits and "payments" in res.hits[0].snippet
    assert again.hits and "回滚" in again.hits[0].snippet
    assert opened_in == ["open-vectors"]  # once, in its own thread, while the chunks were embedded


@pytest.mark.slow  # a model load in a child process
def test_a_small_first_build_imports_no_torch_even_where_bfloat16_is_native(tmp_path, data_dir):
    """``index_precision = "auto"`` on a CPU with native bfloat16 (forced) takes torch for
    bulk work; a first meaning search that embeds fewer than ``SMALL_BUILD`` chunks does not
    pay for its import."""
    project = tmp_path / "proj"
    days(project, 20, 6)  # ~20 journal days: 120 turns
    code = (
        "import json, sys\nfrom pathlib import Path\nfrom memsearch_tui.engine.search import Searcher\n"
        f"with Searcher(Path({str(tmp_path / 'memory')!r}), Path({str(project)!r})) as s:\n"
        "    r = s.search('payments rollout plan', strategy='hybrid', k=3)\n"
        "    n = s.vectors.count()\n"
        "print(json.dumps([n, r.strategy, 'torch' in sys.modules]))\n"
    )
    env = {**os.environ, "MEMSEARCH_TUI_NATIVE_BF16": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    n, strategy, torch_loaded = json.loads(out.stdout.splitlines()[-1])
    assert SMALL_BATCH < n <= SMALL_BUILD and strategy == "hybrid"
    assert torch_loaded is False
