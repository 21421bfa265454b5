"""A stop (the app quitting) ends a bulk encoder's call within a layer, not at the batch's end.

The build asked its stop only between encode() calls, each a whole batch (up to 256 texts):
a quit at 10,000 journal days waited 8-15 s on a blank terminal. Now the bulk encoders ask
it inside the call (numpy and torch: before each token block and each layer; E5: before
each part) and raise :class:`BuildStopped`; the build keeps the batches that ended, and the
next index equals a clean one. Real builds (files, manifest, Milvus Lite) with the real
encoders; counted: the units of work (a layer's feed-forward, a layer norm, an E5 part)
begun after the stop, never times.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memsearch_tui.engine.search import Searcher, bulk_work
from memsearch_tui.engine.search.embeddings import NumpyBertEncoder, resolve_model_path
from memsearch_tui.engine.search.stopping import BuildStopped
from tests.held_build import index_all, journal_memory
from tests.search.conftest import TORCH_WORKER

pytestmark = [pytest.mark.slow, TORCH_WORKER]  # real models: seconds per test

WORKERS = 2
KEPT = 16 + 32  # the texts of the first two batches (FIRST_BATCH, then twice that): the third is stopped


class Trip:
    """Sets ``stop`` as the third encode() call begins its first unit of work, and counts the
    units begun after that (the work a quit waits for)."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.calls, self.after, self.armed = 0, 0, True
        self.lock = threading.Lock()

    def wrap_encode(self, encode: Callable[..., Any]) -> Callable[..., Any]:
        def counted(texts: list[str], **kw: Any) -> Any:  # ``stop=``, where the indexer passes it
            self.calls += 1
            return encode(texts, **kw)

        return counted

    def unit(self) -> None:
        with self.lock:
            if self.stop.is_set():
                self.after += 1
            elif self.armed and self.calls == 3:
                self.stop.set()  # the user quits while the third batch is in the model


def _numpy(monkeypatch: pytest.MonkeyPatch, trip: Trip) -> Any:
    real = NumpyBertEncoder._ffn

    def ffn(self: NumpyBertEncoder, x: Any, p: str) -> Any:
        trip.unit()
        return real(self, x, p)

    monkeypatch.setattr(NumpyBertEncoder, "_ffn", ffn)
    return NumpyBertEncoder(resolve_model_path(None), bulk=True)


def _torch(monkeypatch: pytest.MonkeyPatch, trip: Trip) -> Any:
    from memsearch_tui.engine.search.torch_bert import TorchBertEncoder

    real = TorchBertEncoder._norm

    def norm(self: TorchBertEncoder, x: Any, name: str) -> Any:
        trip.unit()
        return real(self, x, name)

    monkeypatch.setattr(TorchBertEncoder, "_norm", norm)
    return TorchBertEncoder(resolve_model_path(None))


def _e5(monkeypatch: pytest.MonkeyPatch, trip: Trip) -> Any:
    from memsearch_tui.engine.search.e5_encoder import E5Encoder, e5_dir

    enc = E5Encoder(e5_dir(), bulk=True)
    real = enc.model.encode

    def part(batch: list[str], query: bool) -> Any:
        trip.unit()
        return real(batch, query)

    monkeypatch.setattr(enc.model, "encode", part)
    return enc


# (the encoder, the units a thread may begin after the stop: the rest of its layer, or none)
ENCODERS = {"numpy": (_numpy, 1), "torch": (_torch, 2), "e5": (_e5, 1)}


@pytest.mark.parametrize("kind", list(ENCODERS))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stop_ends_a_bulk_encode_call_within_a_layer_and_the_next_index_equals_a_clean_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, lang: str
) -> None:
    root, project = journal_memory(tmp_path, lang)  # 90 turns: batches of 16, 32, then 42 texts
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(bulk_work, "cores", lambda: WORKERS)
    trip = Trip()
    make, per_thread = ENCODERS[kind]
    enc = make(monkeypatch, trip)
    monkeypatch.setattr(enc, "encode", trip.wrap_encode(enc.encode))
    monkeypatch.setattr(Searcher, "_encoder_for", lambda self, n: enc)

    with Searcher(root, project, stop=trip.stop) as s, pytest.raises(BuildStopped):
        s.index()
    assert trip.stop.is_set() and trip.calls == 3, trip.calls
    # each thread ends the unit it is in (and, torch, that layer's other norm), then stops
    assert trip.after <= WORKERS * per_thread, f"the quit waited for {trip.after} more units of the batch"
    with Searcher(root, project) as s:
        kept = int(s.manifest.db.execute("SELECT count(*) FROM textvecs").fetchone()[0])
        assert kept == KEPT, kept  # the batches that ended are kept; the stopped one left nothing

    trip.armed = False
    resumed = index_all(root, project)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "clean"))
    clean = index_all(root, project)
    assert sorted(resumed) == sorted(clean) and len(clean) == 90
    for cid, vec in clean.items():
        cos = float(np.dot(resumed[cid], vec) / (np.linalg.norm(resumed[cid]) * np.linalg.norm(vec)))
        assert cos >= 0.999, (cid, cos)


def test_an_encoder_stopped_mid_call_encodes_the_next_call_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of a stopped call stays behind (threads, BLAS or torch thread limits): the next
    call's rows equal an unstopped encoder's, in their order (EN and ZH texts)."""
    import torch

    from memsearch_tui.engine.search.torch_bert import TorchBertEncoder

    monkeypatch.setattr(bulk_work, "cores", lambda: WORKERS)
    texts = [f"Tuned the cache for service {n}" if n % 2 else f"第{n}天：调整了服务的缓存" for n in range(40)]
    model = resolve_model_path(None)
    for enc in (NumpyBertEncoder(model, bulk=True), TorchBertEncoder(model)):
        want = enc.encode(texts)
        threads = torch.get_num_threads()
        with pytest.raises(BuildStopped):
            enc.encode(texts, stop=_true_from(4))
        assert torch.get_num_threads() == threads
        assert np.allclose(enc.encode(texts), want, atol=1e-6)


def _true_from(n: int) -> Callable[[], bool]:
    """A stop that is false for its first ``n - 1`` questions, then true."""
    asked = [0]

    def stop() -> bool:
        asked[0] += 1
        return asked[0] >= n

    return stop
