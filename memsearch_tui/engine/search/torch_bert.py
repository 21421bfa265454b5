"""A BERT forward pass in torch bfloat16, for bulk indexing on CPUs with native bfloat16.

Why not sentence-transformers in bfloat16, as before: importing it (it imports
``transformers``) took ~3.6 s of a 14 s index run on one core, its model in bfloat16 runs
softmax and mean pooling in bfloat16 too (one labelled query fell from rank 5 to 6 in
``benchmarks/search_quality.py corpus``), and it pads a batch to its longest text. Here
only ``torch`` is imported (~1.3 s), the matrix products run in bfloat16 (AVX512-BF16:
~2× float32's speed), attention goes through torch's fused kernel, and the pooled rows are
summed and normalised in float32. The arithmetic is ``embeddings.NumpyBertEncoder``'s
(same weights file, tokenizer and pooling); its vectors stay at cosine ≥ 0.999 to it.

Like the numpy bulk encoder, batches are sorted by length and run one per core in Python
threads, each with one torch thread: torch releases the GIL in its kernels, and OpenMP's
spinning threads on a shared 2-core machine cost more than they gave (measured).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.safe_io import load_json
from memsearch_tui.engine.search import bulk_work
from memsearch_tui.engine.search.safetensors_map import mapped_safetensors
from memsearch_tui.engine.search.stopping import check

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray


class TorchBertEncoder:
    """Bulk encoder: the bundled-style BERT (see ``NumpyBertEncoder.supports``) in ``dtype``."""

    stoppable = True  # encode() takes ``stop`` (:mod:`.stopping`): asked between batches and layers

    def __init__(self, model_dir: Path, *, dtype: str = "bfloat16") -> None:
        import numpy as np
        import torch

        cfg = load_json(model_dir / "config.json")
        self.model_dir = model_dir
        self.heads = int(cfg["num_attention_heads"])
        self.layers = int(cfg["num_hidden_layers"])
        self.eps = float(cfg.get("layer_norm_eps", 1e-12))
        self.dim = int(cfg["hidden_size"])
        st_cfg = model_dir / "sentence_bert_config.json"
        self.max_len = int(load_json(st_cfg).get("max_seq_length", 256)) if st_cfg.is_file() else 256
        self.dtype = getattr(torch, dtype)
        mapped = mapped_safetensors(model_dir / "model.safetensors")
        self.w: dict[str, Any] = {
            k.removeprefix("bert."): torch.from_numpy(np.array(v, dtype=np.float32)).to(self.dtype)
            for k, v in mapped.items()
        }
        w = self.w
        self.pos_type = w["embeddings.position_embeddings.weight"] + w["embeddings.token_type_embeddings.weight"][0]
        self.qkv = []  # each layer's three attention projections as one (3·dim × dim) product
        for i in range(self.layers):
            a = f"encoder.layer.{i}.attention.self."
            self.qkv.append(
                (
                    torch.cat([w[a + "query.weight"], w[a + "key.weight"], w[a + "value.weight"]]),
                    torch.cat([w[a + "query.bias"], w[a + "key.bias"], w[a + "value.bias"]]),
                )
            )
        self.tok = bulk_work.model_tokenizer(model_dir, self.max_len)
        self.torch = torch

    def encode(self, texts: Sequence[str], *, stop: Callable[[], bool] | None = None) -> NDArray[numpy.float32]:
        """L2-normalised mean-pooled float32 rows for ``texts``, in their order. ``stop()``
        (a build's quit flag) is asked before each batch and each layer: once true, the call
        raises :class:`.stopping.BuildStopped` (torch's thread count put back first)."""
        import numpy as np

        out: NDArray[numpy.float32] = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        encs = [list(e.ids) for e in self.tok.encode_batch(list(texts))]
        workers = bulk_work.cores()
        torch = self.torch
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            groups = bulk_work.length_groups(encs, workers)
            bulk_work.run_groups(encs, groups, partial(self._forward, stop=stop), out, workers, stop)
        finally:
            torch.set_num_threads(threads)
        return out

    def _forward(self, seqs: list[list[int]], stop: Callable[[], bool] | None = None) -> NDArray[numpy.float32]:
        """One padded batch (similar lengths) through the encoder; float32 numpy rows.
        ``stop()`` is asked before each layer after the first (see :meth:`encode`)."""
        torch = self.torch
        fn = torch.nn.functional
        w, dim, h = self.w, self.dim, self.heads
        bsz, n = len(seqs), max(map(len, seqs))
        with torch.inference_mode():
            ids = torch.zeros(bsz, n, dtype=torch.long)
            mask = torch.zeros(bsz, n, dtype=torch.bool)
            for i, s in enumerate(seqs):
                ids[i, : len(s)] = torch.tensor(s)
                mask[i, : len(s)] = True
            x = w["embeddings.word_embeddings.weight"][ids] + self.pos_type[:n]
            x = fn.layer_norm(x, (dim,), w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
            keys = mask[:, None, None, :]  # padded keys get no weight
            for i in range(self.layers):
                if i:
                    check(stop)
                p = f"encoder.layer.{i}."
                q, k, v = fn.linear(x, *self.qkv[i]).view(bsz, n, 3, h, dim // h).permute(2, 0, 3, 1, 4)
                ctx = fn.scaled_dot_product_attention(q, k, v, attn_mask=keys).transpose(1, 2).reshape(bsz, n, dim)
                o = fn.linear(ctx, w[p + "attention.output.dense.weight"], w[p + "attention.output.dense.bias"]) + x
                x = self._norm(o, p + "attention.output.LayerNorm")
                a = fn.gelu(fn.linear(x, w[p + "intermediate.dense.weight"], w[p + "intermediate.dense.bias"]))
                o = fn.linear(a, w[p + "output.dense.weight"], w[p + "output.dense.bias"]) + x
                x = self._norm(o, p + "output.LayerNorm")
            m = mask.unsqueeze(-1).float()
            pooled = (x.float() * m).sum(1) / m.sum(1)
            rows: NDArray[numpy.float32] = fn.normalize(pooled, dim=1).numpy()
        return rows

    def _norm(self, x: Any, name: str) -> Any:
        return self.torch.nn.functional.layer_norm(
            x, (self.dim,), self.w[name + ".weight"], self.w[name + ".bias"], self.eps
        )
