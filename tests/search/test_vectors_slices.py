"""``sync_vectors`` holds a bounded slice of the pending chunks at a time (all at once held
6.3 GB at 1M chunks), and slicing changes nothing it writes: each text through the model
once, every chunk sent once, the same composed vectors, neighbours across a slice's edge
included."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from memsearch_tui.engine.search import indexer
from memsearch_tui.engine.search.indexer import sync_chunks, sync_vectors
from memsearch_tui.engine.search.manifest import Manifest
from memsearch_tui.engine.search.settings import load_settings

TURNS = [
    "Chose Postgres for the orders service",
    "订单服务选择了 Postgres",
    "Benchmarked pgbouncer in transaction mode",
    "用户希望提交信息更短",
    "Renamed the billing queue to payments",
]


class HashEncoderFake:
    """Obviously a fake (the model is not what this test is about): a vector from the text's
    hash; records the texts of each call."""

    dim = 8

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def encode(self, texts):
        self.calls.append(list(texts))
        return np.array([np.random.default_rng(abs(hash(t)) % 2**32).random(self.dim) for t in texts], np.float32)


class VectorsFake:
    """A stand-in Milvus collection (Milvus is not what this test is about): records each insert."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def dim(self):
        return None

    def ensure(self, dim: int) -> None:
        pass

    def holds_none(self) -> bool:
        return True

    def insert(self, rows, fresh: bool = False) -> None:
        self.sent += [r["id"] for r in rows]

    def delete(self, ids) -> None:
        pass

    def flush(self) -> None:
        pass


def build(tmp_path: Path, name: str, monkeypatch) -> tuple[dict[str, bytes], HashEncoderFake, VectorsFake, int]:
    project = tmp_path / "proj"
    mem = project / ".memsearch" / "memory"
    if not mem.exists():
        mem.mkdir(parents=True)
        for d in range(1, 8):
            text = f"# 2024-06-{d:02d}\n\n## Session 09:00\n"
            for i, turn in enumerate(TURNS):
                text += f"\n### 09:{i:02d}\n<!-- session:s{d} turn:{i} transcript:/t.jsonl -->\n- {turn} ({d})\n"
            (mem / f"2024-06-{d:02d}.md").write_text(text, encoding="utf-8")
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / name))
    s = load_settings(tmp_path / "memory", project, {})
    m = Manifest(s.manifest_path)
    sync_chunks(s, m)
    held, read = [0], m.pending_vectors

    def counted(*args, **kwargs):  # the most pending rows the manifest hands out at once
        rows = read(*args, **kwargs)
        held[0] = max(held[0], len(rows))
        return rows

    monkeypatch.setattr(m, "pending_vectors", counted)
    enc, vec = HashEncoderFake(), VectorsFake()
    done, _ = sync_vectors(s, m, vec, lambda n: enc)  # type: ignore[arg-type]
    assert done == m.chunk_count() == 35
    stored = dict(m.db.execute("SELECT id, vec FROM chunks WHERE embedded=1"))
    m.close()
    return stored, enc, vec, held[0]


def test_sync_vectors_holds_a_slice_at_a_time_and_writes_what_one_pass_writes(tmp_path, data_dir, monkeypatch):
    whole, enc_whole, vec_whole, held_whole = build(tmp_path, "whole", monkeypatch)
    monkeypatch.setattr(indexer, "SLICE", 6, raising=False)
    sliced, enc, vec, held = build(tmp_path, "sliced", monkeypatch)
    assert held <= 6 and held_whole == 35  # 35 pending chunks, 6 at most at once
    assert max(len(c) for c in enc.calls) <= 6 * 3  # a slice's texts and its neighbours' at most
    texts = [t for c in enc.calls for t in c]
    assert sorted(texts) == sorted(t for c in enc_whole.calls for t in c) and len(set(texts)) == len(texts)
    assert sorted(vec.sent) == sorted(vec_whole.sent) and len(set(vec.sent)) == 35  # every chunk sent once
    assert sliced == whole  # the same composed vectors, neighbours across a slice's edge included
