"""The numpy encoder's unpooled token states (what late-interaction scoring compares:
``benchmarks/locomo_late.py``) are the rows its sentence vector is the mean of."""

from __future__ import annotations

import numpy as np
import pytest

from memsearch_tui.engine.search.embeddings import NumpyBertEncoder, resolve_model_path


@pytest.fixture(scope="module")
def encoder():
    return NumpyBertEncoder(resolve_model_path(None))


@pytest.mark.parametrize("text", ["Melanie painted a sunrise by the lake in 2022.", "用户喜欢深色主题和简洁的界面"])
def test_token_states_pool_to_the_sentence_vector(encoder, text):
    ids, states = encoder.token_states(text)
    assert ids == encoder.token_ids(text)
    assert states.shape == (len(ids), encoder.dim)
    pooled = states.mean(0)
    pooled /= np.linalg.norm(pooled)
    assert float(pooled @ encoder.encode([text])[0]) > 0.9999


def test_token_states_depend_on_the_context(encoder):
    """A word's state is not its static embedding: "bank" by a river and at a teller differ."""
    ids_a, a = encoder.token_states("we sat on the river bank")
    ids_b, b = encoder.token_states("she paid the cheque into the bank")
    bank = encoder.token_ids("bank")[1]
    va, vb = a[ids_a.index(bank)], b[ids_b.index(bank)]
    assert float(va @ vb / np.linalg.norm(va) / np.linalg.norm(vb)) < 0.95
