"""Incremental indexing: files → chunks (manifest + keyword index) → vectors (Milvus).

Two steps so the cheap one never pays for the expensive one:

1. :func:`sync_chunks` stats every file; one whose (mtime, size) matches the manifest is
   not read, unless the file was read too soon after its mtime (:func:`stamp`: a write in
   that same clock tick would leave both equal), which the next sync reads once again.
   A changed file is re-chunked; only chunks with new ids are marked for
   embedding, chunks of deleted or moved files are queued for deletion. Pure Python and
   SQLite: no torch, no Milvus.
2. :func:`sync_vectors` embeds the queued chunks (sorted by length, in batches) and
   applies the queued deletes in Milvus. It is skipped entirely when nothing is queued.
   The model sees each chunk's own text once (vectors cached by text hash); a journal
   turn's vector mixes in its neighbours' own vectors (:func:`compose`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from memsearch_tui.engine.core.contained import READ_LIMIT
from memsearch_tui.engine.core.errors import InvalidInput, LockTimeout
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.safe_io import read_bounded
from memsearch_tui.engine.search.manifest import ChunkRow, FileRow, Manifest
from memsearch_tui.engine.search.scopes import STORE_SCOPE
from memsearch_tui.engine.search.settings import SearchSettings
from memsearch_tui.engine.search.sources import SourceFile, all_files, chunk_file
from memsearch_tui.engine.search.stopping import BuildStopped

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

    from memsearch_tui.engine.core.locking import _Lock as PathLock
    from memsearch_tui.engine.search.embeddings import Encoder
    from memsearch_tui.engine.search.milvus_backend import MilvusVectors

BATCH = 256
#: Texts in the first batch through the model; each next batch doubles, up to BATCH. The
#: own-text vectors are committed per batch, so a meaning search during a build
#: (:mod:`.provisional`) answers from the first ones after a fraction of the embedding
#: (issue 36 item 6). The model batches by 32 inside encode(): only the first two batches
#: give up some of a bulk encoder's one-batch-per-core parallelism.
FIRST_BATCH = 16
#: Pending chunks :func:`sync_vectors` reads, embeds and writes at a time (with their texts and
#: their own and neighbours' vectors): all of them at once held 6.3 GB at 1M chunks.
SLICE = 8_192
#: Texts per encode() call inside a batch, the stop checked between two (the app quitting).
#: A whole batch: calls of 64 or 128 texts cost the bulk encoder 10-16 % of its throughput
#: (idle, `benchmarks/stop_every_bench.py`, session 19), every index paying for a faster quit
#: during a build. The bulk encoders ask the stop inside their call instead (between token
#: blocks and layers: :func:`_encode`), so a quit waits for a layer, not the batch.
STOP_EVERY = BATCH
SMALL_BATCH = 64  # pending chunks embedded with the torch-free query encoder (no bulk set-up)
# Pending chunks up to which the float32 numpy bulk encoder embeds even on a CPU with native
# bfloat16: importing torch and loading its forward pass (~1.3 s idle) costs more than
# bfloat16's faster products save on fewer chunks (~120 against ~180 chunks/s on 2 cores:
# even at ~470). A first meaning search in a fresh project of ~20 journal days embeds ~200.
SMALL_BUILD = 400

#: Phases ``sync_vectors`` reports through ``phase(label)``, in this order, so a progress
#: display can say what the wait is for: loading torch and the model takes seconds before
#: the first text is counted, and "embedding 0/?" for all that time reads as a hang.
LOADING_MODEL = "loading the embedding model…"
EMBEDDING = "embedding"


@record(frozen=False)
class IndexRun:
    """What a run changed (for `vectors index` and upkeep)."""

    files: int = 0
    changed: int = 0
    removed: int = 0
    new_chunks: int = 0
    removed_chunks: int = 0
    embedded: int = 0
    deleted_vectors: int = 0
    skipped: list[str] = field(default_factory=list)

    @property
    def touched(self) -> bool:
        return bool(self.changed or self.removed or self.embedded or self.deleted_vectors)

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "changed_files": self.changed,
            "removed_files": self.removed,
            "new_chunks": self.new_chunks,
            "removed_chunks": self.removed_chunks,
            "embedded": self.embedded,
            "deleted_vectors": self.deleted_vectors,
            "skipped": self.skipped,
        }


def encoder_for(s: SearchSettings, n: int) -> Encoder:
    """The encoder that embeds ``n`` pending chunks fastest, torch's import counted: the
    query encoder for a few (:data:`SMALL_BATCH`), the numpy bulk encoder up to
    :data:`SMALL_BUILD` where ``index_precision = "auto"`` would take torch, else
    :func:`.embeddings.index_encoder` (the vectors agree to cosine ≥ 0.999 either way)."""
    from memsearch_tui.engine.search.embeddings import index_encoder, query_encoder

    model = s.model or None
    if n <= SMALL_BATCH:
        return query_encoder(model, s.provider)
    if n <= SMALL_BUILD and s.index_precision == "auto" and s.provider == "local":
        small = _numpy_bulk(model)
        if small is not None:
            return small
    return index_encoder(model, s.index_precision, s.provider)


_BULK: dict[str | None, Encoder | None] = {}


def _numpy_bulk(model: str | None) -> Encoder | None:
    """The numpy bulk encoder for ``model`` (kept: a warm app embeds again), None when the
    numpy forward pass does not cover it; ``index_encoder``'s own when that is numpy already."""
    from memsearch_tui.engine.search.embeddings import (
        NumpyBertEncoder,
        index_encoder,
        index_needs_torch,
        resolve_model_path,
    )

    if model not in _BULK:
        path = resolve_model_path(model)
        if not index_needs_torch(path):
            _BULK[model] = index_encoder(model)
        elif NumpyBertEncoder.supports(path) and os.environ.get("MEMSEARCH_TUI_INDEX_ENCODER") != "torch":
            _BULK[model] = NumpyBertEncoder(path, bulk=True)
        else:
            _BULK[model] = None
    return _BULK[model]


