"""Resident BM25: FTS5's keyword ranking, computed from an in-memory inverted index.

Why: FTS5 scores every row that holds any query term before it can sort. On the 100k-chunk
benchmark corpus a common term is in ~17k chunks, so one keyword query cost ~45 ms, most
of the hybrid search budget (issue 5: p50 ≤ 30 ms). Here the same scores come from
postings arrays with numpy in a few milliseconds.

Same semantics as :meth:`.manifest.Manifest.keyword`, by construction:

- the documents are the FTS5 table's own stored token columns (head, body, ctx), and
  every word is turned into terms by FTS5's own tokenizer (``porter unicode61``), run in
  a private in-memory SQLite — no second stemmer to drift;
- the score is FTS5's ``bm25()``: k1 = 1.2, b = 0.75, IDF ``log((N - n + 0.5) / (n +
  0.5))`` floored at 1e-6, term frequency weighted per column, document length = tokens
  in all columns, and N, n and the average length over the whole table (not the filtered
  rows), each query token being one phrase;
- a query token FTS5 would split into several terms (a phrase) is left to FTS5:
  :meth:`KeywordIndex.rank` returns ``None`` and the caller runs the SQL query.

It is derived data. A copy is cached on disk next to the manifest (``*.bm25.npz``,
written atomically) with the manifest's ``fts_epoch`` and change-log position; a new
process loads it and applies the manifest's ``fts_log`` (rows added/removed since), so a
changed file costs its own rows only. A missing, damaged or foreign cache, a new epoch,
or a log trimmed past the cache's position means a full rebuild from the manifest.

The cache is loaded memory-mapped, not read (issue 37 item 5: at 1M chunks reading the
3 GB file made the first keyword query take 28.9 s): it is an uncompressed ``.npz`` whose
members' data are aligned in the file (:func:`_write_npz`), and each array is an
``np.memmap`` over its place (:func:`_map_npz`; a cache of the old ``np.savez`` writer maps
too). A query reads only its terms' postings. The structure is checked at load (sizes,
types, offsets), the postings as queries read them (:meth:`KeywordIndex._damaged`): the
zip's CRC is not, as it would mean reading the whole file.

Its cost grows with the postings (distinct terms a row), not only the rows. The rebuild is
streamed (:meth:`KeywordIndex._build`): beside the final arrays (12 bytes a posting, the
same as the cache on disk) it holds one batch of rows' postings, so a million chunks fit
where holding them all at once passed 8 GB. Measured (benchmarks/README.md, Session 16,
a loaded machine: CPU seconds): the cost curve's journal turns, ~250 postings a chunk
(each carries its neighbours' text): ~2 CPU s and 250 MB at 10k chunks, ~20 CPU s and
480 MB peak RSS at 100k (2.3 GB before the streaming); short store entries (search_speed's
100k corpus): ~5 s. Loading the cache (mapped): ~0.01 s even at 1M (it was 7 s, read whole).
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

from memsearch_tui.engine.search.manifest import BODY_WEIGHT, CTX_WEIGHT, FTS_TOKENIZE, HEAD_WEIGHT, Manifest

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

K1, B = 1.2, 0.75  # FTS5's bm25() constants
FORMAT = 1
REBUILD_SHARE = 0.05  # rows changed since the cached base (share of all rows) that trigger a rebuild
REBUILD_MIN = 2000
TOKENIZE_BATCH = 4096  # rows counted and stemmed together while building


class Stemmer:
    """Words → FTS5 terms with FTS5's own tokenizer, in a private in-memory SQLite."""

    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute(f"CREATE VIRTUAL TABLE w USING fts5(t, tokenize='{FTS_TOKENIZE}')")
        self.db.execute("CREATE VIRTUAL TABLE wv USING fts5vocab(w, instance)")
        self.known: dict[str, tuple[str, ...]] = {}

    def terms(self, words: Sequence[str]) -> dict[str, tuple[str, ...]]:
        if len(self.known) > 1_000_000:  # a bound for a very long-lived Searcher
            self.known.clear()
        todo = [w for w in dict.fromkeys(words) if w not in self.known]
        if todo:
            self.db.execute("DELETE FROM w")
            self.db.executemany("INSERT INTO w(rowid, t) VALUES (?, ?)", enumerate(todo, 1))
            found: dict[int, list[tuple[int, str]]] = {}
            for term, doc, offset in self.db.execute("SELECT term, doc, offset FROM wv"):
                found.setdefault(doc, []).append((offset, term))
            for i, word in enumerate(todo, 1):
                self.known[word] = tuple(t for _, t in sorted(found.get(i, ())))
            self.db.commit()
        return {w: self.known[w] for w in words}


