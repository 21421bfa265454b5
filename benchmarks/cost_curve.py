"""The cost curve (issue 37): index and search at 10k, 100k and 1M journal chunks, Milvus Lite and a server.

    .venv/bin/python benchmarks/cost_curve.py all [--sizes 10000,100000,1000000] [--backends lite,server]
    .venv/bin/python benchmarks/cost_curve.py all --sizes 1000000 --keep --resume   # on from a stopped run
    .venv/bin/python benchmarks/cost_curve.py all --sizes 1000000 --backends lite --keep --manifest-from server
    .venv/bin/python benchmarks/cost_curve.py embed [--chunks 10000]     # the real model's throughput
    .venv/bin/python benchmarks/cost_curve.py render                      # table + plot (+ the rows) from the results
    .venv/bin/python benchmarks/cost_curve.py small WORK                  # 300 turns on Lite, seconds (a test)

Two costs are kept apart, honestly. Embedding 1M chunks with the real model would take
many hours on these 2 cores, so ``embed`` measures the model's own throughput on the first
10k chunks' texts and the table extrapolates it linearly (said so, column by column). The
store side (files → manifest + keyword index, Milvus insert, search) is measured at every
size with deterministic vectors: :class:`HashedVectorsForBenchmarks` (blake2b of the text
→ a unit vector, same dimension as the default model) is put in through one narrow seam,
:class:`BenchSearcher`, a ``Searcher`` whose index encoder and query encoder are that
class. Everything else is the engine as the CLI runs it: ``Memory.vectors.index()`` and
``Memory.search.query(q, strategy=…)``, the manifest, the keyword index, pymilvus, Lite's
dense mirror, the server's own search.

Each (backend, size) runs in a fresh process (its RSS is its own); the server is a real
Milvus 2.3.5 standalone (``scripts/milvus_server.py``, a fresh one per size so its disk is
this index's), its CPU time and RSS read from ``/proc``. Generated data lives under
``--work`` (``/tmp``), never in the repository; ``all`` deletes each corpus when done
unless ``--keep``. The machine is shared: every row carries the load average at its start
and end, and CPU seconds beside wall seconds. Results append to ``WORK/results.jsonl``;
``render`` writes ``benchmarks/results/cost_curve.md`` and ``cost_curve.svg`` (no plotting
library: the SVG is written by hand).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

from journal_gen import generate  # noqa: E402

DIM = 384  # all-MiniLM-L6-v2, the default model
QUERIES = [
    "why does checkout fail with a deadlock",
    "roll back the payments deploy",
    "what did we decide about Kafka",
    "flaky login test workaround",
    "Redis latency after the switch",
    "who prefers Terraform",
    "retry loop sleeps and gives up",
    "pin the version of nginx",
    "订单表死锁怎么修复",
    "部署怎么回滚",
    "缓存预热竞争",
    "证书过期的临时办法",
]


class HashedVectorsForBenchmarks:
    """FOR BENCHMARKS ONLY: a unit vector from a hash of the text, in place of the model.

    Deterministic, ~10 µs a text; meaningless as a ranking (that is not what is measured
    here). Its own time is counted so the table can leave it out of the store's cost."""

    dim = DIM

    def __init__(self) -> None:
        self.seconds = 0.0
        self.texts = 0

    def encode(self, texts: Any) -> Any:
        import numpy as np

        t = time.perf_counter()
        out = np.empty((len(texts), DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")
            v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
            out[i] = v / np.linalg.norm(v)
        self.seconds += time.perf_counter() - t
        self.texts += len(texts)
        return out


def bench_searcher(mem: Any) -> Any:
    """Put a :class:`BenchSearcher` in ``mem``'s warm slot (the one seam); returns it."""
    from memsearch_tui.engine.search.searcher import Searcher

    class BenchSearcher(Searcher):
        """The engine's Searcher with :class:`HashedVectorsForBenchmarks` as both encoders,
        and the keyword cache's build timed."""

        fake = HashedVectorsForBenchmarks()
        keyword_seconds = 0.0
        keyword_cpu = 0.0
        synced: tuple[float, float] | None = None  # (wall, CPU) when ``index`` first asked for vectors

        def _vectors_due(self) -> bool:  # asked right after sync_chunks: files → manifest is done
            if self.synced is None:
                self.synced = (time.perf_counter(), time.process_time())
            return bool(super()._vectors_due())

        def _encoder_for(self, n: int) -> Any:
            return self.fake

        def query_encoder(self) -> Any:
            return self.fake

        def keyword_index(self) -> Any:
            t, c = time.perf_counter(), time.process_time()
            try:
                return super().keyword_index()
            finally:
                type(self).keyword_seconds += time.perf_counter() - t
                type(self).keyword_cpu += time.process_time() - c

    mem.warm.searcher = BenchSearcher(mem.root, mem.project, max_staleness=mem.warm.staleness())
    return mem.warm.searcher


# -- measuring ---------------------------------------------------------------------------------
def _proc(pid: int) -> dict[str, float]:
    """CPU seconds (user+system) and RSS (MB) of a process, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        cpu = (int(fields[11]) + int(fields[12])) / tick
        status = Path(f"/proc/{pid}/status").read_text()
        rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")) / 1024
        hwm = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")) / 1024
        return {"cpu": cpu, "rss": rss, "hwm": hwm}
    except (OSError, StopIteration, IndexError, ValueError):
        return {"cpu": 0.0, "rss": 0.0, "hwm": 0.0}


def _descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (from /proc)."""
    kids: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d.name))
    out, todo = [], list(kids.get(pid, []))
    while todo:
        p = todo.pop()
        out.append(p)
        todo += kids.get(p, [])
    return out


