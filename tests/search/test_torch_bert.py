"""The torch bfloat16 bulk encoder: the numpy encoder's vectors, faster where the CPU has bf16."""

from __future__ import annotations

import numpy as np
import pytest

from memsearch_tui.engine.search.embeddings import NumpyBertEncoder, resolve_model_path
from tests.search.conftest import TORCH_WORKER

pytestmark = [pytest.mark.slow, TORCH_WORKER]  # real model: seconds per test

TEXTS = [
    "When did Caroline go to the LGBTQ support group?",
    "用户喜欢深色主题和简洁的界面",
    "x",
    "a long note " * 300,  # truncated at the model's 256 tokens
    "Émile's café — naïve façade, ½ price!",
    "",
]


@pytest.fixture(scope="module")
def model_dir():
    return resolve_model_path(None)


@pytest.fixture(scope="module")
def encoder(model_dir):
    from memsearch_tui.engine.search.torch_bert import TorchBertEncoder

    return TorchBertEncoder(model_dir)


@pytest.fixture(scope="module")
def reference(model_dir):
    """The float32 numpy encoder's vectors of ``TEXTS`` (the 256-token one is most of the
    cost), computed once for the module."""
    return NumpyBertEncoder(model_dir, bulk=True).encode(TEXTS)


def test_bf16_vectors_match_the_float32_numpy_encoder(encoder, reference):
    ours = encoder.encode(TEXTS)
    ref = reference
    assert ours.dtype == np.float32 and ours.shape == ref.shape == (len(TEXTS), 384)
    cos = (ours * ref).sum(axis=1)
    assert np.all(cos >= 0.999), cos
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert encoder.encode([]).shape == (0, 384)


def test_many_batches_on_two_workers_keep_each_text_in_its_row(model_dir, encoder, reference, monkeypatch):
    """Ragged batches, equal-length batches and two threads: row i is text i's vector."""
    from memsearch_tui.engine.search import bulk_work

    monkeypatch.setattr(bulk_work, "BULK_TOKENS", 48)
    monkeypatch.setattr(bulk_work, "cores", lambda: 2)
    more = [*(f"turn {i}: " + "word " * (i % 13) for i in range(30)), "same length", "same length"]
    texts = [*TEXTS, *more]
    ours = encoder.encode(texts)
    alone = np.stack([encoder.encode([t])[0] if len(t) < 1000 else reference[i] for i, t in enumerate(texts[:8])])
    # bf16 rounding differs a little with the batch's padding; the 256-token text (its own
    # batch either way) is held to the float32 vector, not encoded alone once more
    assert np.allclose(ours[:8], alone, atol=2e-2)
    ref = np.concatenate([reference, NumpyBertEncoder(model_dir, bulk=True).encode(more)])
    assert np.all((ours * ref).sum(axis=1) >= 0.999)
    assert np.array_equal(ours[-1], ours[-2])


def test_auto_on_a_native_bf16_cpu_indexes_with_it(cpu_bf16):
    from memsearch_tui.engine.search.embeddings import SentenceTransformerEncoder, index_encoder
    from memsearch_tui.engine.search.torch_bert import TorchBertEncoder

    enc = index_encoder(None)
    assert isinstance(enc, TorchBertEncoder if cpu_bf16 else NumpyBertEncoder)
    assert isinstance(index_encoder(None, "bfloat16"), SentenceTransformerEncoder)  # an explicit precision: the library