def cache_path(manifest: Manifest) -> Path:
    return manifest.path.with_name(manifest.path.stem + ".bm25.npz")


class KeywordIndex:
    """Postings per term (slots and column-weighted term frequencies) plus per-row columns."""

    def __init__(self, manifest: Manifest, stemmer: Stemmer | None = None) -> None:
        import numpy as np

        self.np = np
        self.path = cache_path(manifest)
        self.stemmer = stemmer or Stemmer()
        self.rebuilt = False  # True when this instance had to rebuild (for tests and benchmarks)
        self.damaged = False  # a query read postings that cannot be right: rebuild at the next catch_up
        self.checked: set[int] | None = (
            set()
        )  # terms whose postings read from the cache were checked (:meth:`_damaged`)
        if not self._load(manifest):
            self._build(manifest)
        self.catch_up(manifest)

    # -- building ---------------------------------------------------------------------
    def _build(self, manifest: Manifest) -> None:
        """Every row's postings, in bounded memory: each batch of rows is tokenized, its
        postings summed per (term, row) and sorted by term, and written to an anonymous
        temporary file beside the cache; then the final arrays are allocated once and each
        batch's runs are copied into their terms' places. At most one batch's postings are
        in memory besides the final arrays (which the cache holds anyway).

        A disk that refuses the temporary file (full, read-only) does not stop the search:
        the build starts again with the batches set aside in memory, as before the
        streaming (the cache's save then fails too, and costs only the next rebuild)."""
        import io
        import tempfile

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=self.path.parent, prefix=".bm25-build-") as spill:
                self._build_with(manifest, spill)
        except OSError:
            with io.BytesIO() as memory:
                self._build_with(manifest, memory)

    def _build_with(self, manifest: Manifest, spill: BinaryIO) -> None:
        """:meth:`_build` with each batch's postings set aside in ``spill``."""
        np = self.np
        self._reset_rows()
        term_ids: dict[str, int] = {}
        runs: list[tuple[NDArray[numpy.int64], NDArray[numpy.int64]]] = []  # per batch: its terms, their counts
        rows: list[_Rows] = []
        with _snapshot(manifest.db):  # rows streamed in batches: the texts are never all in memory
            epoch, seq, _ = manifest.fts_position()
            cur = manifest.db.execute(
                "SELECT f.rowid, f.head, f.body, f.ctx, c.scope, c.kind, c.entry_id FROM fts f LEFT JOIN chunks c ON c.rid = f.rowid"
            )
            base = 0
            while batch := cur.fetchmany(TOKENIZE_BATCH):
                part, (slot, tid, freq) = self._tokenize(batch, term_ids, base)
                rows.append(part)
                base += len(batch)
                _held(len(slot))
                tids, counts, slot, freq = _per_term(np, slot, tid, freq)
                runs.append((tids, counts))
                spill.write(memoryview(slot))
                spill.write(memoryview(freq))
                del slot, tid, freq
        self._append_rows(rows)
        del rows
        self.epoch, self.seq = epoch, seq
        self.terms = term_ids
        per_term = np.zeros(len(term_ids), np.int64)
        for tids, counts in runs:
            np.add.at(per_term, tids, counts)
        self.indptr = np.concatenate([np.zeros(1, np.int64), np.cumsum(per_term)])
        total = int(self.indptr[-1])
        self.post_slot = np.empty(total, np.int32)
        self.post_f = np.empty(total, np.float64)
        nxt = self.indptr[:-1].copy()  # where each term's next posting goes
        spill.seek(0)
        for tids, counts in runs:  # batches in row order: each term's slots stay ascending
            m = int(counts.sum())
            slot = np.frombuffer(spill.read(4 * m), np.int32)
            freq = np.frombuffer(spill.read(8 * m), np.float64)
            first = np.cumsum(counts) - counts  # each term's first posting within this batch
            dest = np.repeat(nxt[tids] - first, counts) + np.arange(m)
            self.post_slot[dest] = slot
            self.post_f[dest] = freq
            nxt[tids] += counts
        self.delta: dict[int, tuple[list[int], list[float]]] = {}
        self.changed = 0
        self.rebuilt = True
        self.damaged = False
        self.checked = None  # built here, not read from a file: nothing to check
        self._save()

    def _reset_rows(self) -> None:
        np = self.np
        self.rids = np.zeros(0, np.int64)
        self.dl = np.zeros(0, np.float64)
        self.alive = np.zeros(0, bool)
        self.scope = np.zeros(0, np.int32)
        self.is_entry = np.zeros(0, bool)
        self.entries = np.zeros(0, dtype=str)
        self.scope_names: list[str] = []
        self._slot_of: dict[int, int] | None = {}

    def _append_rows(self, parts: list[_Rows]) -> None:
        """Append the per-row columns of ``parts`` (each array joined once, not grown per batch)."""
        np = self.np
        if not parts:
            return
        self.rids = np.concatenate([self.rids, *(p.rids for p in parts)])
        self.dl = np.concatenate([self.dl, *(p.dl for p in parts)])
        self.alive = np.concatenate([self.alive, np.ones(sum(len(p.rids) for p in parts), bool)])
        self.scope = np.concatenate([self.scope, *(p.scope for p in parts)])
        self.is_entry = np.concatenate([self.is_entry, *(p.is_entry for p in parts)])
        entries = [e for p in parts for e in p.entries]
        self.entries = np.concatenate([self.entries, np.array(entries, dtype=str)]) if entries else self.entries

    def _tokenize(
        self, rows: list[tuple[Any, ...]], term_ids: dict[str, int], base: int
    ) -> tuple[_Rows, tuple[NDArray[numpy.int32], NDArray[numpy.int32], NDArray[numpy.float64]]]:
        """``rows`` (rowid, head, body, ctx, scope, kind, entry_id) as slots ``base``, ``base + 1``…

        Returns their per-row columns and the (slot, term id, weighted frequency) triples of
        their postings, one per distinct word of each column (several words may stem to one
        term; :func:`_per_term` sums them). The counting is C-level (``Counter``), the rest numpy.
        """
        from collections import Counter

        np = self.np
        weights = (HEAD_WEIGHT, BODY_WEIGHT, CTX_WEIGHT)
        keys: list[str] = []
        cnts: list[int] = []
        sizes: list[int] = []
        for row in rows:
            for text in row[1:4]:
                c = Counter((text or "").split())
                keys.extend(c)
                cnts.extend(c.values())
                sizes.append(len(c))
        stems = self.stemmer.terms(list(set(keys)))
        for toks in stems.values():
            for t in toks:
                if t not in term_ids:
                    term_ids[t] = len(term_ids)
        group = np.arange(len(sizes))
        slot = np.repeat(base + group // 3, sizes)
        wcol = np.repeat(np.array(weights * len(rows), np.float64), sizes) if rows else np.zeros(0)
        cnt = np.array(cnts, np.float64)
        idmap = {w: (term_ids[t[0]] if len(t) == 1 else -1) for w, t in stems.items()}  # -1: not one term
        tid = np.fromiter(map(idmap.__getitem__, keys), np.int64, len(keys))
        multi = any(len(t) != 1 for t in stems.values())
        nterms = np.fromiter((len(stems[w]) for w in keys), np.float64, len(keys)) if multi else np.ones(len(keys))
        lengths = (
            np.bincount(slot - base, weights=cnt * nterms, minlength=len(rows)) if len(keys) else np.zeros(len(rows))
        )
        keep = tid >= 0
        out_s, out_t, out_f = [slot[keep]], [tid[keep]], [(wcol * cnt)[keep]]
        for i in np.flatnonzero(~keep).tolist():  # a word FTS5 splits into several terms (or none)
            for t in stems[keys[i]]:
                out_s.append(slot[i : i + 1])
                out_t.append(np.array([term_ids[t]], np.int64))
                out_f.append((wcol * cnt)[i : i + 1])
        code = {name: i for i, name in enumerate(self.scope_names)}
        scopes = []
        for row in rows:
            if row[4] is None:  # an FTS row without its chunk: counted in the statistics, never returned
                scopes.append(-1)
                continue
            if row[4] not in code:
                code[row[4]] = len(self.scope_names)
                self.scope_names.append(row[4])
            scopes.append(code[row[4]])
        part = _Rows(
            rids=np.array([r[0] for r in rows], np.int64),
            dl=lengths.astype(np.float64),
            scope=np.array(scopes, np.int32),
            is_entry=np.array([r[5] == "entry" for r in rows], bool),
            entries=[r[6] or "" for r in rows],
        )
        for i, row in enumerate(rows):
            self.slot_of[row[0]] = base + i
        triples = (
            np.concatenate(out_s).astype(np.int32),
            np.concatenate(out_t).astype(np.int32),
            np.concatenate(out_f),
        )
        return part, triples

    # -- keeping up -------------------------------------------------------------------
    @property
    def slot_of(self) -> dict[int, int]:
        """Chunk rid → its slot (for the change log's removals)."""
        if self._slot_of is None:
            self._slot_of = {int(r): i for i, r in enumerate(self.rids.tolist())}
        return self._slot_of

    def catch_up(self, manifest: Manifest) -> None:
        """Apply the manifest's changes since this index was built (or rebuild if too far behind)."""
        epoch, seq, floor = manifest.fts_position()
        if epoch == self.epoch and seq == self.seq and not self.damaged:
            return
        if epoch != self.epoch or floor > self.seq or self.damaged:
            self._build(manifest)
            return
        with _snapshot(manifest.db):
            epoch, seq, floor = manifest.fts_position()
            if epoch != self.epoch or floor > self.seq:
                log = None
            else:
                log = manifest.db.execute(
                    "SELECT rid, added FROM fts_log WHERE seq > ? AND seq <= ? ORDER BY seq", (self.seq, seq)
                ).fetchall()
                added: dict[int, None] = {}
                removed: list[int] = []
                for rid, add in log:
                    if add:
                        added[rid] = None
                    elif rid in added:
                        del added[rid]
                    else:
                        removed.append(rid)
                rows = []
                ids = list(added)
                for i in range(0, len(ids), 500):
                    part = ids[i : i + 500]
                    rows += manifest.db.execute(
                        "SELECT f.rowid, f.head, f.body, f.ctx, c.scope, c.kind, c.entry_id FROM fts f LEFT JOIN chunks c ON c.rid = f.rowid "
                        f"WHERE f.rowid IN ({','.join('?' * len(part))})",
                        part,
                    ).fetchall()
        if log is None or self.changed + len(log) > max(REBUILD_MIN, REBUILD_SHARE * len(self.rids)):
            self._build(manifest)
            return
        for rid in removed:
            slot = self.slot_of.pop(rid, None)
            if slot is not None:
                self.alive[slot] = False
        new_rows, (slots, tids, freqs) = self._tokenize(rows, self.terms, len(self.rids))
        self._append_rows([new_rows])
        for s, t, f in zip(slots.tolist(), tids.tolist(), freqs.tolist()):
            d = self.delta.setdefault(t, ([], []))
            if d[0] and d[0][-1] == s:  # two words of one row stemmed to one term
                d[1][-1] += f
            else:
                d[0].append(s)
                d[1].append(f)
        self.changed += len(log)
        self.seq = seq

    # -- ranking ----------------------------------------------------------------------
    def rank(
        self, query_toks: Sequence[str], k: int, scopes: Sequence[str], category: str | None = None
    ) -> list[tuple[int, float]] | None:
        """(chunk rid, score) best first, scored as FTS5's -bm25(); ``None``: leave this query to FTS5."""
        np = self.np
        if not query_toks:
            return []
        if self.damaged:
            return None
        stems = self.stemmer.terms(list(query_toks))
        if any(len(stems[t]) != 1 for t in query_toks):
            return None  # a phrase of several terms (or none): FTS5 decides
        n_rows = int(self.alive.sum())
        if n_rows == 0:
            return []
        avgdl = float(self.dl[self.alive].sum()) / n_rows
        parts_s, parts_c = [], []
        for tok in query_toks:
            tid = self.terms.get(stems[tok][0])
            if tid is None:
                continue
            lo, hi = (
                (int(self.indptr[tid]), int(self.indptr[tid + 1])) if tid + 1 < len(self.indptr) else (0, 0)
            )  # a term new since the base
            slots, f = self.post_slot[lo:hi], self.post_f[lo:hi]
            if self.checked is not None and tid not in self.checked:
                if self._damaged(slots, f):
                    return None
                self.checked.add(tid)
            extra = self.delta.get(tid)
            if extra:
                slots = np.concatenate([slots, np.array(extra[0], np.int32)])
                f = np.concatenate([f, np.array(extra[1], np.float64)])
            live = self.alive[slots]
            slots, f = slots[live], f[live]
            hits = len(slots)
            if not hits:
                continue
            idf = math.log((n_rows - hits + 0.5) / (hits + 0.5))
            if idf <= 0.0:
                idf = 1e-6
            parts_s.append(slots)
            parts_c.append(idf * f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * self.dl[slots] / avgdl)))
        if not parts_s:
            return []
        all_slots = np.concatenate(parts_s)
        scores = np.bincount(all_slots, weights=np.concatenate(parts_c), minlength=len(self.rids))
        cand = np.flatnonzero(scores)  # every matching row scores > 0 (IDF floor 1e-6); cheaper than unique()
        wanted = [i for i, name in enumerate(self.scope_names) if name in set(scopes)]
        keep = np.isin(self.scope[cand], wanted)
        if category:
            keep &= self.is_entry[cand] & np.char.startswith(self.entries[cand], category + "/")
        cand = cand[keep]
        if not len(cand):
            return []
        s = scores[cand]
        if len(cand) > k:
            top = np.argpartition(-s, k - 1)[:k]
            cand, s = cand[top], s[top]
        rids = self.rids[cand]
        order = np.lexsort((rids, -s))
        return [(int(rids[i]), float(s[i])) for i in order]

    # -- the on-disk copy --------------------------------------------------------------
    def _save(self) -> None:
        """Write the freshly built base atomically; a failure only costs the next process a rebuild."""
        meta = {"format": FORMAT, "epoch": self.epoch, "seq": self.seq, "scopes": self.scope_names}
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as fh:
                _write_npz(fh, {"meta": json.dumps(meta), "terms": "\n".join(self.terms), **self._arrays()})
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except OSError:
            tmp.unlink(missing_ok=True)

    def _arrays(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ARRAYS}

    def _load(self, manifest: Manifest) -> bool:
        """Map the cache's arrays (``np.memmap``: pages read when a query touches them, and
        dropped by the kernel under pressure) after checking its structure; the postings'
        values are checked as queries read them (:meth:`_damaged`)."""
        np = self.np
        epoch, _, floor = manifest.fts_position()
        try:
            small, arrays = _map_npz(np, self.path)
            meta = json.loads(str(small["meta"]))
            if meta.get("format") != FORMAT or meta.get("epoch") != epoch or int(meta["seq"]) < floor:
                return False
            terms = str(small["terms"]).split("\n") if str(small["terms"]) else []
            ok = self._consistent(arrays, terms, meta)
        except Exception:  # missing, truncated, damaged or foreign: it is derived, rebuild it
            return False
        if not ok:
            return False
        self.epoch, self.seq = epoch, int(meta["seq"])
        self.scope_names = list(meta["scopes"])
        self.terms = {t: i for i, t in enumerate(terms)}
        for k in ARRAYS:
            setattr(self, k, arrays[k])
        n = len(self.rids)
        self.alive = np.ones(n, bool)
        self._slot_of = None  # made at the first change: at 1M rows it was most of the load (0.3 s)
        self.delta = {}
        self.changed = 0
        self.checked = set()
        return True

    def _consistent(self, arrays: dict[str, Any], terms: list[str], meta: dict[str, Any]) -> bool:
        """Shapes, types and offsets agree (the per-row columns and ``indptr`` read whole,
        the postings only by length: reading them is what the mapping saves)."""
        np = self.np
        if set(arrays) != set(ARRAYS) or any(
            arrays[k].ndim != 1 or (arrays[k].dtype != t if t != "U" else arrays[k].dtype.kind != "U")
            for k, t in ARRAYS.items()
        ):
            return False
        n, indptr = len(arrays["rids"]), arrays["indptr"]
        return (
            all(len(arrays[k]) == n for k in ("dl", "scope", "is_entry", "entries"))
            and len(indptr) == len(terms) + 1
            and int(indptr[0]) == 0
            and len(arrays["post_slot"]) == len(arrays["post_f"]) == int(indptr[-1])
            and bool(np.all(np.diff(indptr) >= 0))
            and int(arrays["scope"].min(initial=0)) >= -1
            and int(arrays["scope"].max(initial=-1)) < len(meta.get("scopes", []))
        )

    def _damaged(self, slots: Any, f: Any) -> bool:
        """A posting list that a query read and that cannot be right (a slot outside the rows,
        a frequency not a positive number): the mapped cache was damaged after it was written.
        It is deleted and this index rebuilt at the next :meth:`catch_up`; FTS5 answers meanwhile."""
        np = self.np
        if not len(slots):
            return False
        bad = (
            int(slots.min()) < 0
            or int(slots.max()) >= len(self.rids)
            or not bool(np.all(f > 0) & np.all(np.isfinite(f)))
        )
        if bad:
            self.damaged = True
            self.path.unlink(missing_ok=True)
        return bad