def tree_rss(pid: int) -> float:
    """RSS (MB) of ``pid`` and every process under it (Milvus Lite runs a server of its own)."""
    return sum(_proc(p)["rss"] for p in [pid, *_descendants(pid)])


def du(path: Path) -> int:
    """Bytes on disk under ``path`` (allocated blocks; symlinks not followed)."""
    total = 0
    if path.is_file():
        return path.stat().st_blocks * 512
    for dirpath, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
            except OSError:
                pass
    return total


def _say(what: str) -> None:
    """A progress line on stderr (the parent keeps them: where a run stopped is a finding)."""
    print(
        f"{time.strftime('%H:%M:%S')} load {_load()} rss {_proc(os.getpid())['rss']:.0f} MB: {what}",
        file=sys.stderr,
        flush=True,
    )


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


SYNCED = "files→manifest done"  # BenchSearcher's own mark: ``index`` asked whether vectors are due


def stages(
    start: tuple[float, float],
    end: tuple[float, float],
    marks: dict[str, tuple[float, float]],
    keyword: tuple[float, float],
    hashed: float,
) -> dict[str, float]:
    """One ``index`` run's (wall, CPU) from ``start`` to ``end`` split into its stages by the
    (wall, CPU) ``marks`` it left: files → manifest + FTS up to the first of :data:`SYNCED`,
    the model's loading or the embedding; then the vectors (Milvus insert and manifest marks),
    less the ``keyword`` cache's build (wall, CPU) and the stand-in encoder's ``hashed`` seconds.

    Why the first of three: a resumed run, or a Lite run on a shared manifest, may load no
    model (no ``LOADING_MODEL`` mark: every text's vector was kept), so that mark alone put
    the whole run into files → manifest (Session 16's resumed row, fixed by hand). With no
    mark at all (an ``index`` that never asked for vectors) the time left after the keyword
    cache is the files'."""
    from memsearch_tui.engine.search.indexer import EMBEDDING, LOADING_MODEL

    (t0, c0), (t1, c1) = start, end
    seen = [marks[k] for k in (SYNCED, LOADING_MODEL, EMBEDDING) if k in marks]
    kw_wall, kw_cpu = keyword
    tl, cl = min(seen) if seen else (t1 - kw_wall - hashed, c1 - kw_cpu)
    return {
        "chunks_wall": tl - t0,  # files → manifest + FTS tables (sync_chunks)
        "chunks_cpu": cl - c0,
        "vectors_wall": max(0.0, t1 - tl - kw_wall - hashed),  # Milvus insert + manifest marks
        "vectors_cpu": max(0.0, c1 - cl - kw_cpu),  # (the stand-in encoder's CPU included: it is ~10 µs a text)
        "keyword_wall": kw_wall,  # the keyword (BM25) cache built at the end of index()
        "keyword_cpu": kw_cpu,
    }