def index_lock(s: SearchSettings, timeout: float = 10.0) -> _IndexLock:
    """The manifest's writer lock (one index run at a time per memory root).

    ``flock`` on ``index.lock`` (:func:`..core.locking.path_lock`, the lock ``filelock``
    takes on that file, without importing it: every indexed search takes this lock)."""
    from memsearch_tui.engine.core.locking import path_lock

    s.state_dir.mkdir(parents=True, exist_ok=True)
    return _IndexLock(path_lock(s.state_dir / "index.lock"), timeout, s.state_dir)


class _IndexLock:
    def __init__(self, lock: PathLock, timeout: float, where: Path) -> None:
        self.lock, self.timeout, self.where = lock, timeout, where

    def __enter__(self) -> _IndexLock:
        if not self.lock.acquire(self.timeout):
            raise LockTimeout(f"{self.where}: another process is indexing; try again when it finishes")
        return self

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


def scopes_of(s: SearchSettings) -> list[str]:
    scopes = [STORE_SCOPE]
    if s.project is not None:
        scopes.append(str(Path(s.project).resolve()))
    return scopes


#: The mtime a manifest row keeps for a file read too soon after its last change: no file
#: has it, so the next sync reads that file again (and, its text unchanged, only then keeps
#: its real mtime). Git's "racily clean" entries, smudged the same way.
RACY = -1


