"""Quitting the app while the vector index is built ends within a batch, and loses nothing.

The Search pane's exit closed the warm searcher, which waited for the lock the build held
to its end: minutes on a big memory, for someone who pressed q. The build now stops at its
next batch (``mem.search.stop_building``), everything embedded so far committed, and the
next index run completes it to the index a clean build makes (same chunk ids, each once).

The build is real (files listed and chunked, the manifest and Milvus Lite written); the
encoder is a stand-in, a vector from each text's hash (the model is not what is tested),
held in its embedding step: its second batch is in flight when the app begins to close the
searcher, and every later batch waits as a long build's would.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from pathlib import Path

import numpy as np
import pytest

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.api.search import Search
from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.store.store import Store
from tests.helpers import make_app, run_flow, settle

EXIT_WAIT = 60.0  # seconds: far beyond one batch, far below the held build (HELD)
HELD = 60.0  # seconds each batch after the in-flight one waits: the rest of a long build

TURNS = {
    "en": [f"Tuned the cache eviction for service {n} and wrote the runbook step {n}" for n in range(90)],
    "zh": [f"第{n}天：调整了服务{n}的缓存淘汰策略，并写好了运维手册第{n}步" for n in range(90)],
}


class HeldEncoder:
    """A vector from each text's hash (8 dims). Batch 1 is embedded at once; batch 2 once the
    app closes the searcher (``releasing``: the batch in flight as the user quits); later
    batches wait for ``go`` (the rest of the build). ``held=False``: no wait at all."""

    dim = 8

    def __init__(self, held: bool = True) -> None:
        self.held, self.calls = held, 0
        self.started, self.releasing, self.go = threading.Event(), threading.Event(), threading.Event()

    def encode(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        if self.held and self.calls == 1:
            self.started.set()
        elif self.held and self.calls == 2:
            assert self.releasing.wait(HELD), "the app never closed the searcher"
        elif self.held:
            self.go.wait(HELD)
        return np.array([_vec(t) for t in texts], np.float32)


def _vec(text: str) -> np.ndarray:
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    return np.random.default_rng(seed).random(HeldEncoder.dim).astype(np.float32)


def _memory(tmp_path: Path, lang: str) -> tuple[Path, Path]:
    """A store and three journal days of 30 turns each (~90 texts: four batches)."""
    root, project = tmp_path / "memory", tmp_path / "proj"
    Store(root).init()
    (project / ".git").mkdir(parents=True)
    days = project / ".memsearch" / "memory"
    days.mkdir(parents=True)
    for d in range(3):
        text = f"# 2026-11-{d + 1:02d}\n\n## Session 09:00\n"
        for i, turn in enumerate(TURNS[lang][d * 30 : (d + 1) * 30]):
            text += f"\n### 09:{i:02d}\n<!-- session:s{d} turn:{i} transcript:/t.jsonl -->\n- {turn}\n"
        (days / f"2026-11-{d + 1:02d}.md").write_text(text, encoding="utf-8")
    return root, project


def _index(root: Path, project: Path) -> dict[str, np.ndarray]:
    """Index to the end with an unheld encoder; every row Milvus holds: id → vector."""
    with Memory(root, project) as mem:
        mem.vectors.index()
    with Searcher(root, project) as s:
        s.vectors.client.load_collection(s.s.collection)
        rows = s.vectors.client.query(
            s.s.collection, filter="", output_fields=["id", "vec"], limit=16384, consistency_level="Strong"
        )
        chunks = {r[0] for r in s.manifest.db.execute("SELECT id FROM chunks")}
    ids = [r["id"].rsplit("/", 1)[-1] for r in rows]  # the key is ``<owner>/<chunk id>``
    assert len(ids) == len(set(ids)), "a chunk stored twice"
    assert set(ids) == chunks, "Milvus and the manifest disagree"
    return {cid: np.asarray(r["vec"], np.float32) for cid, r in zip(ids, rows)}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_quitting_during_a_build_ends_at_once_and_the_next_index_completes_it(tmp_path, monkeypatch, lang):
    root, project = _memory(tmp_path, lang)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    enc = HeldEncoder()
    monkeypatch.setattr(Searcher, "_encoder_for", lambda self, n: enc)
    real_release = Search.release

    def release(self: Search) -> None:  # a spy: the app begins to close the searcher
        enc.releasing.set()
        real_release(self)

    monkeypatch.setattr(Search, "release", release)

    async def flow(pilot, app):
        await pilot.press("6")
        await settle(pilot, app)
        app.query_one("#pane-search").action_build_index()
        assert await asyncio.to_thread(enc.started.wait, EXIT_WAIT), "the build never began embedding"
        # the flow ends: the app exits, its build in its embedding step

    app = make_app((root, project))
    run = threading.Thread(target=run_flow, args=(app, flow), daemon=True)
    run.start()
    run.join(EXIT_WAIT)
    try:
        assert not run.is_alive(), "quitting waited for the whole vector build"
    finally:
        enc.go.set()  # on the old code: let the build end, and the app with it
        run.join(HELD)
    assert app.errors == []
    assert enc.calls in (1, 2), enc.calls  # stopped at the batch in flight (or just before it)

    enc.held = False
    resumed = _index(root, project)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "clean"))
    clean = _index(root, project)
    assert sorted(resumed) == sorted(clean) and len(clean) == 90
    for cid, vec in clean.items():  # each chunk composed from its and its neighbours' own vectors
        assert np.allclose(resumed[cid], vec, atol=1e-6), cid