def forget_shared_vectors(s: Any, rows: int = 20_000) -> dict[str, float]:
    """A manifest copied from another backend's row (``--manifest-from``) holds that row's
    vectors, marked for its URI. ``index`` would forget them in one UPDATE of every chunk,
    whose WAL holds a rewrite of the whole chunks table (at 1M: 3.5 GB after a minute and
    growing, on a shared /tmp with 12 GB free). Here they are forgotten ``rows`` chunks at a
    time, each slice committed and checkpointed, before the measured ``index``, and the
    manifest marked for this row's URI: its vector stage is then a fresh run's (every text
    embedded by the stand-in, every vector inserted). Timed, as ``forget_wall``/``forget_cpu``.
    Nothing to do (``{}``) on a fresh or resumed run's own manifest."""
    from memsearch_tui.engine.search.indexer import vector_identity

    m, mine = s.manifest, vector_identity(s.s)
    previous = m.get_meta("vectors")
    if previous is None or previous == mine:
        return {}
    t, c = time.perf_counter(), time.process_time()
    top = m.db.execute("SELECT coalesce(max(rid), 0) FROM chunks").fetchone()[0]
    for lo in range(0, top, rows):
        m.db.execute("UPDATE chunks SET embedded=0, vec=NULL WHERE rid > ? AND rid <= ?", (lo, lo + rows))
        m.commit()
        m.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _say(f"forgetting the shared manifest's vectors: {min(lo + rows, top):,}/{top:,} chunks")
    while m.db.execute("DELETE FROM textvecs WHERE rowid IN (SELECT rowid FROM textvecs LIMIT ?)", (rows,)).rowcount:
        m.commit()
        m.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    m.db.execute("DELETE FROM pending_deletes")
    m.bump_generation()
    m.set_meta("vectors", mine)
    m.commit()
    m.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return {"forget_wall": time.perf_counter() - t, "forget_cpu": time.process_time() - c}


def measure(corpus: Path, data: Path, backend: str, rounds: int, server_pid: int) -> dict[str, Any]:
    """One (backend, corpus) in this process: index through the API, then search; the numbers."""
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.search.indexer import EMBEDDING

    out: dict[str, Any] = {"backend": backend, "load_start": _load()}
    marks: dict[str, tuple[float, float]] = {}

    def phase(label: str) -> None:
        marks.setdefault(label, (time.perf_counter(), time.process_time()))
        _say(f"phase: {label}")

    def progress(done: int, total: int) -> None:
        if done == 0 or done * 20 // total != (done - 256) * 20 // total:  # about every 5 %
            _say(f"vectors {done:,}/{total:,}")

    from memsearch_tui.engine.search.manifest import Manifest

    replace, seen = Manifest.replace_file, [0]
    days = sum(1 for _ in (corpus / "project" / ".memsearch" / "memory").glob("*.md"))

    def replace_file(self: Any, *args: Any, **kwargs: Any) -> Any:  # counted: where a stopped run was
        seen[0] += 1
        if seen[0] * 20 // max(days, 1) != (seen[0] - 1) * 20 // max(days, 1):
            _say(f"files→manifest {seen[0]:,}/{days:,} journal days")
        return replace(self, *args, **kwargs)

    Manifest.replace_file = replace_file  # type: ignore[method-assign]
    with Memory(corpus / "memory", corpus / "project") as mem:
        s = bench_searcher(mem)
        out.update(forget_shared_vectors(s))
        srv0 = _proc(server_pid)
        t0, c0 = time.perf_counter(), time.process_time()
        rep = mem.vectors.index(phase=phase, progress=progress)
        t1, c1 = time.perf_counter(), time.process_time()
        srv1 = _proc(server_pid)
        chunks = s.manifest.chunk_count()
        if s.synced is not None:
            marks[SYNCED] = s.synced
        out.update(
            chunks=chunks,
            files=rep.files,
            embedded=rep.embedded,
            index_wall=t1 - t0,
            index_cpu=c1 - c0,
            index_server_cpu=srv1["cpu"] - srv0["cpu"],
            **stages((t0, c0), (t1, c1), marks, (s.keyword_seconds, s.keyword_cpu), s.fake.seconds),
            hash_seconds=s.fake.seconds,  # the stand-in encoder's own time, left out of the rows above
            embedding_marked=EMBEDDING in marks,
            rss_after_index=_proc(os.getpid())["rss"],
            load_after_index=_load(),
        )
        _say(f"indexed {chunks:,} chunks; searching")
        idle0, t = _proc(server_pid)["cpu"], time.perf_counter()
        time.sleep(5.0 if server_pid else 0.0)  # the server's own background CPU, left out of each query's
        idle = (_proc(server_pid)["cpu"] - idle0) / (time.perf_counter() - t)
        out["server_idle_cpu_per_s"] = idle
        searches: dict[str, Any] = {}
        for strategy in ("index", "vector", "hybrid"):
            srv0, ts = _proc(server_pid), time.perf_counter()
            c0 = time.process_time()
            t = time.perf_counter()
            mem.search.query(QUERIES[0], strategy=strategy)
            first = time.perf_counter() - t
            times = []
            for _ in range(rounds):
                for q in QUERIES:
                    t = time.perf_counter()
                    res = mem.search.query(q, strategy=strategy)
                    times.append(time.perf_counter() - t)
            n = len(times) + 1
            searches[strategy] = {
                "first_ms": first * 1000,
                "p50_ms": statistics.median(times) * 1000,
                "p99_ms": _pct(times, 0.99) * 1000,
                "cpu_ms": (time.process_time() - c0) / n * 1000,
                "server_cpu_ms": (_proc(server_pid)["cpu"] - srv0["cpu"] - idle * (time.perf_counter() - ts))
                / n
                * 1000,
                "n": len(times),
                "ran": res.strategy,
                "hits": len(res.hits),
            }
        me = _proc(os.getpid())
        out.update(
            search=searches,
            rss_after_search=me["rss"],
            rss_peak=me["hwm"],
            server_rss=_proc(server_pid)["rss"],
            load_end=_load(),
        )
        state = s.s.state_dir
    lite_db = Path(s.s.uri) if s.s.is_lite else None
    total = du(state)
    milvus = du(lite_db) if lite_db is not None and lite_db.exists() else 0
    out.update(disk_ours=total - milvus, disk_milvus_lite=milvus, manifest=du(state / "manifest.sqlite3"))
    return out