def stamp(st: os.stat_result, read_ns: int) -> int:
    """The mtime to keep for a file whose text was read at ``read_ns`` (or later): its own,
    or :data:`RACY` when a write after the read could still carry the same stat.

    A file system stamps a write with a clock that moves in ticks (a kernel's coarse clock:
    up to 10 ms; whole seconds on some, two on FAT), so an agent rewriting a journal within
    the tick of our read, at the same length, leaves (mtime, size) as the row has them and
    the change would never be seen. Once the clock has passed the mtime by a tick, any later
    write carries a later one. Only files changed just before a sync are read twice.

    An mtime in the future (a tar or ``cp -p``/rsync from a machine with a skewed clock,
    ``touch -d tomorrow``) says nothing about when the file was written, and the clock would
    not pass it for hours: the file was read again by every sync until then. For such a file
    the ctime decides, which the kernel sets at every write, ``utime`` included, from this
    machine's clock and which no tool can set: once it lies a tick behind the read, a later
    write changes the ctime the row records (:func:`changed_files` compares it), and a
    plain write also puts the mtime back to now. A past mtime still decides by itself (a
    file just ``cp -p``-ed, old mtime, new ctime, is not read twice): what that leaves is a
    second time-keeping, same-size copy within the same ctime tick as the first."""
    at = st.st_mtime_ns if st.st_mtime_ns <= read_ns else st.st_ctime_ns
    return RACY if read_ns - at <= _tick(at) else st.st_mtime_ns


def _tick(ns: int) -> int:
    """How coarse a file system's clock may be, judged from one of its stamps."""
    whole = ns % 1_000_000_000 == 0  # a file system stamping whole seconds (or by chance)
    return 2_000_000_000 if whole else 20_000_000


def stamps_of(st: os.stat_result) -> tuple[int, int]:
    """What a row records beside size and mtime: (ctime, inode). A same-size rewrite that
    puts the old mtime back (``touch -r``, ``cp -p``, ``rsync -t``) keeps (size, mtime) but
    not the ctime, which no tool can set."""
    return st.st_ctime_ns, st.st_ino


def changed_files(
    s: SearchSettings,
    m: Manifest,
    files: list[SourceFile] | None = None,
    known: dict[str, FileRow] | None = None,
    *,
    recheck: bool = True,
    unstamped: list[tuple[str, int, int]] | None = None,
) -> tuple[list[tuple[SourceFile, os.stat_result]], list[str]]:
    """(files whose stat differs from the manifest, manifest paths no longer present);
    ``known``: the manifest rows to compare with (all of the scopes by default).
    ``recheck=False`` (``vectors status``, the hook's cheap question): a row kept
    :data:`RACY` at the file's size counts as indexed; the next sync reads it again.

    A row written by an older version has no ctime and inode: it is compared as it was
    (size and mtime) and, when those match, its file's (path, ctime, inode) is appended to
    ``unstamped`` for :func:`sync_chunks` to record without reading it (a rewrite that kept
    size and mtime before this version went unseen then as now; re-reading every file once
    would cost more than a first search can spend), and compared from then on."""
    files = all_files(s.memory_root, s.project) if files is None else files
    known = m.files(scopes_of(s)) if known is None else known
    changed = []
    present = set()
    for f in files:
        try:
            st = f.stat()
        except OSError:
            continue
        present.add(f.key)
        row = known.get(f.key)
        if (
            row is None
            or row.mtime_ns != (RACY if not recheck and row.mtime_ns == RACY else st.st_mtime_ns)
            or row.size != st.st_size
            or row.kind != f.kind
            or row.entry_id != f.entry_id
            or (row.ctime_ns is not None and (row.ctime_ns, row.ino) != stamps_of(st))
        ):
            changed.append((f, st))
        elif row.ctime_ns is None and unstamped is not None:
            unstamped.append((f.key, *stamps_of(st)))
    gone = [p for p in known if p not in present]
    return changed, gone


