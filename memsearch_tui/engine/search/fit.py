"""The configured embedding model against what the memory is written in, for ``doctor``.

Apart from :mod:`.languages` (which :mod:`.model_auto` reads while the settings are being
resolved) because it resolves the settings and the model itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memsearch_tui.engine.search.languages import cjk_share, describe, model_languages, reads


@dataclass(frozen=True)
class Fit:
    """The configured model's languages against what the memory is written in."""

    model: str
    reads: str  # describe() of the model's languages
    mostly: str  # cjk | alpha | none
    cjk_share: float
    mismatch: bool


def memory_fit(memory_root: Path, project: Path | None) -> Fit:
    """Which languages the configured model reads, and what the memory is mostly written in.

    For ``doctor``: ``mismatch`` is True when most of the memory (by CJK characters against
    letters, a CJK character counted as :data:`.languages.CJK_LETTER_EQUIV` letters) is in a script
    the model does not read. Reads at most :data:`.languages.SAMPLE_FILES` × :data:`.languages.SAMPLE_BYTES`.
    """
    from memsearch_tui.engine.core.errors import MemsearchError
    from memsearch_tui.engine.search.embeddings import resolve_model
    from memsearch_tui.engine.search.settings import load_settings

    s = load_settings(Path(memory_root), project)
    try:
        langs = model_languages(resolve_model(s.model or None, s.provider))
    except (MemsearchError, OSError):
        langs = None
    share, total = cjk_share(s.memory_root, s.project)
    mostly = "none" if not total else ("cjk" if share >= 0.5 else "alpha")
    return Fit(s.model_label, describe(langs), mostly, round(share, 3), not reads(langs, mostly))