def child_env(data: Path, uri: str | None, collection: str) -> dict[str, str]:
    """This run's own HOME (its user config points at the server) and data dir."""
    home = data / "home"
    (home / ".memsearch").mkdir(parents=True, exist_ok=True)
    if uri:
        (home / ".memsearch" / "config.toml").write_text(
            f'[milvus]\nuri = "{uri}"\n[tui.search]\ncollection = "{collection}"\n', encoding="utf-8"
        )
    env = {**os.environ, "HOME": str(home), "MEMSEARCH_TUI_DATA_DIR": str(data / "state")}
    env.setdefault("XDG_CACHE_HOME", str(Path.home() / ".cache"))
    return env


def run_child(
    corpus: Path,
    data: Path,
    backend: str,
    uri: str | None,
    rounds: int,
    server_pid: int,
    timeout: float,
    max_rss: float = 8192,
    resume: bool = False,
) -> dict[str, Any]:
    """:func:`measure` in a fresh process (bounded by ``timeout`` and by ``max_rss`` MB over
    its process tree: the machine is shared); the row, or why and where it stopped.
    ``resume``: on a stopped run's ``data`` as it was left (its committed files and vectors
    are not done again: ``index`` re-uses them), its progress log continued."""
    if not resume:
        shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True, exist_ok=True)
    env = child_env(data, uri, "cost_curve")
    cmd = [
        sys.executable,
        __file__,
        "run",
        str(corpus),
        backend,
        "--rounds",
        str(rounds),
        "--server-pid",
        str(server_pid),
    ]
    t = time.perf_counter()
    load = _load()
    log = (data / "progress.log").open("a" if resume else "w")
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=log, text=True)
    peak, why = 0.0, f"killed after {timeout:.0f} s"
    while proc.poll() is None and time.perf_counter() - t < timeout:
        rss = tree_rss(proc.pid)
        peak = max(peak, rss)
        if rss > max_rss:
            why = f"killed at the RSS cap ({rss:.0f} MB > {max_rss:.0f} MB, after {time.perf_counter() - t:.0f} s)"
            break
        time.sleep(1.0)
    last = lambda: ((data / "progress.log").read_text().strip().splitlines() or ["(nothing)"])[-1]  # noqa: E731
    if proc.poll() is None:
        for kid in _descendants(proc.pid):
            with contextlib.suppress(OSError):
                os.kill(kid, 9)
        proc.kill()
        proc.wait()
        return {
            "backend": backend,
            "stopped": f"{why} (peak RSS {peak:.0f} MB); last: {last()}",
            "load_start": load,
            "load_end": _load(),
            "disk_so_far": du(data / "state"),
        }
    stdout, _ = proc.communicate()
    log.close()
    if proc.returncode != 0:
        return {
            "backend": backend,
            "stopped": f"exit {proc.returncode}: {last()}",
            "load_start": load,
            "load_end": _load(),
        }
    return dict(json.loads(stdout.strip().splitlines()[-1]))