def sync_chunks(
    s: SearchSettings,
    m: Manifest,
    *,
    force: bool = False,
    files: list[SourceFile] | None = None,
    only: set[str] | None = None,
    stop: Callable[[], bool] | None = None,
) -> IndexRun:
    """Bring the manifest and keyword index in line with the files (no model, no Milvus).

    ``files``: the listing, when the caller just made it (``all_files``). ``only``: the
    keys (paths) a partial sync covers: ``files`` then lists just those that exist, and
    only those keys leave the manifest when absent (a write's own files, not a re-walk).
    ``stop()``: asked between two files; true commits the files read so far (each whole)
    and raises :class:`.stopping.BuildStopped`: the rest keep their old rows and stamps, so
    the next run reads them (reading a big memory's files took as long as quitting waited)."""
    files = all_files(s.memory_root, s.project) if files is None else files
    rep = IndexRun(files=len(files))
    _check_params(s, m, force)
    unstamped: list[tuple[str, int, int]] = []
    if only is not None:
        rows = m.files(scopes_of(s), paths=only)
        todo, gone = changed_files(s, m, files, rows, unstamped=unstamped)  # gone: the known ones not listed
    elif force:
        todo = []
        for f in files:
            try:
                todo.append((f, f.stat()))
            except OSError:
                continue
        known = m.files(scopes_of(s))
        gone = [p for p in known if p not in {f.key for f, _ in todo}]
    else:
        todo, gone = changed_files(s, m, files, unstamped=unstamped)
    if unstamped:  # rows an older version wrote: their ctime and inode, once (no read)
        m.stamp_files(unstamped)
        m.commit()
    if not todo and not gone:  # a search's freshness check, nothing changed: no second read of
        return rep  # the file rows, no change-log trim, no commit (issue 36 item 6)
    part = _Parts(m)
    for path in gone:
        dropped = m.remove_file(path)
        rep.removed_chunks += dropped
        rep.removed += 1
        part.done(1 + dropped)
    known = m.files(scopes_of(s), paths=None if only is None else [f.key for f, _ in todo])
    if todo:  # a search's freshness check with nothing changed never loads chunking (issue 36 item 6)
        from memsearch_tui.engine.search.chunking import content_hash
    for f, st in todo:
        if stop is not None and stop():
            part.commit()
            raise BuildStopped
        mtime = stamp(st, time.time_ns())  # the clock before the read: a lower bound of when it read
        try:
            data = read_bounded(f.file, READ_LIMIT)  # never blocks on a FIFO, never reads a 4 GB file
        except OSError as exc:
            rep.skipped.append(f"{f.file}: {exc.strerror or exc}")
            continue
        sha = content_hash(data)
        row = known.get(f.key)
        if not force and row is not None and row.sha == sha and row.kind == f.kind and row.entry_id == f.entry_id:
            m.touch_file(f.key, mtime, st.st_size, stamps_of(st))
            part.done(1)
            continue
        if b"\0" in data:
            rep.skipped.append(f"{f.file}: binary file")
            text = ""
        else:
            text = data.decode("utf-8", errors="replace").lstrip("\ufeff").replace("\r\n", "\n")
        try:
            chunks = chunk_file(f, text, cap=s.chunk_size, overlap=s.chunk_overlap, context_turns=s.context_turns)
        except InvalidInput as exc:  # frontmatter the store cannot read: `index check` reports it too
            rep.skipped.append(exc.message)
            chunks = []
        added, dropped = m.replace_file(f, mtime, st.st_size, sha, chunks, stamps_of(st))
        rep.changed += 1
        rep.new_chunks += added
        rep.removed_chunks += dropped
        part.done(1 + added + dropped)
    part.commit()
    return rep


#: Rows (files plus chunks added or dropped) one transaction of :func:`sync_chunks` holds at
#: most, give or take one file. One transaction for a whole 1M-chunk build grew SQLite's WAL to
#: 9.1 GB and slowed every insert past ~500k (benchmarks/README.md, Sessions 14-15); a commit
#: every part keeps the WAL at one part's pages. Each part ends between two files, so a crash
#: leaves whole files indexed and the rest unchanged: the next run sees their stat differ.
PART_ROWS = 5_000


class _Parts:
    """Commits ``m`` once :data:`PART_ROWS` rows changed since its last commit."""

    def __init__(self, m: Manifest) -> None:
        self.m, self.rows = m, 0

    def done(self, rows: int) -> None:
        self.rows += rows
        if self.rows >= PART_ROWS:
            self.commit()

    def commit(self) -> None:
        self.m.trim_fts_log()
        self.m.commit()
        self.rows = 0


