"""The process's query encoder is shared by threads: one encode runs at a time, and two
asked at once give what each gives alone.

A tiny build (≤ 64 texts) embeds with the query encoder while a partial meaning search asks
it for a query's vector from another thread; its calls keep per-call state (the BLAS thread
limit threadpoolctl sets for the whole process, a call count, the tokenizer), so they must
not overlap (``embeddings.OneAtATime``).
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from memsearch_tui.engine.search.embeddings import NumpyBertEncoder, query_encoder

pytestmark = pytest.mark.slow  # the bundled model, loaded (under a second, numpy only)

BUILD = [f"部署笔记 {i}: we deploy the alpha frontend every Friday" for i in range(40)]  # a tiny build's texts
ASKED = ["how do we roll back a deploy", "告警阈值是多少"]
OVERLAP_WAIT = 1.0  # seconds the first call waits inside for a second one: it comes at once when calls overlap


def test_two_encodes_at_once_run_one_at_a_time_and_match_single_threaded(monkeypatch) -> None:
    enc = query_encoder(None)
    want_build, want_asked = enc.encode(BUILD), enc.encode(ASKED)  # one thread, one call each

    inside, most = [0], [0]
    meet = threading.Barrier(2, timeout=OVERLAP_WAIT)
    count = threading.Lock()
    real = NumpyBertEncoder._encode

    def watched(self, texts, batch_size, *stop):  # ``stop``: a build's, passed on
        with count:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        try:
            meet.wait()  # both calls inside at once, when nothing keeps the second one out
        except threading.BrokenBarrierError:
            pass  # kept out: the first call carries on alone
        try:
            return real(self, texts, batch_size, *stop)
        finally:
            with count:
                inside[0] -= 1

    monkeypatch.setattr(NumpyBertEncoder, "_encode", watched)
    got: dict[str, np.ndarray] = {}
    start = threading.Barrier(2)

    def run(name: str, texts: list[str]) -> None:
        start.wait()
        got[name] = enc.encode(texts)

    threads = [threading.Thread(target=run, args=a) for a in (("build", BUILD), ("asked", ASKED))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert most[0] == 1, "two encodes ran inside the shared encoder at once"
    assert np.array_equal(got["build"], want_build) and np.array_equal(got["asked"], want_asked)