# -- the server --------------------------------------------------------------------------------
def server_start(state: Path, keep: bool = False) -> tuple[str, int]:
    """A fresh Milvus standalone for one size (its URI and pid); stopped by :func:`server_stop`
    or when this process exits (``keep``: its data stays, for ``milvus_server.py start STATE --keep``)."""
    script = REPO / "scripts" / "milvus_server.py"
    proc = subprocess.run(
        [sys.executable, str(script), "start", str(state), "--parent", str(os.getpid()), *(["--keep"] if keep else [])],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip() or "milvus server did not start")
    return proc.stdout.strip(), int((state / "pid").read_text())


def server_stop(state: Path) -> None:
    subprocess.run([sys.executable, str(REPO / "scripts" / "milvus_server.py"), "stop", str(state)], timeout=120)


# -- the real model's throughput ---------------------------------------------------------------
def embed_throughput(chunks: int, work: Path) -> dict[str, Any]:
    """The default model's index encoder on the own texts of ``chunks`` generated chunks:
    chunks per wall second and per CPU second (what ``vectors index`` pays the model)."""
    from memsearch_tui.engine.search.embeddings import index_encoder
    from memsearch_tui.engine.search.manifest import Manifest

    corpus = work / f"corpus-{chunks}"
    if not corpus.exists():
        generate(corpus, chunks)
    data = work / "embed-data"
    shutil.rmtree(data, ignore_errors=True)
    os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(data / "state")
    from memsearch_tui.engine.search.indexer import sync_chunks
    from memsearch_tui.engine.search.settings import load_settings

    s = load_settings(corpus / "memory", corpus / "project", {})
    m = Manifest(s.manifest_path)
    sync_chunks(s, m)
    texts = [r.own_text for r in m.pending_vectors()][:chunks]
    m.close()
    load = _load()
    t0 = time.perf_counter()
    enc = index_encoder(None)
    texts.sort(key=len)  # as the indexer does
    c0, t1 = time.process_time(), time.perf_counter()
    for i in range(0, len(texts), 256):
        enc.encode(texts[i : i + 256])
    wall, cpu = time.perf_counter() - t1, time.process_time() - c0
    shutil.rmtree(data, ignore_errors=True)
    return {
        "encoder": type(enc).__name__,
        "texts": len(texts),
        "load_model_s": t1 - t0,
        "wall_s": wall,
        "cpu_s": cpu,
        "per_s": len(texts) / wall,
        "per_cpu_s": len(texts) / cpu,
        "load_start": load,
        "load_end": _load(),
    }


# -- the table and the plot --------------------------------------------------------------------
def _fmt_bytes(n: float) -> str:
    return f"{n / 2**20:.0f} MB" if n < 2**30 else f"{n / 2**30:.2f} GB"


