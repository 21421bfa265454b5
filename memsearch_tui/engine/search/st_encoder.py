"""The sentence-transformers encoder: the real library, for indexing at an explicit
precision and for models the numpy forward pass does not cover.

Moved out of :mod:`.embeddings` as it was (issue 36: one job a module).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.search.cpu import resolve_precision

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray


class SentenceTransformerEncoder:
    """The real library; used for indexing (throughput) and for non-BERT models."""

    def __init__(self, model_dir: Path, *, batch_size: int = 64, precision: str = "float32") -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        import torch
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
        self.precision = resolve_precision(precision)
        if self.precision == "bfloat16":
            self.model.to(torch.bfloat16)
        self.batch_size = batch_size
        dim = self.model.get_embedding_dimension()
        if dim is None:  # a model without a fixed output size cannot fill a vector index
            raise InvalidInput(f"[embedding] model {model_dir}: it does not declare its embedding dimension")
        self.dim = int(dim)

    def encode(self, texts: Sequence[str]) -> NDArray[numpy.float32]:
        if not texts:
            import numpy as np

            return np.zeros((0, self.dim), dtype=np.float32)
        out = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_tensor=True,
            show_progress_bar=False,
        )
        return out.float().numpy()
