"""The torch-free BERT encoder: the model's forward pass in numpy (queries, and bulk indexing).

Moved out of :mod:`.embeddings` as it was (issue 36: one job a module). Why it exists is
told there: a query must not import torch.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.safe_io import load_json
from memsearch_tui.engine.search import bulk_work
from memsearch_tui.engine.search.cpu import blas_controller, blas_pinned
from memsearch_tui.engine.search.safetensors_map import mapped_safetensors
from memsearch_tui.engine.search.stopping import check

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray


class NumpyBertEncoder:
    """BERT forward pass + mean pooling + L2 norm in numpy: a torch-free query encoder."""

    stoppable = True  # encode() takes ``stop`` (:mod:`.stopping`): asked between blocks and layers

    def __init__(self, model_dir: Path, *, bulk: bool = False) -> None:
        """``bulk``: for indexing — batches are encoded in parallel, one per core.

        The weights are mapped from ``model.safetensors``, not read (:func:`mapped_safetensors`):
        a query touches the dense layers and a few rows of the 47 MB word-embedding table,
        so a CLI search no longer copies 90 MB before its first multiplication. A query
        in ASCII is tokenized by :class:`.wordpiece.AsciiWordPiece` (same ids, no
        ``tokenizers`` import); other text, and every bulk batch, by ``tokenizers``."""
        import numpy as np

        from memsearch_tui.engine.search.wordpiece import AsciiWordPiece

        cfg = load_json(model_dir / "config.json")
        self.cfg = cfg
        self.model_dir = model_dir
        self.heads = int(cfg["num_attention_heads"])
        self.layers = int(cfg["num_hidden_layers"])
        self.eps = float(cfg.get("layer_norm_eps", 1e-12))
        st_cfg = model_dir / "sentence_bert_config.json"
        self.max_len = int(load_json(st_cfg).get("max_seq_length", 256)) if st_cfg.is_file() else 256
        weights = mapped_safetensors(model_dir / "model.safetensors")
        self.w = {k.removeprefix("bert."): v.astype(np.float32, copy=False) for k, v in weights.items()}
        # Dense weights used as (in × out), so every layer is a plain (tokens × in) @ (in × out)
        # GEMM. Bulk work copies them transposed once (~10 % faster per batch); a query
        # multiplies by the transposed view of the mapped file (no copy: the copy cost more
        # than it saves on one query).
        dense = [k for k, v in self.w.items() if k.endswith(".weight") and v.ndim == 2 and "embeddings" not in k]
        self.wt = {
            k[: -len(".weight")]: (np.ascontiguousarray(self.w.pop(k).T) if bulk else self.w.pop(k).T) for k in dense
        }
        h = self.heads
        self.scale = np.float32(1.0 / math.sqrt(int(cfg["hidden_size"]) // h))
        self.qkv: dict[int, tuple[NDArray[Any], NDArray[Any]]] = {}
        if bulk:  # the three attention projections as one (in × 3·out) GEMM per layer, 1/√d folded into Q
            for i in range(self.layers):
                a = f"encoder.layer.{i}.attention.self."
                self.qkv[i] = (
                    np.ascontiguousarray(
                        np.concatenate([self.wt[a + "query"] * self.scale, self.wt[a + "key"], self.wt[a + "value"]], 1)
                    ),
                    np.concatenate(
                        [self.w[a + "query.bias"] * self.scale, self.w[a + "key.bias"], self.w[a + "value.bias"]]
                    ),
                )
        self._pos_type: NDArray[Any] | None = None
        self._tok: Any = None
        self._calls = 0
        self.ascii = (
            None if bulk else AsciiWordPiece.load(model_dir / "tokenizer.json", self.max_len, tokenizer_cache())
        )
        self.dim = int(cfg["hidden_size"])
        self.np = np
        self.bulk = bulk

    @property
    def tok(self) -> Any:
        """The ``tokenizers`` Tokenizer, loaded on first use."""
        if self._tok is None:
            self._tok = bulk_work.model_tokenizer(self.model_dir, self.max_len)
        return self._tok

    def token_ids(self, text: str) -> list[int]:
        """``text``'s ids as the model's tokenizer gives them (with ``[CLS]``/``[SEP]``)."""
        if self.ascii is not None:
            ids = self.ascii.ids(text)
            if ids is not None:
                return ids
        return list(self.tok.encode(text).ids)

    @staticmethod
    def supports(model_dir: Path) -> bool:
        """True for BERT-type models with plain mean pooling and the files we need."""
        try:
            cfg = load_json(model_dir / "config.json")
            modules = load_json(model_dir / "modules.json")
            pooling = load_json(model_dir / "1_Pooling" / "config.json")
        except (OSError, ValueError, KeyError):
            return False
        kinds = [m.get("type", "").rsplit(".", 1)[-1] for m in modules]
        return (
            cfg.get("model_type") == "bert"
            and cfg.get("hidden_act") == "gelu"
            and cfg.get("position_embedding_type", "absolute") == "absolute"
            and kinds in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"])
            and pooling.get("pooling_mode_mean_tokens") is True
            and not any(
                pooling.get(k)
                for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens")
            )
            and (model_dir / "model.safetensors").is_file()
            and (model_dir / "tokenizer.json").is_file()
        )

    def encode(
        self, texts: Sequence[str], batch_size: int = 32, *, stop: Callable[[], bool] | None = None
    ) -> NDArray[numpy.float32]:
        """Rows for ``texts``; batches of similar length are encoded together. ``stop()``
        (a build's quit flag) is asked before each batch and each layer: once true, the
        call raises :class:`.stopping.BuildStopped` within a layer's time, not the call's.

        BLAS runs single-threaded: for query-sized matrices OpenBLAS's threads only spin,
        and on a busy 2-core machine that made one query 20× slower (measured). A bulk
        encoder (indexing) instead runs one batch per core in threads: numpy releases the
        GIL in its loops, so GELU, softmax and layer norm — single-threaded in numpy — run
        on every core too, not only the matrix products.
        """
        self._calls += 1
        if self._calls == 2 and not self.bulk:  # a warm process (app, MCP, --batch): contiguous weights
            self._settle()
        with _one_blas_thread():
            return self._encode(texts, batch_size, stop)

    def _settle(self) -> None:
        """Copy the dense weights, transposed, out of the mapped file once a second query
        comes: ~40 ms once, then ~4 ms less a query (a contiguous operand packs faster)."""
        np = self.np
        self.wt = {k: np.ascontiguousarray(v) for k, v in self.wt.items()}

    def _encode(
        self, texts: Sequence[str], batch_size: int, stop: Callable[[], bool] | None = None
    ) -> NDArray[numpy.float32]:
        np = self.np
        out: NDArray[numpy.float32] = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        if self.bulk:  # one call into the Rust tokenizer for the lot
            encs = [list(e.ids) for e in self.tok.encode_batch(list(texts))]
        else:
            encs = [self.token_ids(t) for t in texts]
        if self.bulk:
            workers = bulk_work.cores()
            groups = bulk_work.length_groups(encs, workers)
        else:
            workers = 1
            order = sorted(range(len(texts)), key=lambda i: len(encs[i]))
            groups = [order[b : b + batch_size] for b in range(0, len(order), batch_size)]
        bulk_work.run_groups(encs, groups, partial(self._forward, stop=stop), out, workers, stop)
        return out

    def _forward(self, seqs: list[list[int]], stop: Callable[[], bool] | None = None) -> NDArray[numpy.float32]:
        """L2-normalised mean-pooled rows of token-id sequences (sorted by length, shortest first).
        ``stop()`` is asked before each layer after the first (see :meth:`encode`).

        The tokens are packed, not padded: every dense layer (~95 % of the arithmetic) runs
        on the ``T`` real token rows only; a ragged batch is spread into a padded, masked
        layout just for the attention scores. Softmax is normalised after ``att @ v`` (a
        pass over (tokens × 32) per head instead of (tokens × tokens)); the feed-forward
        block multiplies all rows at once (OpenBLAS packs a weight matrix per call: 128-row
        calls ran ~20 % below its full speed) and runs GELU over :data:`FFN_ROWS` rows at a
        time, so its ~20 passes stay in the core's L2 cache.
        """
        np = self.np
        x, starts = self._hidden(seqs, stop)
        pooled = np.add.reduceat(x, starts, axis=0)  # the mean's 1/len goes with the L2 norm
        rows_out: NDArray[numpy.float32] = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return rows_out

    def token_states(self, text: str) -> tuple[list[int], NDArray[numpy.float32]]:
        """``text``'s token ids and the last layer's state of each token, unpooled (one row
        a token, ``[CLS]`` and ``[SEP]`` included): what late-interaction scoring compares."""
        ids = self.token_ids(text)
        with _one_blas_thread():
            x, _ = self._hidden([ids])
        return ids, x

    def _hidden(
        self, seqs: list[list[int]], stop: Callable[[], bool] | None = None
    ) -> tuple[NDArray[Any], NDArray[Any]]:
        """The last layer's token rows of the packed batch, and each sequence's first row."""
        np, w = self.np, self.w
        dim, h = self.dim, self.heads
        d = dim // h
        lens, starts, pos, x = self._embed(seqs)
        bsz, n, total = len(seqs), int(lens.max()), int(lens.sum())
        ragged = int(lens.min()) != n
        if ragged:  # attention on a padded (bsz, n) grid; padded keys get no weight
            rows = np.repeat(np.arange(bsz), lens)
            grid = np.zeros((bsz * n, 3 * dim), dtype=np.float32)
            flat = rows * n + pos
            mask = np.where(np.arange(n)[None, :] < lens[:, None], np.float32(0.0), np.float32(-1e9))
            bias = mask.astype(np.float32)[:, None, None, :]
        y = np.empty((total, 3 * dim), dtype=np.float32)
        for i in range(self.layers):
            if i:
                check(stop)  # a bool per layer: nothing against ~0.1 s of products
            p = f"encoder.layer.{i}."
            self._qkv(x, i, y)
            if ragged:
                grid[flat] = y
                qkv = grid.reshape(bsz, n, 3, h, d)
            else:
                qkv = y.reshape(bsz, n, 3, h, d)
            att = qkv[:, :, 0].transpose(0, 2, 1, 3) @ qkv[:, :, 1].transpose(0, 2, 3, 1)  # scaled: 1/√d is in Q
            if ragged:
                att += bias
            att -= att.max(-1, keepdims=True)
            np.exp(att, out=att)
            ctx = att @ qkv[:, :, 2].transpose(0, 2, 1, 3)
            ctx /= att.sum(-1, keepdims=True)
            by_token = ctx.transpose(0, 2, 1, 3)
            flat_ctx = (by_token[rows, pos] if ragged else by_token).reshape(total, dim)
            o = flat_ctx @ self.wt[p + "attention.output.dense"]
            o += w[p + "attention.output.dense.bias"]
            o += x
            x = self._norm(o, p + "attention.output.LayerNorm")
            x = self._norm(self._ffn(x, p), p + "output.LayerNorm")
        return x, starts

    def _embed(self, seqs: list[list[int]]) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any], NDArray[Any]]:
        """The packed batch: each sequence's length, first row and token positions, and the
        embedding layer's output (token + position + type, normalised) for every token row."""
        np = self.np
        lens = np.fromiter(map(len, seqs), dtype=np.intp, count=len(seqs))
        total = int(lens.sum())
        ids = np.fromiter((t for s in seqs for t in s), dtype=np.intp, count=total)
        starts = np.zeros(len(seqs), dtype=np.intp)
        np.cumsum(lens[:-1], out=starts[1:])
        pos = np.arange(total) - np.repeat(starts, lens)
        x = self.w["embeddings.word_embeddings.weight"][ids]
        x += self.pos_type()[pos]
        return lens, starts, pos, self._norm(x, "embeddings.LayerNorm")

    def pos_type(self) -> NDArray[Any]:
        """Position embeddings plus the (only) token-type embedding: one table, added once."""
        if self._pos_type is None:
            w = self.w
            self._pos_type = (
                w["embeddings.position_embeddings.weight"] + w["embeddings.token_type_embeddings.weight"][0]
            )
        return self._pos_type

    def _qkv(self, x: NDArray[Any], i: int, y: NDArray[Any]) -> None:
        """Query, key and value of layer ``i`` into ``y``'s three column blocks (Q scaled by 1/√d)."""
        if i in self.qkv:  # bulk: one GEMM
            w3, b3 = self.qkv[i]
            self.np.matmul(x, w3, out=y)
            y += b3
            return
        a, dim = f"encoder.layer.{i}.attention.self.", self.dim
        for j, part in enumerate(("query", "key", "value")):
            y[:, j * dim : (j + 1) * dim] = x @ self.wt[a + part]
            y[:, j * dim : (j + 1) * dim] += self.w[a + part + ".bias"]
        y[:, :dim] *= self.scale

    def _ffn(self, x: NDArray[Any], p: str) -> NDArray[Any]:
        """The feed-forward block (dense → GELU → dense) plus its residual ``x``."""
        np = self.np
        w1, b1 = self.wt[p + "intermediate.dense"], self.w[p + "intermediate.dense.bias"]
        w2, b2 = self.wt[p + "output.dense"], self.w[p + "output.dense.bias"]
        act = x @ w1
        for at in range(0, act.shape[0], FFN_ROWS):
            block = act[at : at + FFN_ROWS]
            block += b1
            _gelu(block)
        out: NDArray[Any] = np.matmul(act, w2)
        out += b2
        out += x
        return out

    def _norm(self, x: NDArray[Any], name: str) -> NDArray[Any]:
        """Layer norm of the rows of ``x``, in place (``x`` is a fresh array every time)."""
        np = self.np
        x -= x.mean(-1, keepdims=True)
        var = np.einsum("ij,ij->i", x, x)
        var *= np.float32(1.0 / x.shape[-1])
        var += np.float32(self.eps)
        np.sqrt(var, out=var)
        x /= var[:, None]
        x *= self.w[name + ".weight"]
        x += self.w[name + ".bias"]
        return x


@contextmanager
def _one_blas_thread() -> Iterator[None]:
    """BLAS limited to one thread for a query-sized call (why: :meth:`NumpyBertEncoder.encode`)."""
    limiter = None if blas_pinned() else blas_controller()
    if limiter is None:  # one BLAS thread already, or no threadpoolctl (it ships with sentence-transformers)
        yield
        return
    with limiter.limit(limits=1, user_api="blas"):
        yield


FFN_ROWS = 64  # token rows per GELU block: 64 × 1536 float32 = 384 KB, within a core's 512 KB L2


def _gelu(x: NDArray[Any]) -> NDArray[Any]:
    """Exact (erf) GELU, as BERT's ``gelu``, computed in place over ``x`` (which it returns).

    In place because the activation is the biggest array of the forward pass: a dozen
    temporaries of it cost more time in allocation than the arithmetic, and most of a bulk
    run's peak memory. Constants are float32 on purpose: a numpy float64 scalar would
    promote the whole activation (and every later layer) to float64, which made each query
    ~5× slower than the float32 forward pass sentence-transformers itself runs. erf is
    Abramowitz & Stegun 7.1.26 (max abs error 1.5e-7): vectorised, no scipy import.
    """
    import numpy as np

    f = np.float32
    a = np.multiply(x, f(_INV_SQRT2))
    sign = np.sign(a)
    np.abs(a, out=a)
    t = np.multiply(a, f(0.3275911))
    t += f(1.0)
    np.reciprocal(t, out=t)
    y = np.multiply(t, f(1.061405429))
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        y += f(c)
        y *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    y *= a  # poly · exp(-a²) = 1 - erf(|x|/√2)
    np.subtract(f(1.0), y, out=y)
    y *= sign  # erf(x/√2)
    y += f(1.0)
    y *= f(0.5)
    x *= y
    return x


_INV_SQRT2 = 1.0 / math.sqrt(2.0)


def tokenizer_cache() -> Path:
    """Where a query encoder keeps its parsed tokenizer (``AsciiWordPiece.load``)."""
    from memsearch_tui.engine.search.settings import data_home

    return data_home() / "cache"