def render(rows: list[dict[str, Any]], embed: dict[str, Any] | None) -> str:
    """The Markdown table (measured columns, then the derived ones, said so)."""
    out = [
        "The cost curve (`benchmarks/cost_curve.py`, issue 37). **Measured** in every row: all the columns "
        "below, with deterministic stand-in vectors (`HashedVectorsForBenchmarks`; its own time left out), "
        "so the model is not in them; the load average at the row's start → end is beside the index time "
        "(a shared 2-core machine: compare CPU seconds). The model's cost is the second table: measured on "
        "its sample, **derived** (linear) beyond. Method and reading: benchmarks/README.md, Sessions 13 to 17.",
        "",
        "| backend | chunks | index wall (load) | index chunks/s | CPU s: ours + server | "
        "files→manifest+FTS | Milvus insert | keyword cache | keyword p50/p99 ms | vector p50/p99 ms | "
        "hybrid p50/p99 ms | CPU ms per query, ours: keyword / vector / hybrid | first vector ms | "
        "RSS after search (peak) | server RSS | disk: ours + Milvus |",
        "|---|---:|---|---:|---|---:|---:|---:|---|---|---|---|---:|---|---:|---|",
    ]
    for r in rows:
        if "stopped" in r:
            out.append(
                f"| {r['backend']} | {r.get('target', '?')} | **stopped**: {r['stopped']} "
                f"(load {r['load_start']}→{r['load_end']}) |" + " |" * 13
            )
            continue
        srch = r["search"]
        cell = lambda k, srch=srch: f"{srch[k]['p50_ms']:.0f} / {srch[k]['p99_ms']:.0f}"  # noqa: E731
        disk_m = r.get("disk_milvus_server", r["disk_milvus_lite"])
        cpu = " / ".join(f"{srch[k]['cpu_ms']:.0f}" for k in ("index", "vector", "hybrid"))
        before = f"; before it: {r['before']}" if r.get("before") else ""  # the stopped run's stages, from its log
        resumed = (
            f"resumed (a second `index` over a stopped run's kept files and vectors{before}): "
            if r.get("resumed")
            else ""
        )
        if r.get("manifest_shared_with"):
            forgot = (
                f"; its vectors forgotten first: {r['forget_wall']:.0f} s, not in this time"
                if "forget_wall" in r
                else ""
            )
            resumed = f"files→manifest: shared with the {r['manifest_shared_with']} row (its manifest copied{forgot}); "
        out.append(
            f"| {r['backend']} | {r['chunks']:,} | {resumed}{r['index_wall']:.0f} s ({r['load_start']}→{r['load_after_index']}) "
            f"| {r['chunks'] / r['index_wall']:,.0f} | {r['index_cpu']:.0f} + {r['index_server_cpu']:.0f} "
            f"| {r['chunks_wall']:.0f} s | {r['vectors_wall']:.0f} s | {r['keyword_wall']:.1f} s "
            f"| {cell('index')} | {cell('vector')} | {cell('hybrid')} "
            f"| {cpu} "
            f"| {srch['vector']['first_ms']:.0f} "
            f"| {r['rss_after_search']:.0f} MB ({r['rss_peak']:.0f}) | {r['server_rss']:.0f} MB "
            f"| {_fmt_bytes(r['disk_ours'])} + {_fmt_bytes(disk_m)} |"
        )
    if embed:
        out += [
            "",
            f"The real model ({embed['encoder']}, all-MiniLM-L6-v2) measured on {embed['texts']:,} chunk texts: "
            f"**{embed['per_s']:.0f} chunks/s** wall, {embed['per_cpu_s']:.0f} per CPU second "
            f"(load {embed['load_start']}→{embed['load_end']}; model load {embed['load_model_s']:.1f} s).",
            "",
            "| chunks | embedding, measured or derived | wall at that rate | CPU at that rate |",
            "|---:|---|---:|---:|",
        ]
        for n in (10_000, 100_000, 1_000_000):
            how = "measured" if n <= embed["texts"] else "derived (linear from the measured rate)"
            out.append(
                f"| {n:,} | {how} | {n / embed['per_s'] / 3600:.2f} h | {n / embed['per_cpu_s'] / 3600:.2f} CPU h |"
            )
    return "\n".join(out)


def svg(rows: list[dict[str, Any]]) -> str:
    """Two log-log panels against chunks: index CPU seconds (ours + the server's) and a hybrid
    search's CPU milliseconds (ours): CPU, not wall, since the machine's load changes between rows."""
    ok = [r for r in rows if "stopped" not in r]
    series: dict[str, list[tuple[float, float, float]]] = {}
    for r in ok:
        series.setdefault(r["backend"], []).append(
            (r["chunks"], r["index_cpu"] + r["index_server_cpu"], r["search"]["hybrid"]["cpu_ms"])
        )
    w, h, pad = 360, 260, 50
    import math

    def panel(x0: int, title: str, idx: int, unit: str) -> list[str]:
        pts = [p for s in series.values() for p in s]
        if not pts:
            return []
        xs = [math.log10(p[0]) for p in pts]
        ys = [math.log10(max(p[idx], 1e-3)) for p in pts]
        xlo, xhi = math.floor(min(xs)), math.ceil(max(xs)) or 1
        ylo, yhi = math.floor(min(ys)), math.ceil(max(ys))
        xhi, yhi = max(xhi, xlo + 1), max(yhi, ylo + 1)
        sx = lambda v: x0 + pad + (math.log10(v) - xlo) / (xhi - xlo) * (w - 2 * pad)  # noqa: E731
        sy = lambda v: h - pad + 10 - (math.log10(max(v, 1e-3)) - ylo) / (yhi - ylo) * (h - 2 * pad)  # noqa: E731
        g = [f'<text x="{x0 + w / 2}" y="18" text-anchor="middle" font-weight="bold">{title}</text>']
        g.append(
            f'<rect x="{x0 + pad}" y="{pad - 10}" width="{w - 2 * pad}" height="{h - 2 * pad}" fill="none" stroke="#999"/>'
        )
        for e in range(xlo, xhi + 1):
            x = sx(10**e)
            g.append(f'<text x="{x}" y="{h - pad + 26}" text-anchor="middle">{10**e:,}</text>')
        for e in range(ylo, yhi + 1):
            y = sy(10**e)
            g.append(f'<text x="{x0 + pad - 4}" y="{y + 4}" text-anchor="end">{10**e:g}</text>')
            g.append(f'<line x1="{x0 + pad}" x2="{x0 + w - pad}" y1="{y}" y2="{y}" stroke="#eee"/>')
        g.append(f'<text x="{x0 + w / 2}" y="{h - 4}" text-anchor="middle">chunks ({unit})</text>')
        for colour, (name, pts_) in zip(("#1f77b4", "#d62728", "#2ca02c"), sorted(series.items())):
            pts_ = sorted(pts_)
            line = " ".join(f"{sx(p[0]):.1f},{sy(p[idx]):.1f}" for p in pts_)
            g.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
            g += [f'<circle cx="{sx(p[0]):.1f}" cy="{sy(p[idx]):.1f}" r="3" fill="{colour}"/>' for p in pts_]
            ly = pad + 14 * sorted(series).index(name)
            g.append(f'<text x="{x0 + pad + 6}" y="{ly + 4}" fill="{colour}">{name}</text>')
        return g

    body = panel(0, "index: CPU s, ours + server", 1, "log-log") + panel(
        w, "hybrid search: our CPU ms a query", 2, "log-log"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w}" height="{h}" font-family="sans-serif" font-size="11">\n'
        + "\n".join(body)
        + "\n</svg>\n"
    )