def _check_params(s: SearchSettings, m: Manifest, force: bool) -> None:
    """Chunking parameters are part of every chunk id: a change re-chunks everything.
    ``own3``: a journal turn's own text without ``Session HH:MM`` or the day again (session 15);
    an index of the shorter texts beside the longer ones would be neither."""
    params = f"{s.chunk_size}:{s.chunk_overlap}:{s.context_turns}:compose{CONTEXT_WEIGHT}:own3:dates1"
    if m.get_meta("chunking") != params:
        if m.get_meta("chunking") is not None:
            for path in list(m.files()):
                m.remove_file(path)
        m.set_meta("chunking", params)
        m.commit()


def vector_identity(s: SearchSettings) -> str:
    """The marker of which vectors the manifest holds: where (URI, collection) and from which
    model, by its one name (every spelling of a model is one marker). all-MiniLM-L6-v2 keeps
    the ``default`` every earlier index was marked with, so an upgrade re-embeds nothing."""
    from memsearch_tui.engine.search.models import MINILM_MODEL, model_key

    onnx = "|onnx" if s.provider == "onnx" else ""  # the same folder through another runtime: re-embed
    key = model_key(s.model)
    model = (s.model or "default") if s.provider == "onnx" else ("default" if key == MINILM_MODEL else key)
    return f"{s.uri}|{s.collection}|{model}{onnx}"


