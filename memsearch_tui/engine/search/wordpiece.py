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
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.safe_io import load_json, loads_json, read_capped

_WORD = re.compile(r"[A-Za-z0-9]+|[!-/:-@\[-`{-~]")  # after cleaning: words, and each ASCII punctuation alone
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]")  # removed by clean_text (\t \n \r become spaces)
CACHE_VERSION = 2  # of the kept tokenizer's layout (``AsciiWordPiece._keep``; 2: sorted, see SortedVocab)
TOKENIZER_BYTES = 8 * 1024 * 1024  # a WordPiece tokenizer.json is ~0.5-1 MB; larger ones are not BERT's


class SortedVocab:
    """A vocabulary kept as its tokens in sorted order, one text, with where each starts and
    its id: ``get`` by binary search over slices of that text.

    Why: a one-shot query looks up a few dozen pieces, and making 30k token strings (or a
    30k-entry dict of them) from the kept file cost more than the look-ups ever do: ~7 ms of
    a CLI search, against ~0.3 ms to read this form (``AsciiWordPiece._keep`` writes it)."""

    def __init__(self, text: str, starts: Any, ids: Any) -> None:
        self.text, self.starts, self.ids = text, starts, ids
        self.n = len(ids)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> str:
        return self.text[self.starts[i] : self.starts[i + 1] - 1]

    def get(self, piece: str) -> int | None:
        from bisect import bisect_left

        i = bisect_left(self, piece, 0, self.n)
        if i < self.n and self[i] == piece:
            found = int(self.ids[i])
            return found if 0 <= found < self.n else None  # a damaged file: an unknown piece, never a bad row
        return None


class AsciiWordPiece:
    """Token ids of ASCII text as a BERT ``tokenizer.json`` gives them (see the module doc)."""

    def __init__(
        self,
        vocab: dict[str, int] | SortedVocab,
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
        name = f"wordpiece-{digest}-v{CACHE_VERSION}.json"  # each layout its own file: two versions installed do not rewrite one
        return cache_dir / name, [CACHE_VERSION, st.st_size, st.st_mtime_ns]

    @classmethod
    def _kept(cls, path: Path, max_len: int, cache_dir: Path) -> AsciiWordPiece | None:
        """The kept tokenizer of ``path`` if it is there and was made from this very file."""
        file, stamp = cls._cache_file(path, cache_dir)
        try:
            head, _, body = read_capped(file, TOKENIZER_BYTES).partition(b"\n")
            kept = loads_json(head.decode("utf-8"))
            if not isinstance(kept, dict) or kept.get("stamp") != stamp:
                return None
            vocab = _sorted_vocab(body.decode("utf-8"), kept["starts"], kept["ids"])
            added = kept["added"]
            if vocab is None or not isinstance(added, list) or set(map(type, added)) - {str}:
                return None
            unk, cls_, sep, max_chars = (kept[key] for key in ("unk", "cls", "sep", "max_chars"))
            ids_fit = all(type(v) is int and 0 <= v < len(vocab) for v in (unk, cls_, sep))
            if not ids_fit or type(max_chars) is not int or max_chars < 1:  # damaged: an id past the
                return None  # model's table was an IndexError in the encoder, a 1e400 an OverflowError
            return cls(
                vocab, unk=unk, cls=cls_, sep=sep,
                lowercase=bool(kept["lowercase"]), prefix=str(kept["prefix"]), max_chars=max_chars,
                added=tuple(added), max_len=max_len,
            )  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError, InvalidInput):  # InvalidInput: not a regular file, too big
            return None

    def _keep(self, path: Path, cache_dir: Path) -> None:
        """Write the parsed tokenizer for the next process (ids 0…n-1 only: a list of tokens
        in id order is then the whole vocabulary). A data dir that can't be written is fine."""
        import json
        from array import array
        from binascii import b2a_base64

        from memsearch_tui.engine.core.atomic import atomic_write_text

        if not isinstance(self.vocab, dict) or any("\n" in t for t in self.vocab):
            return
        if sorted(self.vocab.values()) != list(range(len(self.vocab))):
            return  # ids with a gap or a repeat: the kept form refuses ids past n (SortedVocab.get)
        tokens = sorted(self.vocab)
        ids = array("i", [self.vocab[t] for t in tokens])
        starts = array("i", [0])
        for t in tokens:
            starts.append(starts[-1] + len(t) + 1)
        file, stamp = self._cache_file(path, cache_dir)
        fields: dict[str, object] = {"unk": self.unk, "cls": self.cls, "sep": self.sep, "lowercase": self.lowercase}
        fields |= {"prefix": self.prefix, "max_chars": self.max_chars, "added": list(self.added)}
        fields |= {
            key: b2a_base64(a.tobytes(), newline=False).decode("ascii") for key, a in (("ids", ids), ("starts", starts))
        }
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            head = json.dumps({"stamp": stamp, **fields})  # one line, then the tokens, one a line
            atomic_write_text(file, head + "\n" + "".join(t + "\n" for t in tokens))
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


def _sorted_vocab(text: str, starts_b64: object, ids_b64: object) -> SortedVocab | None:
    """The kept vocabulary, or None when its parts do not fit together (a damaged file: the
    caller parses ``tokenizer.json`` again). Only what is checked in O(1): a full check of
    30k tokens would cost what the form saves; a bad id is refused at look-up."""
    from array import array
    from binascii import a2b_base64

    if not isinstance(starts_b64, str) or not isinstance(ids_b64, str):
        return None
    ids, starts = array("i"), array("i")
    ids.frombytes(a2b_base64(ids_b64))
    starts.frombytes(a2b_base64(starts_b64))
    if not ids or len(starts) != len(ids) + 1 or starts[0] != 0 or starts[-1] != len(text):
        return None
    return SortedVocab(text, starts, ids)


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
