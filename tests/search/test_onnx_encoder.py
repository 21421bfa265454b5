"""``[embedding] provider = "onnx"``: a sentence encoder exported to ONNX, run by onnxruntime.

Real components: the test exports the bundled all-MiniLM-L6-v2 with ``torch.onnx`` into a
temp folder (beside its tokenizer and sentence-transformers config, as an ONNX model
folder ships them), then checks the vectors against sentence-transformers' own and runs
a search through the config the way memsearch users write it.
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.embeddings import SentenceTransformerEncoder, resolve_model_path
from memsearch_tui.engine.search.onnx_encoder import OnnxEncoder
from tests.search.conftest import TORCH_WORKER

pytestmark = TORCH_WORKER

TEXTS = [
    "We deploy alpha to Fly.io every Friday afternoon.",
    "Neovim with the gruvbox colour scheme and relative line numbers.",
    "how do we roll back a deploy?",
    "证书每 90 天过期。",
    "a",
]
KEEP = ("tokenizer.json", "config.json", "sentence_bert_config.json", "README.md", "1_Pooling")


def export_minilm(out: Path) -> Path:
    """The bundled MiniLM as ``out/model.onnx`` + its tokenizer and pooling config."""
    import torch
    from transformers import AutoModel

    src = resolve_model_path(None)
    base = AutoModel.from_pretrained(str(src)).eval()

    class Hidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.base = base

        def forward(self, input_ids, attention_mask, token_type_ids):  # type: ignore[no-untyped-def]
            return self.base(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    out.mkdir(parents=True)
    x = torch.ones(1, 8, dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    with warnings.catch_warnings():  # the tracer's notes about constant shapes: not this test's subject
        warnings.simplefilter("ignore")
        torch.onnx.export(
            Hidden().eval(),
            (x, x, torch.zeros_like(x)),
            str(out / "model.onnx"),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={n: axes for n in ("input_ids", "attention_mask", "token_type_ids", "last_hidden_state")},
            opset_version=17,
            dynamo=False,
        )
    for name in KEEP:
        p = src / name
        (shutil.copytree if p.is_dir() else shutil.copy)(p, out / name)
    return out


@pytest.fixture(scope="module")
def onnx_model(tmp_path_factory) -> Path:
    return export_minilm(tmp_path_factory.mktemp("onnx") / "minilm-onnx")


@pytest.mark.slow
def test_onnx_vectors_match_sentence_transformers(onnx_model: Path) -> None:
    ours = OnnxEncoder(onnx_model).encode(TEXTS)
    ref = SentenceTransformerEncoder(resolve_model_path(None)).encode(TEXTS)
    assert ours.shape == ref.shape == (len(TEXTS), 384)
    cos = (ours * ref).sum(axis=1)
    assert cos.min() >= 0.99, cos


@pytest.mark.slow
def test_search_through_the_onnx_provider(onnx_model: Path, memory, add_entry) -> None:
    root, project = memory
    add_entry(root, "ops/rollback", "Rolling back a release", ["ops"], "Pick the previous image and redeploy it.\n")
    config = {"embedding": {"provider": "onnx", "model": str(onnx_model)}}
    with Searcher(root, project, config=config) as s:
        assert s.s.provider == "onnx" and s.model_languages() == frozenset({"en"})
        assert s.index().embedded > 0
        res = s.search("revert to the last release", strategy="vector", k=3)
    assert res.hits[0].id == "ops/rollback"


def test_a_folder_without_an_onnx_model_is_named(tmp_path: Path) -> None:
    from memsearch_tui.engine.core.errors import InvalidInput

    (tmp_path / "tokenizer.json").write_text("{}")
    with pytest.raises(InvalidInput, match="needs a folder with a .onnx model"):
        OnnxEncoder(tmp_path)