def sync_vectors(
    s: SearchSettings,
    m: Manifest,
    vectors: MilvusVectors,
    encoder_factory: Callable[[int], Encoder],
    *,
    progress: Callable[[int, int], None] | None = None,
    phase: Callable[[str], None] | None = None,
    first: Callable[[Collection[str]], Collection[str]] | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[int, int]:
    """Embed queued chunks and apply queued deletes; returns (embedded, deleted).

    ``encoder_factory(n)`` returns an encoder suited to ``n`` texts to embed (so a handful
    can use a lighter encoder than a whole store). ``progress(done, total)`` is called with
    ``(0, total)`` once the total is known, then after each batch, counting the texts
    embedded (the slow part), or the vectors written when every text was embedded before
    (monotone, ends at total; one count, never both: a total of texts plus vectors read
    as twice the chunks). ``phase(label)`` says what the time
    goes to: ``LOADING_MODEL`` before the encoder is first asked for, ``EMBEDDING`` when
    the counting starts. ``first(keys)``: told each batch's keys once they are committed,
    it answers with the own-text keys wanted next (a question asked during the build:
    :mod:`..api.warm_share`), which go before the rest (:func:`_own_vectors`).
    ``stop()``: asked before each batch (texts to embed, rows to write), and by a bulk
    encoder inside its call (:func:`_encode`); true raises :class:`.stopping.BuildStopped`
    with every batch so far committed (the app exiting).
    """
    encoder_factory = _announcing(encoder_factory, phase)
    stopped = _Stop(stop, vectors)
    previous = m.get_meta("vectors")
    if previous != vector_identity(s):
        m.forget_vectors()
        if previous is not None and previous.rsplit("|", 1)[0] == vector_identity(s).rsplit("|", 1)[0]:
            # Same collection, another model: its vectors are meaningless now. Same
            # dimension → rebuild silently; another dimension → ensure() refuses below.
            encoder = encoder_factory(m.chunk_count())
            if vectors.dim() == int(encoder.dim):
                vectors.drop()
        m.set_meta("vectors", vector_identity(s))
        m.commit()
    deletes = m.pending_deletes()
    if deletes:
        vectors.delete(deletes)
        m.clear_deletes(deletes)
        m.commit()
    total = m.count_pending()[0]
    if not total:
        m.prune_text_vectors()
        m.commit()
        return 0, len(deletes)
    to_embed = m.count_texts_to_embed()
    counter = _Progress(progress, to_embed or total, phase)
    made: list[Encoder] = []

    def model() -> Encoder:  # one, suited to the whole run, made when a text first needs it
        if not made:
            made.append(encoder_factory(to_embed))
        return made[0]

    if to_embed:
        model()
        stopped()  # the first load takes seconds: a stop asked meanwhile is obeyed before any text is read
    counter.start()
    done, after, fresh = 0, -1, None
    while pending := m.pending_vectors(after=after, limit=SLICE):  # a slice at a time: 1M rows held 6.3 GB
        after = pending[-1].rid
        own = _own_vectors(m, pending, model, counter, first, stopped)
        if fresh is None:
            vectors.ensure(int(next(iter(own.values())).shape[0]) if own else int(model().dim))
            fresh = vectors.holds_none()  # nothing of ours stored: insert without deleting first
        for i in range(0, len(pending), BATCH):
            part = pending[i : i + BATCH]
            stopped()
            vecs = [compose(own[r.own_key], [own[k] for k in r.ctx_keys.split()]) for r in part]
            vectors.insert([_row(r, v) for r, v in zip(part, vecs)], fresh=fresh)
            m.mark_embedded([r.id for r in part], vecs)
            m.commit()
            done += len(part)
            if not to_embed:
                counter.step(len(part))
    m.prune_text_vectors()
    m.commit()
    vectors.flush()
    return done, len(deletes)


class _Stop:
    """The build's stop. Called, between two batches: raises BuildStopped once ``stop()`` is
    true, after flushing the rows written so far (they are marked embedded: they must be
    kept). :meth:`asked`: the bare question, for an encoder to ask inside its call (in its
    own threads: no flush there), which then raises BuildStopped itself (:func:`_encoded`)."""

    def __init__(self, stop: Callable[[], bool] | None, vectors: MilvusVectors | None = None) -> None:
        self.stop, self.vectors, self.flushed = stop, vectors, False

    def asked(self) -> bool:
        return self.stop is not None and self.stop()

    def __call__(self) -> None:
        if self.asked():
            self.finish()
            raise BuildStopped

    def finish(self) -> None:
        """Flush what was written (once), before the stop is raised."""
        if not self.flushed and self.vectors is not None:
            self.vectors.flush()
            self.flushed = True


CONTEXT_WEIGHT = 0.35  # weight of each neighbouring turn's own vector (LoCoMo dev sweep: benchmarks/README.md)


def compose(own: NDArray[numpy.float32], neighbours: list[NDArray[numpy.float32]]) -> NDArray[numpy.float32]:
    """A chunk's vector: its own text's vector plus ``CONTEXT_WEIGHT`` × each neighbour's, L2-normalised.

    Why not embed the turn with its neighbours' text, as before: that made every journal
    chunk ~5 turns long, so indexing paid the model ~5× per turn, and one new turn changed
    (and re-embedded) its neighbours too. Now each text goes through the model once and a
    turn's context is mixed in as vectors; LoCoMo recall is kept (benchmarks/README.md).
    """
    import numpy as np

    v = np.array(own, dtype=np.float32, copy=True)
    for n in neighbours:
        v += np.float32(CONTEXT_WEIGHT) * n
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def _announcing(factory: Callable[[int], Encoder], phase: Callable[[str], None] | None) -> Callable[[int], Encoder]:
    """``factory`` that reports ``LOADING_MODEL`` before its first call (the slow one)."""
    if phase is None:
        return factory
    said = False

    def load(n: int) -> Encoder:
        nonlocal said
        if not said:
            said = True
            phase(LOADING_MODEL)
        return factory(n)

    return load


class _Progress:
    """One monotone ``progress(done, total)`` of one unit: the texts through the model, or
    (none to embed) the vectors written."""

    def __init__(
        self, callback: Callable[[int, int], None] | None, writes: int, phase: Callable[[str], None] | None = None
    ) -> None:
        self.callback, self.done, self.total, self.phase = callback, 0, writes, phase

    def start(self) -> None:
        """The model is loaded and the total known: say so before the first batch."""
        if self.phase:
            self.phase(EMBEDDING)
        if self.callback:
            self.callback(0, self.total)

    def step(self, n: int) -> None:
        self.done += n
        self.total = max(self.total, self.done)  # a neighbour's text the first count did not see
        if self.callback:
            self.callback(self.done, self.total)


def _own_vectors(
    m: Manifest,
    pending: list[ChunkRow],
    model: Callable[[], Encoder],
    progress: _Progress,
    first: Callable[[Collection[str]], Collection[str]] | None = None,
    stop: _Stop | None = None,
) -> dict[str, NDArray[numpy.float32]]:
    """Own-text vectors of the pending chunks and their neighbours: cached, or embedded now
    (and cached at once, so a later slice's neighbour finds it). Shortest texts first, in
    small batches (a search during the build finds some soon), except the keys ``first``
    names: a batch of those goes next (issue 36 item 6: the chunks a question's keyword leg
    ranks highest and their neighbours, so its meaning answer during the build is the final one)."""
    import numpy as np

    stop = stop or _Stop(None)
    texts: dict[str, str] = {}
    for r in pending:
        texts.setdefault(r.own_key, r.own_text)
    needed = set(texts)
    for r in pending:
        needed.update(r.ctx_keys.split())
    dim = None
    own: dict[str, NDArray[numpy.float32]] = {}
    for k, blob in m.text_vectors(needed).items():
        own[k] = np.frombuffer(blob, dtype=np.float32)
        dim = own[k].shape[0]
    missing = [k for k in needed if k not in own]
    unknown = [k for k in missing if k not in texts]
    if unknown:
        texts.update(m.own_texts(unknown))
    missing = [k for k in missing if k in texts]
    missing.sort(key=lambda k: len(texts[k]))
    size = FIRST_BATCH
    while missing:
        stop()  # the app exiting: the texts embedded so far are committed, the rest wait
        wanted = first(()) if first is not None else ()  # asked now: a question may have come meanwhile
        front = [k for k in missing if k in wanted][:BATCH] if wanted else []
        if front:
            keys, chosen = front, set(front)
            missing = [k for k in missing if k not in chosen]
        else:
            keys, missing, size = missing[:size], missing[size:], min(size * 2, BATCH)
        vecs = _encoded(m, keys, texts, model, stop)
        m.store_text_vectors(keys, vecs)
        m.commit()
        own.update(zip(keys, vecs))
        if first is not None:
            first(keys)  # these are in: a question waiting for them may go on
        progress.step(len(keys))
    zero = np.zeros(dim or (next(iter(own.values())).shape[0] if own else 0), dtype=np.float32)
    for k in needed:
        own.setdefault(k, zero)  # a neighbour that vanished meanwhile adds nothing
    return own


def _encoded(
    m: Manifest, keys: list[str], texts: dict[str, str], model: Callable[[], Encoder], stop: _Stop
) -> NDArray[numpy.float32]:
    """The batch's vectors, ``STOP_EVERY`` texts per encode() call, the stop checked between
    two and, by a bulk encoder, inside one: a stop keeps (commits) the texts of the calls
    that returned, then raises as ``stop`` does; the call it cut short returned nothing."""
    import numpy as np

    parts: list[NDArray[numpy.float32]] = []
    for i in range(0, len(keys), STOP_EVERY):
        try:
            if i:
                stop()
            parts.append(_encode(model(), [texts[k] for k in keys[i : i + STOP_EVERY]], stop.asked))
        except BuildStopped:
            if parts:
                m.store_text_vectors(keys[:i], np.concatenate(parts))
                m.commit()
            stop.finish()
            raise
    return np.concatenate(parts)


def _encode(encoder: Encoder, texts: list[str], asked: Callable[[], bool]) -> NDArray[numpy.float32]:
    """``encoder.encode(texts)`` as float32; an encoder that can stop inside a call
    (``stoppable``: the bulk ones) is given ``asked`` and raises BuildStopped when it is true."""
    import numpy as np

    if getattr(encoder, "stoppable", False):
        rows = cast("Any", encoder).encode(texts, stop=asked)
    else:
        rows = encoder.encode(texts)
    return np.asarray(rows, dtype=np.float32)


def _row(r: ChunkRow, vec: NDArray[numpy.float32]) -> dict[str, Any]:
    return {
        "id": r.id,
        "vec": vec.tolist(),  # the same float32 values as Python floats, without a loop in Python
        "path": r.path,
        "scope": r.scope,
        "kind": r.kind,
        "entry_id": r.entry_id,
        "heading": r.heading,
        "start_line": int(r.start),
        "end_line": int(r.end),
    }
