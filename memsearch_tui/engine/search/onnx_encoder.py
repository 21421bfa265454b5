"""The ``provider = "onnx"`` encoder: an ONNX sentence model (memsearch's default is an int8
BGE-M3) run with onnxruntime and its ``tokenizer.json``, pooled as the model's config says.

Moved out of :mod:`.embeddings` as it was (issue 32: rooms with one job each);
:func:`.embeddings.query_encoder` and :func:`.embeddings.index_encoder` pick it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.safe_io import load_json
from memsearch_tui.engine.search import bulk_work

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

ONNX_FILES = ("model.onnx", "model_quantized.onnx", "model_int8.onnx", "model_qint8.onnx", "model_optimized.onnx")
ONNX_DEFAULT = "gpahal/bge-m3-onnx-int8"  # memsearch's default for provider = "onnx"


class OnnxEncoder:
    """A sentence encoder exported to ONNX, run by onnxruntime: memsearch's ``provider = "onnx"``.

    The folder holds the ONNX graph (``model.onnx``, or a quantized ``model_quantized.onnx``
    / ``model_int8.onnx``, at the top or in ``onnx/``) and the ``tokenizer.json`` of the
    ``tokenizers`` package. Pooling follows the folder's sentence-transformers
    ``1_Pooling/config.json`` (mean or CLS); without one, a graph that already outputs a
    sentence vector (``sentence_embedding``, ``dense_vecs``) is used as is, else CLS for a
    BGE model and mean pooling otherwise. No torch is imported.
    """

    def __init__(self, model_dir: Path, *, threads: int | None = None) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.path = onnx_file(model_dir)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads or bulk_work.cores()
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        try:  # onnxruntime's own errors (InvalidProtobuf, Fail, …) share no base but Exception
            self.session = ort.InferenceSession(str(self.path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:
            raise InvalidInput(
                f"[embedding] model {self.path}: not a model onnxruntime can load ({_first_line(exc)})"
            ) from None
        self.inputs = [i.name for i in self.session.get_inputs()]
        outputs = [o.name for o in self.session.get_outputs()]
        self.pooled = next((o for o in ("sentence_embedding", "dense_vecs") if o in outputs), None)
        self.output = self.pooled or outputs[0]
        self.pooling = _pooling_mode(model_dir, self.pooled is not None)
        tok_file = next(
            (p for p in (model_dir / "tokenizer.json", self.path.parent / "tokenizer.json") if p.is_file()), None
        )
        if tok_file is None:
            raise InvalidInput(f"[embedding] model {model_dir}: no tokenizer.json beside the ONNX model")
        try:
            self.tok = Tokenizer.from_file(str(tok_file))
        except Exception as exc:
            raise InvalidInput(f"[embedding] model {tok_file}: not a tokenizer.json ({_first_line(exc)})") from None
        self.tok.enable_truncation(_max_length(model_dir))
        self.tok.no_padding()
        self.dim = int(self.encode(["dimension probe"]).shape[1])

    def encode(self, texts: Sequence[str], batch_size: int = 32) -> NDArray[numpy.float32]:
        """L2-normalised rows for ``texts``; batches of similar length are padded together."""
        import numpy as np

        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        encs = self.tok.encode_batch(list(texts))
        order = sorted(range(len(encs)), key=lambda i: len(encs[i].ids))
        out: list[NDArray[numpy.float32]] = [np.empty(0, np.float32)] * len(encs)
        for at in range(0, len(order), batch_size):
            idx = order[at : at + batch_size]
            width = max(len(encs[i].ids) for i in idx)
            ids = np.zeros((len(idx), width), np.int64)
            mask = np.zeros((len(idx), width), np.int64)
            types = np.zeros((len(idx), width), np.int64)
            for row, i in enumerate(idx):
                n = len(encs[i].ids)
                ids[row, :n], mask[row, :n], types[row, :n] = encs[i].ids, 1, encs[i].type_ids
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
            res = self.session.run([self.output], {k: v for k, v in feed.items() if k in self.inputs})[0]
            vecs = self._pool(np.asarray(res, np.float32), mask)
            for row, i in enumerate(idx):
                out[i] = vecs[row]
        mat = np.stack(out).astype(np.float32, copy=False)
        mat /= np.maximum(np.linalg.norm(mat, axis=1, keepdims=True), 1e-12)
        return mat

    def _pool(self, res: NDArray[numpy.float32], mask: NDArray[Any]) -> NDArray[numpy.float32]:
        import numpy as np

        if res.ndim == 2:  # the graph pooled already
            return res
        if self.pooling == "cls":
            return res[:, 0, :]
        m = mask[:, :, None].astype(res.dtype)
        pooled: NDArray[numpy.float32] = (res * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
        return pooled


def onnx_file(model_dir: Path) -> Path:
    """The ONNX graph in a model folder (full precision first, then a quantized one); a
    FIFO or device named like one is refused, never opened (onnxruntime would block on it)."""
    from memsearch_tui.engine.core.safe_io import unusable_reason

    for sub in (model_dir, model_dir / "onnx"):
        for name in ONNX_FILES:
            if (sub / name).is_file():
                return sub / name
    found = sorted(model_dir.glob("*.onnx")) + sorted(model_dir.glob("onnx/*.onnx"))
    if not found:
        raise InvalidInput(f'[embedding] model {model_dir}: provider "onnx" needs a folder with a .onnx model')
    why = unusable_reason(found[0])
    if why is not None:
        raise InvalidInput(f"[embedding] model {found[0]}: {why}")
    return found[0]


def _first_line(exc: BaseException) -> str:
    """An exception's first line, at most 200 characters: what a one-line error can quote."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return text[:200]


def _pooling_mode(model_dir: Path, pooled: bool) -> str:
    cfg = model_dir / "1_Pooling" / "config.json"
    if cfg.is_file():
        return "cls" if load_json(cfg).get("pooling_mode_cls_token") else "mean"
    if pooled:
        return "none"
    return "cls" if "bge" in str(model_dir).lower() else "mean"


def _max_length(model_dir: Path) -> int:
    """Tokens per text: the model's own setting, at most 512 (a chunk is ~1500 characters)."""
    for name, key in (("sentence_bert_config.json", "max_seq_length"), ("tokenizer_config.json", "model_max_length")):
        f = model_dir / name
        if f.is_file():
            try:
                value = int(load_json(f).get(key) or 0)
            except (ValueError, TypeError):
                value = 0
            if value > 0:
                return min(value, 512)
    return 512