def write_outputs(results: Path, dest: Path) -> None:
    rows, embed = [], None
    for line in results.read_text().splitlines():
        r = json.loads(line)
        if r.get("kind") == "embed":
            embed = r
        else:
            rows.append(r)
    dest.mkdir(parents=True, exist_ok=True)
    # the rows themselves too: a later run appends to a copy of them and renders every size
    (dest / "cost_curve.jsonl").write_text(results.read_text(), encoding="utf-8")
    (dest / "cost_curve.md").write_text(render(rows, embed) + "\n", encoding="utf-8")
    (dest / "cost_curve.svg").write_text(svg(rows), encoding="utf-8")


# -- driving -----------------------------------------------------------------------------------
def run_size(
    size: int,
    backends: list[str],
    work: Path,
    rounds: int,
    timeout: float,
    results: Path,
    keep_server: bool,
    max_rss: float = 8192,
    resume: bool = False,
    manifest_from: str = "",
) -> None:
    corpus = work / f"corpus-{size}"
    if not corpus.exists():
        t = time.perf_counter()
        days = generate(corpus, size)
        print(f"generated {size:,} turns over {days} days in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    for backend in backends:
        state, uri, pid = work / f"server-{size}", None, 0
        if backend == "server":
            uri, pid = server_start(state, keep_server or resume)  # resume: the server's data as it was
        try:
            data = work / f"data-{backend}-{size}"
            shared = manifest_from and backend != manifest_from and not (resume and data.exists())
            if shared:
                share_manifest(work / f"data-{manifest_from}-{size}" / "state", data / "state")
            row = run_child(
                corpus, data, backend, uri, rounds, pid, timeout, max_rss, bool(shared) or (resume and data.exists())
            )
            row["target"] = size
            if shared:
                row["manifest_shared_with"] = manifest_from
            elif resume and data.exists():
                row["resumed"] = True
            if uri:
                row["disk_milvus_server"] = du(state / "data")
                row["uri"] = uri
        finally:
            if uri:  # (with --keep its data stays: `milvus_server.py start STATE --keep` serves it again)
                server_stop(state)
        with results.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps(row), file=sys.stderr)


def share_manifest(src: Path, dst: Path) -> None:
    """Copy one run's manifest (files → chunks + FTS, the same code for both backends) into
    another backend's fresh data dir, without its keyword cache (each row builds its own) or
    lock. That row's ``index`` finds every file unchanged and, its vectors being marked for
    another URI (forgotten first: :func:`forget_shared_vectors`), sends every chunk to its own
    Milvus: it measures its insert, its keyword cache and its searches, and says its
    files→manifest is shared. Whatever else ``dst`` holds goes (a stopped attempt's WAL,
    Milvus Lite file, lock); a file already copied (same size and time) is kept."""
    wanted = {
        p.relative_to(src): p
        for p in sorted(src.rglob("*"))
        if p.is_file() and not p.name.endswith((".bm25.npz", ".lock")) and ".bm25.npz." not in p.name
    }
    for path in sorted(dst.rglob("*"), reverse=True) if dst.exists() else []:  # anything else goes
        rel = path.relative_to(dst)
        if path.is_dir() and not path.is_symlink():
            if not any(rel in w.parents for w in wanted):
                shutil.rmtree(path, ignore_errors=True)
        elif rel not in wanted or not _same_file(wanted[rel], path):
            path.unlink()
    for rel, path in wanted.items():
        if not (dst / rel).exists():  # a 13 GB copy left by a stopped attempt is kept, not made again
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dst / rel)


