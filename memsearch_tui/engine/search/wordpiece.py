"""BERT's WordPiece tokenizer for ASCII text, in plain Python: a query's token ids without
loading the ``tokenizers`` library.

Why: a CLI search encodes one short query. Importing ``tokenizers`` and building its
``Tokenizer`` from ``tokenizer.json`` costs ~65 ms here, more than the forward pass; reading
the vocabulary from the same file and tokenizing a sentence in Python costs ~15 ms. This
class reproduces exactly what ``tokenizers`` does for a BERT tokenizer (``BertNormalizer``
with ``clean_text``, ``BertPreTokenizer``, ``WordPiece``, ``[CLS] … [SEP]``, truncation) —
but only for text it is sure about: ASCII without any of the tokenizer's added tokens
(``[MASK]`` typed in a query is matched as a special token by ``tokenizers``). For any other
text :meth:`ids` returns None and the caller uses ``tokenizers``.
``tests/search/test_wordpiece.py`` compares the ids with ``tokenizers`` on thousands of strings.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.digest import sha1_hex
from memsearch_tui.engine.core.safe_io import load_json

_WORD = re.compile(r"[A-Za-z0-9]+|[!-/:-@\[-`{-~]")  # after cleaning: words, and each ASCII punctuation alone
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]")  # removed by clean_text (\t \n \r become spaces)
CACHE_VERSION = 1  # of the kept tokenizer's layout (``AsciiWordPiece._keep``)
TOKENIZER_BYTES = 8 * 1024 * 1024  # a WordPiece tokenizer.json is ~0.5-1 MB; larger ones are not BERT's


class AsciiWordPiece:
    """Token ids of ASCII text as a BERT ``tokenizer.json`` gives them (see the module doc)."""

    def __init__(
        self,
        vocab: dict[str, int],
        *,
        unk: int,
        cls: int,
        sep: int,
        lowercase: bool,
        prefix: str,
        max_chars: int,
        added: tuple[str, ...],
        max_len: int,
    ) -> None:
        self.vocab, self.unk, self.cls, self.sep = vocab, unk, cls, sep
        self.lowercase, self.prefix, self.max_chars = lowercase, prefix, max_chars
        self.added, self.max_len = added, max_len

    @classmethod
    def load(cls, path: Path, max_len: int, cache_dir: Path | None = None) -> AsciiWordPiece | None:
        """The tokenizer of ``path`` (a ``tokenizer.json``), or None when it is not a plain
        BERT WordPiece one this class reproduces (then use ``tokenizers``).

        ``cache_dir``: where the parsed vocabulary is kept, keyed by the file's path, size
        and mtime. A one-shot query process spent ~20 ms parsing the 466 KB JSON; the kept
        list of tokens reads in ~5 ms. It is derived: a stale or damaged one is rebuilt."""
        try:
            kept = None if cache_dir is None else cls._kept(path, max_len, cache_dir)
            if kept is not None:
                return kept
            tok = cls._from_spec(load_json(path, TOKENIZER_BYTES), max_len)
            if tok is not None and cache_dir is not None:
                tok._keep(path, cache_dir)
            return tok
        except (OSError, ValueError, KeyError, TypeError):
            return None

    @staticmethod
    def _cache_file(path: Path, cache_dir: Path) -> tuple[Path, list[int]]:
        source = path.resolve()
        st = source.stat()
        digest = sha1_hex(str(source).encode())[:16]  # no OpenSSL: a one-shot search names one file
        return cache_dir / f"wordpiece-{digest}.json", [CACHE_VERSION, st.st_size, st.st_mtime_ns]

    @classmethod
    def _kept(cls, path: Path, max_len: int, cache_dir: Path) -> AsciiWordPiece | None:
        """The kept tokenizer of ``path`` if it is there and was made from this very file."""
        file, stamp = cls._cache_file(path, cache_dir)
        try:
            kept = load_json(file, TOKENIZER_BYTES)
            if not isinstance(kept, dict) or kept.get("stamp") != stamp:
                return None
            tokens, added = kept["tokens"], kept["added"]
            if not isinstance(tokens, list) or set(map(type, tokens)) | set(map(type, added)) != {str}:
                return None  # (checked in C: a Python loop over 30k tokens took ~3 ms of a query)
            vocab = dict(zip(tokens, range(len(tokens))))
            return cls(
                vocab, unk=int(kept["unk"]), cls=int(kept["cls"]), sep=int(kept["sep"]),
                lowercase=bool(kept["lowercase"]), prefix=str(kept["prefix"]), max_chars=int(kept["max_chars"]),
                added=tuple(added), max_len=max_len,
            )  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _keep(self, path: Path, cache_dir: Path) -> None:
        """Write the parsed tokenizer for the next process (ids 0…n-1 only: a list of tokens
        in id order is then the whole vocabulary). A data dir that can't be written is fine."""
        import json

        from memsearch_tui.engine.core.atomic import atomic_write_text

        tokens = sorted(self.vocab, key=self.vocab.__getitem__)
        if [self.vocab[t] for t in tokens] != list(range(len(tokens))):
            return
        file, stamp = self._cache_file(path, cache_dir)
        fields: dict[str, object] = {"unk": self.unk, "cls": self.cls, "sep": self.sep, "lowercase": self.lowercase}
        fields |= {"prefix": self.prefix, "max_chars": self.max_chars, "added": list(self.added)}
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(file, json.dumps({"stamp": stamp, **fields, "tokens": tokens}, ensure_ascii=False))
        except OSError:
            pass

    @classmethod
    def _from_spec(cls, spec: dict[str, Any], max_len: int) -> AsciiWordPiece | None:
        norm, pre, model, post = spec["normalizer"], spec["pre_tokenizer"], spec["model"], spec["post_processor"]
        if not (
            isinstance(norm, dict)
            and norm.get("type") == "BertNormalizer"
            and norm.get("clean_text") is True
            and isinstance(pre, dict)
            and pre.get("type") == "BertPreTokenizer"
            and model.get("type") == "WordPiece"
            and isinstance(model.get("vocab"), dict)
        ):
            return None
        vocab: dict[str, int] = model["vocab"]
        ends = _special_ends(post)
        if ends is None or model["unk_token"] not in vocab:
            return None
        added = tuple(str(t["content"]) for t in spec.get("added_tokens") or ())
        return cls(
            vocab,
            unk=vocab[model["unk_token"]],
            cls=ends[0],
            sep=ends[1],
            lowercase=bool(norm.get("lowercase", True)),
            prefix=str(model.get("continuing_subword_prefix", "##")),
            max_chars=int(model.get("max_input_chars_per_word", 100)),
            added=added,
            max_len=max_len,
        )

    def ids(self, text: str) -> list[int] | None:
        """``[CLS] … [SEP]`` ids of ``text`` truncated to ``max_len``; None: not ASCII, or it
        holds an added token (``tokenizers`` must do it)."""
        if not text.isascii() or any(a in text for a in self.added):
            return None
        text = _CONTROL.sub("", text)
        if self.lowercase:
            text = text.lower()
        out = [self.cls]
        room = self.max_len - 2
        for word in _WORD.findall(text):
            out += self._pieces(word)
            if len(out) > room:
                del out[room + 1 :]
                break
        out.append(self.sep)
        return out

    def _pieces(self, word: str) -> list[int]:
        """Greedy longest-match-first WordPiece (``##`` after the first piece); a word with
        a part no piece covers, or longer than ``max_chars``, is one unknown token."""
        if len(word) > self.max_chars:
            return [self.unk]
        out: list[int] = []
        start, n = 0, len(word)
        while start < n:
            end = n
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else self.prefix + word[start:end]
                found = self.vocab.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return [self.unk]
            out.append(found)
            start = end
        return out


def _special_ends(post: Any) -> tuple[int, int] | None:
    """(CLS id, SEP id) of a ``[CLS] $A [SEP]`` post-processor, else None."""
    if not isinstance(post, dict):
        return None
    if post.get("type") == "BertProcessing":
        return int(post["cls"][1]), int(post["sep"][1])
    if post.get("type") != "TemplateProcessing":
        return None
    single = post.get("single") or []
    if len(single) != 3 or "SpecialToken" not in single[0] or "Sequence" not in single[1]:
        return None
    if "SpecialToken" not in single[2]:
        return None
    first, last = single[0]["SpecialToken"]["id"], single[2]["SpecialToken"]["id"]
    specials = post.get("special_tokens") or {}
    for name in (first, last):  # each must be exactly one token
        if len(specials.get(name, {}).get("ids", [])) != 1:
            return None
    return int(specials[first]["ids"][0]), int(specials[last]["ids"][0])