ARRAYS = {  # the cache's mapped arrays and their types ("U": text of any width)
    "rids": "int64",
    "dl": "float64",
    "scope": "int32",
    "is_entry": "bool",
    "entries": "U",
    "indptr": "int64",
    "post_slot": "int32",
    "post_f": "float64",
}
ALIGN = 64  # each array's data starts on this boundary in the file (as in a .npy)


def _write_npz(fh: BinaryIO, members: dict[str, Any]) -> None:
    """An uncompressed ``.npz`` (``np.load`` still reads it) whose members' data are aligned,
    so that :func:`_map_npz` maps them in place. Each local header gets a padding extra field
    (id 0xD935, as Android's zipalign); the ``.npy`` header pads itself to 64 bytes."""
    import zipfile

    import numpy as np

    with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, value in members.items():
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            head = fh.tell() + 30 + len(info.filename.encode()) + 20  # + the zip64 extra field
            pad = -head % ALIGN
            if pad:
                pad += ALIGN if pad < 4 else 0
                info.extra = struct.pack("<HH", 0xD935, pad - 4) + bytes(pad - 4)
            with zf.open(info, "w", force_zip64=True) as out:
                np.lib.format.write_array(out, np.asanyarray(value), allow_pickle=False)


def _map_npz(np: Any, path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """An uncompressed ``.npz``: its 0-d members read (``meta``, ``terms``; the zip's CRC
    checked), the others mapped read-only where their data lie in the file. A cache of the
    old writer (``np.savez``, unaligned) maps too. Raises on anything not so (compressed,
    object arrays, a member's size not its header's, a file cut short)."""
    import io
    import zipfile

    small: dict[str, Any] = {}
    arrays: dict[str, Any] = {}
    size = path.stat().st_size
    with open(path, "rb") as fh, zipfile.ZipFile(fh) as zf:
        infos = zf.infolist()
        if len(infos) > 32:
            raise ValueError("too many members")
        for info in infos:
            name = info.filename.removesuffix(".npy")
            if info.compress_type != zipfile.ZIP_STORED:
                raise ValueError(f"{name}: compressed")
            fh.seek(info.header_offset)
            local = fh.read(30)
            if len(local) != 30 or local[:4] != b"PK\x03\x04":
                raise ValueError(f"{name}: no local header")
            start = info.header_offset + 30 + sum(struct.unpack("<HH", local[26:30]))
            fh.seek(start)
            version = np.lib.format.read_magic(fh)
            read_header = (
                np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            )
            shape, fortran, dtype = read_header(fh, max_header_size=10_000)
            data = fh.tell()
            nbytes = dtype.itemsize * math.prod(shape)
            if dtype.hasobject or data - start + nbytes != info.file_size or data + nbytes > size:
                raise ValueError(f"{name}: sizes disagree")
            if shape == ():
                small[name] = np.load(io.BytesIO(zf.read(info)), allow_pickle=False)
            elif nbytes == 0:
                arrays[name] = np.zeros(shape, dtype)
            else:
                arrays[name] = np.memmap(path, dtype, "r", data, shape, "F" if fortran else "C")
    return small, arrays


class _Rows(NamedTuple):
    """One batch's per-row columns, joined to the index's once (:meth:`KeywordIndex._append_rows`)."""

    rids: Any
    dl: Any
    scope: Any
    is_entry: Any
    entries: list[str]


def _per_term(np: Any, slot: Any, tid: Any, freq: Any) -> tuple[Any, Any, Any, Any]:
    """One batch's postings summed per (term, row) and sorted by term, then row: its term
    ids, each one's count, and the slots and frequencies in that order. The sort is stable,
    so each sum adds its parts in the order they came, one by one (``bincount``, not
    ``add.reduceat``'s pairwise sum): the same floats as one pass."""
    key = tid.astype(np.int64) * (int(slot.max(initial=0)) + 1) + slot
    order = np.argsort(key, kind="stable")
    key = key[order]
    new = np.concatenate([[True], key[1:] != key[:-1]]) if len(key) else np.zeros(0, bool)
    first = np.flatnonzero(new)
    freq = np.bincount(np.cumsum(new) - 1, weights=freq[order], minlength=len(first))  # summed in order, as before
    slot, terms = slot[order][first], tid[order][first]
    tids, counts = np.unique(terms, return_counts=True)
    return tids.astype(np.int64), counts.astype(np.int64), slot.astype(np.int32), freq.astype(np.float64)


def _held(postings: int) -> None:
    """A hook (tests): called with each batch's postings, the most a build holds at once."""


class _snapshot:
    """One read transaction, so rows and change-log position belong to the same state."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.own = False

    def __enter__(self) -> _snapshot:
        if not self.db.in_transaction:
            self.db.execute("BEGIN")
            self.own = True
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.own:
            self.db.execute("COMMIT")
