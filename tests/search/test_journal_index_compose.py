"""Journal indexing: each turn's text goes through the model once; context is mixed in as vectors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.embeddings import NumpyBertEncoder, index_needs_torch, resolve_model_path
from memsearch_tui.engine.search.indexer import CONTEXT_WEIGHT, SMALL_BATCH, SMALL_BUILD, sync_chunks, sync_vectors

TURNS = [
    "Chose Postgres for the orders service",
    "Wrote the migration for the invoices table",
    "Benchmarked pgbouncer in transaction mode",
    "User asked for shorter commit messages",
    "Renamed the billing queue to payments",
    "Fixed the flaky login test with a fake clock",
]


def journal(turns: list[str]) -> str:
    out = "# 2024-06-02\n\n## Session 09:00\n"
    for i, text in enumerate(turns):
        out += f"\n### 09:{i:02d}\n<!-- session:s turn:{i} transcript:/t.jsonl -->\n- {text}\n"
    return out


def own_text(i: int, text: str) -> str:
    """A turn's own text as documented: the day once, the heading path without the parts that
    only tell the time (``Session 09:00``, ``09:03``) or repeat the day, its lines without the
    anchor and without its heading line repeated."""
    return f"2024-06-02\n- {text}"


class Counting:
    """The real index encoder, counting the texts it is given."""

    def __init__(self, inner) -> None:
        self.inner, self.dim, self.texts = inner, inner.dim, []

    def encode(self, texts):
        self.texts += list(texts)
        return self.inner.encode(texts)


def run_index(s: Searcher, enc: Counting):
    rep = sync_chunks(s.s, s.manifest)
    rep.embedded, _ = sync_vectors(s.s, s.manifest, s.vectors, lambda n: enc)
    return rep


def stored_vectors(s: Searcher) -> dict[str, np.ndarray]:
    rows = s.manifest.db.execute("SELECT heading, vec FROM chunks WHERE embedded=1 ORDER BY start")
    return {head: np.frombuffer(blob, dtype=np.float32) for head, blob in rows}


def test_turn_vector_is_own_vector_plus_weighted_neighbours(tmp_path, data_dir):
    project = tmp_path / "proj"
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    (mem / "2024-06-02.md").write_text(journal(TURNS), encoding="utf-8")
    model = NumpyBertEncoder(resolve_model_path(None))
    enc = Counting(model)
    with Searcher(tmp_path / "memory", project) as s:
        run_index(s, enc)
        got = stored_vectors(s)
    # the documented method, computed here from scratch: each turn's own text is
    # "<day>\n<its lines>" (no heading part tells more here); its vector adds CONTEXT_WEIGHT × the own
    # vectors of up to two turns either side, then is L2-normalised.
    own_texts = [own_text(i, t) for i, t in enumerate(TURNS)]
    own = model.encode(own_texts)
    assert sorted(enc.texts) == sorted(own_texts)  # every turn embedded once, alone
    for i in range(len(TURNS)):
        v = own[i] + CONTEXT_WEIGHT * sum(own[j] for j in range(max(0, i - 2), min(len(TURNS), i + 3)) if j != i)
        want = v / np.linalg.norm(v)
        head = f"# 2024-06-02 > ## Session 09:00 > ### 09:{i:02d}"
        assert np.allclose(got[head], want, atol=1e-5), head


def test_a_new_turn_embeds_one_text_and_recomposes_its_neighbours(tmp_path, data_dir):
    project = tmp_path / "proj"
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    path = mem / "2024-06-02.md"
    path.write_text(journal(TURNS[:5]), encoding="utf-8")
    model = NumpyBertEncoder(resolve_model_path(None))
    with Searcher(tmp_path / "memory", project) as s:
        first = Counting(model)
        run_index(s, first)
        assert len(first.texts) == 5
        before = stored_vectors(s)
        path.write_text(journal(TURNS), encoding="utf-8")  # the hook appended turn 6
        second = Counting(model)
        rep = run_index(s, second)
        after = stored_vectors(s)
        assert second.texts == [own_text(5, TURNS[5])]
        assert rep.embedded == 3  # the new turn, and the two whose context now includes it
        changed = {h for h in before if not np.allclose(before[h], after[h])}
        assert changed == {"# 2024-06-02 > ## Session 09:00 > ### 09:03", "# 2024-06-02 > ## Session 09:00 > ### 09:04"}
        assert s.vectors.count() == 6


def test_a_moved_file_reuses_its_vectors_without_the_model(tmp_path, data_dir):
    project = tmp_path / "proj"
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    (mem / "2024-06-02.md").write_text(journal(TURNS), encoding="utf-8")
    model = NumpyBertEncoder(resolve_model_path(None))
    with Searcher(tmp_path / "memory", project) as s:
        run_index(s, Counting(model))
        before = sorted(v.tobytes() for v in stored_vectors(s).values())
        (mem / "2024-06-02.md").rename(mem / "2024-06-02-laptop.md")
        moved = Counting(model)
        rep = run_index(s, moved)
        assert moved.texts == [] and rep.embedded == len(TURNS)  # new ids (new path), same vectors
        assert sorted(v.tobytes() for v in stored_vectors(s).values()) == before
        assert s.vectors.count() == len(TURNS)
        assert s.manifest.db.execute("SELECT count(*) FROM textvecs").fetchone()[0] == len(TURNS)


# The encoder rule's two thresholds, lowered in the child process: the rule is what is tested,
# and a bulk build past the real SMALL_BUILD (400 chunks) in emulated bfloat16 cost ~40 s of
# CPU. Were a threshold read from elsewhere than ``indexer``, the expectation would not hold
# and the test would fail.
SMALL_BATCH_T, SMALL_BUILD_T = 12, 32
assert SMALL_BATCH_T < SMALL_BATCH and SMALL_BUILD_T < SMALL_BUILD


CASES = {"small-index": 2, "small-build": SMALL_BATCH_T + 6, "bulk-index": SMALL_BUILD_T + 6}  # turns


@pytest.mark.slow  # a model load per side; the bulk case on the bf16 side loads torch
def test_indexing_loads_torch_only_where_the_encoder_rule_says(memory, cpu_bf16):
    """`vectors index` with the default model and `index_precision = "auto"`: a small batch
    goes through the torch-free query encoder, a small build (up to ``SMALL_BUILD`` chunks,
    what a fresh project's first meaning search embeds) through the numpy bulk encoder; a
    bigger one through ``index_encoder``, which is torch only on a CPU with native bfloat16.
    Expected from that rule, for both answers of ``native_bf16()`` (the ``cpu_bf16``
    fixture), never from this machine's CPU. One child process indexes the three cases'
    projects in this order, what it imported read after each (a child per case started
    Python, the engine and Milvus Lite six times: ~5 s of CPU)."""
    root, project = memory
    places = []
    for case, turns in CASES.items():
        here = root.parent / case
        shutil.copytree(root, here / "memory")
        shutil.copytree(project, here / "proj")
        day = here / "proj" / ".memsearch" / "memory" / "2024-06-02.md"
        day.write_text(journal([f"Turn {i} about topic {i}" for i in range(turns)]), encoding="utf-8")
        places.append([str(here / "memory"), str(here / "proj")])
    code = (
        "import json, sys\nfrom pathlib import Path\nfrom memsearch_tui.engine.search import Searcher, indexer\n"
        f"indexer.SMALL_BATCH, indexer.SMALL_BUILD = {SMALL_BATCH_T}, {SMALL_BUILD_T}\n"
        "for root, project in json.loads(sys.argv[1]):\n"
        "    s = Searcher(Path(root), Path(project)); rep = s.index(); s.close()\n"
        "    print(json.dumps([rep.embedded, 'torch' in sys.modules, 'sentence_transformers' in sys.modules]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(places)],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        check=True,
    )
    seen = [json.loads(line) for line in out.stdout.splitlines()[-len(CASES) :]]
    for (case, turns), (embedded, torch_loaded, st_loaded) in zip(CASES.items(), seen, strict=True):
        assert embedded > turns, case
        torch_expected = embedded > SMALL_BUILD_T and index_needs_torch(resolve_model_path(None))
        assert torch_loaded == torch_expected, case
        assert torch_expected == (turns > SMALL_BUILD_T and cpu_bf16), case  # the rule, spelled out for this model
        assert not st_loaded, case  # the bundled model never needs sentence-transformers (nor `transformers`) to index


def test_progress_is_monotone_and_ends_at_its_total(tmp_path, data_dir):
    project = tmp_path / "proj"
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    (mem / "2024-06-02.md").write_text(journal(TURNS), encoding="utf-8")
    calls: list[tuple[int, int]] = []
    with Searcher(tmp_path / "memory", project) as s:
        sync_chunks(s.s, s.manifest)
        model = NumpyBertEncoder(resolve_model_path(None))
        sync_vectors(s.s, s.manifest, s.vectors, lambda n: model, progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1] == (len(TURNS), len(TURNS))  # 6 texts embedded (not also the 6 vectors written)
    assert all(a[0] < b[0] and a[1] == b[1] for a, b in zip(calls, calls[1:]))


def test_an_index_of_the_longer_own_texts_is_rechunked_once(tmp_path, data_dir):
    """An index built before the own text lost ``Session HH:MM`` and the repeated day re-chunks
    (and so re-embeds) every file once, even unchanged ones: no index mixes both kinds."""
    project = tmp_path / "proj"
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    (mem / "2024-06-02.md").write_text(journal(TURNS[:2]), encoding="utf-8")
    with Searcher(tmp_path / "memory", project) as s:
        m = s.manifest
        sync_chunks(s.s, m)
        marker = m.get_meta("chunking")
        old = "2024-06-02\n2024-06-02 > Session 09:00\n- "  # what the earlier chunker embedded
        m.set_meta("chunking", marker.replace(":own3:", ":own2:"))
        m.db.execute("UPDATE chunks SET own_text = replace(own_text, '2024-06-02\n- ', ?)", (old,))
        m.commit()
        assert sync_chunks(s.s, m).new_chunks == 2  # the unchanged file, chunked again
        assert sorted(t for (t,) in m.db.execute("SELECT own_text FROM chunks")) == sorted(
            own_text(i, t) for i, t in enumerate(TURNS[:2])
        )
        assert m.get_meta("chunking") == marker