def _same_file(a: Path, b: Path) -> bool:
    """``b`` is ``copy2``'s copy of ``a`` (same size and modification time): it is kept."""
    sa, sb = a.stat(), b.stat()
    return sa.st_size == sb.st_size and sa.st_mtime_ns == sb.st_mtime_ns


def cleanup(work: Path, size: int, backends: list[str]) -> None:
    """Delete one size's generated corpus and index data (the results stay)."""
    shutil.rmtree(work / f"corpus-{size}", ignore_errors=True)
    for b in backends:
        shutil.rmtree(work / f"data-{b}-{size}", ignore_errors=True)
        shutil.rmtree(work / f"server-{size}", ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("all")
    a.add_argument("--sizes", default="10000,100000,1000000")
    a.add_argument("--backends", default="lite,server")
    a.add_argument("--work", type=Path, default=Path("/tmp/cost-curve"))
    a.add_argument("--rounds", type=int, default=5, help="rounds of the 12 queries per strategy")
    a.add_argument("--timeout", type=float, default=5400, help="seconds one (backend, size) may take")
    a.add_argument("--keep", action="store_true", help="keep the corpora, data and the last server")
    a.add_argument("--max-rss", type=float, default=8192, help="MB the run's process tree may hold (shared machine)")
    a.add_argument(
        "--resume", action="store_true", help="go on from a stopped run's data in WORK (its row says 'resumed')"
    )
    a.add_argument(
        "--manifest-from",
        default="",
        help="a backend whose kept manifest (WORK/data-BACKEND-SIZE) the other backends copy instead of "
        "reading the files again (their rows say 'files→manifest: shared')",
    )
    r = sub.add_parser("run")
    r.add_argument("corpus", type=Path)
    r.add_argument("backend")
    r.add_argument("--rounds", type=int, default=5)
    r.add_argument("--server-pid", type=int, default=0)
    e = sub.add_parser("embed")
    e.add_argument("--chunks", type=int, default=10_000)
    e.add_argument("--work", type=Path, default=Path("/tmp/cost-curve"))
    d = sub.add_parser("render")
    d.add_argument("--work", type=Path, default=Path("/tmp/cost-curve"))
    d.add_argument("--dest", type=Path, default=HERE / "results")
    sm = sub.add_parser("small")
    sm.add_argument("work", type=Path)
    args = ap.parse_args()
    if args.cmd == "run":
        print(
            json.dumps(
                measure(
                    args.corpus, Path(os.environ["MEMSEARCH_TUI_DATA_DIR"]), args.backend, args.rounds, args.server_pid
                )
            )
        )
    elif args.cmd == "all":
        args.work.mkdir(parents=True, exist_ok=True)
        results = args.work / "results.jsonl"
        for size in [int(x) for x in args.sizes.split(",")]:
            run_size(
                size,
                args.backends.split(","),
                args.work,
                args.rounds,
                args.timeout,
                results,
                args.keep,
                args.max_rss,
                args.resume,
                args.manifest_from,
            )
            if not args.keep:
                cleanup(args.work, size, args.backends.split(","))
    elif args.cmd == "embed":
        args.work.mkdir(parents=True, exist_ok=True)
        row = {"kind": "embed", **embed_throughput(args.chunks, args.work)}
        with (args.work / "results.jsonl").open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps(row))
    elif args.cmd == "render":
        write_outputs(args.work / "results.jsonl", args.dest)
        print((args.dest / "cost_curve.md").read_text())
    else:  # small: the whole path on 300 turns, Lite only, into WORK (the test runs this)
        args.work.mkdir(parents=True, exist_ok=True)
        results = args.work / "results.jsonl"
        run_size(300, ["lite"], args.work, 1, 600, results, False)
        cleanup(args.work, 300, ["lite"])
        write_outputs(results, args.work / "out")
        print((args.work / "out" / "cost_curve.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
