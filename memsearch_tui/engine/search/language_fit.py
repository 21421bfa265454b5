"""``doctor``'s language check: the configured model's languages against the memory's script.

Apart from :mod:`.languages` so that a search, which imports that module, does not also
create this record's dataclass (~1 % of a one-shot CLI search's CPU).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memsearch_tui.engine.search.languages import (
    _LETTER,
    CJK_LETTER_EQUIV,
    cjk_count,
    describe,
    model_languages,
    reads,
)

SAMPLE_FILES = 400  # files read to judge the memory's language (an even spread over all of them)
SAMPLE_BYTES = 8 * 1024  # of each


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
    letters, a CJK character counted as :data:`CJK_LETTER_EQUIV` letters) is in a script
    the model does not read. Reads at most :data:`SAMPLE_FILES` × :data:`SAMPLE_BYTES`.
    """
    from memsearch_tui.engine.core.errors import MemsearchError
    from memsearch_tui.engine.core.safe_io import open_regular
    from memsearch_tui.engine.search.embeddings import resolve_model
    from memsearch_tui.engine.search.settings import load_settings
    from memsearch_tui.engine.search.sources import searched_files

    s = load_settings(Path(memory_root), project)
    try:
        langs = model_languages(resolve_model(s.model or None, s.provider))
    except (MemsearchError, OSError):
        langs = None
    files = searched_files(s.memory_root, s.project, None, "all")
    step = max(1, len(files) // SAMPLE_FILES)
    cjk = letters = 0.0
    for f in files[::step][:SAMPLE_FILES]:
        try:
            with open_regular(f.file) as fh:  # a FIFO or device named like a day is never opened
                text = fh.read(SAMPLE_BYTES).decode("utf-8", "replace")
        except (OSError, MemsearchError):
            continue
        n = cjk_count(text)
        cjk += n * CJK_LETTER_EQUIV
        letters += len(_LETTER.findall(text)) - n
    total = cjk + letters
    cjk_share = cjk / total if total else 0.0
    mostly = "none" if not total else ("cjk" if cjk_share >= 0.5 else "alpha")
    return Fit(s.model_label, describe(langs), mostly, round(cjk_share, 3), not reads(langs, mostly))
