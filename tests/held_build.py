"""A real vector build held in its embedding step (tests of quitting during a build).

The build is real (files listed and chunked, the manifest and Milvus Lite written); the
encoder is a stand-in, a vector from each text's hash (the model is not what is tested).
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

import numpy as np

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.store.store import Store

EXIT_WAIT = 60.0  # seconds: far beyond one batch, far below one held batch (HELD), let alone the rest
HELD = 180.0  # seconds each batch after the in-flight one waits: the rest of a long build

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
        return np.array([text_vector(t) for t in texts], np.float32)


def text_vector(text: str) -> np.ndarray:
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    return np.random.default_rng(seed).random(HeldEncoder.dim).astype(np.float32)


def journal_memory(tmp_path: Path, lang: str) -> tuple[Path, Path]:
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


def index_all(root: Path, project: Path) -> dict[str, np.ndarray]:
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


def hold_builds(monkeypatch, enc: HeldEncoder) -> None:
    """Every build embeds with ``enc``; ``enc.releasing`` is set as a face begins to close
    its warm searcher (``Search.release``, spied on: its behaviour is kept)."""
    from memsearch_tui.engine.api.search import Search

    monkeypatch.setattr(Searcher, "_encoder_for", lambda self, n: enc)
    real_release = Search.release

    def release(self: Search) -> None:
        enc.releasing.set()
        real_release(self)

    monkeypatch.setattr(Search, "release", release)


def assert_completed_as_clean(tmp_path: Path, root: Path, project: Path, monkeypatch, enc: HeldEncoder) -> None:
    """The next index run (unheld) leaves what a clean build in a fresh data dir makes:
    the same chunk ids, each once, with the same vectors (neighbours mixed in)."""
    enc.held = False
    resumed = index_all(root, project)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "clean"))
    clean = index_all(root, project)
    assert sorted(resumed) == sorted(clean) and len(clean) == 90
    for cid, vec in clean.items():
        assert np.allclose(resumed[cid], vec, atol=1e-6), cid


def quit_while_embedding(root: Path, project: Path, enc: HeldEncoder) -> Any:
    """The app on the Search pane starts a build (ctrl+o's action) and quits as the build's
    first batch is in ``enc``; asserts the quit ended within :data:`EXIT_WAIT` (``enc.go``
    then lets an old code's build end) and that the app raised nothing. Returns the app."""
    import asyncio

    from tests.helpers import make_app, run_flow, settle

    async def flow(pilot: Any, app: Any) -> None:
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
    return app
