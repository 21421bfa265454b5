"""The torch-free query encoder matches sentence-transformers on the bundled model."""

from __future__ import annotations

import numpy as np
import pytest

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.search.embeddings import (
    NumpyBertEncoder,
    SentenceTransformerEncoder,
    model_dim,
    resolve_model_path,
)
from tests.search.conftest import TORCH_WORKER

pytestmark = [pytest.mark.slow, TORCH_WORKER]  # real model / Milvus: seconds per test

TEXTS = [
    "When did Caroline go to the LGBTQ support group?",
    "用户喜欢深色主题和简洁的界面",
    "x",
    "a long note " * 300,  # truncated at the model's 256 tokens by both
    "Émile's café — naïve façade, ½ price!",
]


@pytest.fixture(scope="module")
def model_dir():
    return resolve_model_path(None)


@pytest.fixture(scope="module")
def reference(model_dir):
    """sentence-transformers in float32, loaded once for the module (each load imports and
    sets up the library: seconds of CPU), and its vectors of ``TEXTS``."""
    st = SentenceTransformerEncoder(model_dir, precision="float32")
    return st, st.encode(TEXTS)


def test_numpy_encoder_matches_sentence_transformers(model_dir, reference):
    assert NumpyBertEncoder.supports(model_dir)
    ours = NumpyBertEncoder(model_dir).encode(TEXTS)
    ref = reference[1]
    assert ours.shape == ref.shape == (len(TEXTS), 384)
    cos = (ours * ref).sum(axis=1)
    assert np.all(cos >= 0.999), cos
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_bulk_encoder_matches_sentence_transformers(model_dir, reference, monkeypatch):
    """Indexing's encoder: packed token rows, ragged and equal-length batches, two workers."""
    from memsearch_tui.engine.search import bulk_work

    monkeypatch.setattr(bulk_work, "BULK_TOKENS", 48)  # many small batches, some of one length
    monkeypatch.setattr(bulk_work, "cores", lambda: 2)
    more = ["", *(f"turn {i}: " + "word " * (i % 13) for i in range(30)), "same length", "same length"]
    texts = [*TEXTS, *more]
    ours = NumpyBertEncoder(model_dir, bulk=True).encode(texts)
    # the library's vectors of TEXTS from the fixture: in one batch with them it padded all
    # 32 texts of its batch to the long one's 256 tokens (most of this test's CPU)
    ref = np.concatenate([reference[1], reference[0].encode(more)])
    assert ours.shape == ref.shape == (len(texts), 384)
    cos = (ours * ref).sum(axis=1)
    assert np.all(cos >= 0.999), cos
    query_path = NumpyBertEncoder(model_dir).encode(texts, batch_size=7)
    assert np.allclose(query_path, ours, atol=1e-5)
    assert NumpyBertEncoder(model_dir, bulk=True).encode([]).shape == (0, 384)


def test_bulk_batches_cover_every_text_once_in_order():
    from memsearch_tui.engine.search.bulk_work import bulk_batches

    for lengths in ([3], [2] * 50, sorted([5, 9, 9, 30, 2, 2, 256, 17, 64, 64, 8] * 40)):
        for workers in (1, 2, 4):
            runs = bulk_batches(lengths, workers)
            assert runs[0][0] == 0 and runs[-1][1] == len(lengths)
            assert all(a[1] == b[0] and a[0] < a[1] for a, b in zip(runs, runs[1:]))


def test_model_resolution_is_offline_and_clear(tmp_path, model_dir):
    assert resolve_model_path("all-MiniLM-L6-v2") == model_dir
    assert resolve_model_path(str(model_dir)) == model_dir
    assert model_dim(model_dir) == 384
    with pytest.raises(InvalidInput, match="nothing is downloaded"):
        resolve_model_path("some-org/not-installed-model")
    assert not NumpyBertEncoder.supports(tmp_path)  # not a model folder: falls back


def test_bfloat16_index_vectors_stay_close_to_float32(model_dir, reference):
    from memsearch_tui.engine.search.embeddings import resolve_precision

    fp32 = reference[1]
    bf16 = SentenceTransformerEncoder(model_dir, precision="bfloat16")
    assert bf16.precision == "bfloat16"
    # the 256-token text apart: in one batch sentence-transformers pads every text to it, and
    # bfloat16 is emulated on a CPU without it (4.6 s of CPU for the five, 1.7 s this way)
    long = [len(t) > 1000 for t in TEXTS]
    parts = {k: iter(bf16.encode([t for t, is_long in zip(TEXTS, long) if is_long == k])) for k in (True, False)}
    vecs = np.stack([next(parts[is_long]) for is_long in long])
    assert any(long) and not all(long)
    assert vecs.dtype == np.float32 and vecs.shape == fp32.shape
    cos = (vecs * fp32).sum(axis=1)
    assert np.all(cos >= 0.995), cos
    assert bf16.encode([]).shape == (0, 384)
    assert resolve_precision("float32") == "float32"


def test_auto_precision_follows_native_bfloat16(cpu_bf16):
    from memsearch_tui.engine.search.embeddings import resolve_precision

    assert resolve_precision("auto") == ("bfloat16" if cpu_bf16 else "float32")
    assert resolve_precision("float32") == "float32" and resolve_precision("bfloat16") == "bfloat16"


def test_index_precision_setting_is_checked(tmp_path):
    from memsearch_tui.engine.search.settings import load_settings

    s = load_settings(tmp_path, None, {"tui": {"search": {"index_precision": "float32"}}})
    assert s.index_precision == "float32"
    assert load_settings(tmp_path, None, {}).index_precision == "auto"
    with pytest.raises(InvalidInput, match="index_precision"):
        load_settings(tmp_path, None, {"tui": {"search": {"index_precision": "half"}}})
