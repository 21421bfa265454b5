"""The first meaning search after a stopped build says it is embedding, and how far.

A build stopped mid-way (the app quit during ``v`` or a first meaning search) leaves most
texts to embed; the next first meaning search embeds them all before it answers (a memory
too big for the build at open does the same). For all that time the Search pane said
"loading the embedding model (once per session)…" with a bar at ``--%`` (trial s19 #2:
5 minutes). Now it says "embedding N of M texts", the engine's own count, as ``v`` does.

The build is real (files, manifest, Milvus Lite); the encoder is a stand-in held in its
second batch until the test has read the pane, so the count on screen is known.
"""

from __future__ import annotations

import re
import threading

import pytest

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.stopping import BuildStopped
from tests.held_build import EXIT_WAIT, HELD, HeldEncoder, journal_memory
from tests.helpers import make_app, run_flow, settle


class _StopAfterFirst(HeldEncoder):
    """Unheld; sets ``stop`` after its first batch (the user quitting mid-build)."""

    def __init__(self, stop: threading.Event) -> None:
        super().__init__(held=False)
        self.stop = stop

    def encode(self, texts):  # type: ignore[no-untyped-def]
        self.stop.set()
        return super().encode(texts)


def _stopped_build(root, project, monkeypatch) -> int:
    """A build stopped after its first batch; the texts it left to embed."""
    stop = threading.Event()
    enc = _StopAfterFirst(stop)
    with monkeypatch.context() as m:
        m.setattr(Searcher, "_encoder_for", lambda self, n: enc)
        with Searcher(root, project, stop=stop) as s, pytest.raises(BuildStopped):
            s.index()
    with Searcher(root, project) as s:
        s.refresh_chunks()
        left = s.manifest.count_texts_to_embed()
    assert 0 < left < 90, left
    return left


@pytest.mark.parametrize(("lang", "query"), [("en", "cache eviction runbook"), ("zh", "缓存淘汰策略")])
def test_the_first_meaning_search_after_a_stopped_build_counts_what_it_embeds(tmp_path, monkeypatch, lang, query):
    root, project = journal_memory(tmp_path, lang)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    left = _stopped_build(root, project, monkeypatch)
    enc = HeldEncoder()
    enc.releasing.set()  # batches 1 and 2 at once; the third waits for ``go``: the pane is read meanwhile
    monkeypatch.setattr(Searcher, "_encoder_for", lambda self, n: enc)
    monkeypatch.setattr(Searcher, "query_encoder", lambda self: HeldEncoder(held=False))
    seen: list[str] = []

    async def flow(pilot, app):
        await pilot.press("6")
        await settle(pilot, app)
        pane = app.query_one("#pane-search")
        pane.run_query(query, "hybrid")  # Enter, by meaning (auto on 3 files would scan them)
        for _ in range(200):  # up to 20 s for the pane's 0.5 s check to read the count
            await pilot.pause(0.1)
            label = str(app.query_one("WorkProgress Label").render())
            if re.search(r"embedding \d", label):
                seen.append(label)
                break
        else:
            seen.append(f"never counted; last said: {label}")
        enc.go.set()
        for _ in range(300):
            await pilot.pause(0.1)
            if "hits" in str(app.query_one("#search-status").render()):
                break

    app = make_app((root, project))
    run = threading.Thread(target=run_flow, args=(app, flow), daemon=True)
    run.start()
    run.join(EXIT_WAIT)
    enc.go.set()
    run.join(HELD)
    assert app.errors == []
    got = re.search(r"embedding ([\d,]+) of ([\d,]+) texts", seen[0])
    assert got is not None, seen[0]
    assert int(got[2].replace(",", "")) == left, seen[0]  # the texts left, not texts plus vectors
    assert 0 < int(got[1].replace(",", "")) < left, seen[0]  # held in its third batch
    assert "loading the embedding model" not in seen[0]
