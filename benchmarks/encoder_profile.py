"""Where the first build's time and the encoder's time go (issue 36 items 6b and 6c): measure first.

    python benchmarks/encoder_profile.py build [--runs 5]      # the build at open, phase by phase
    python benchmarks/encoder_profile.py forward [--runs 3]    # the numpy forward pass, op by op

``build``: the project ``warm_share.py first-meaning`` uses (20 journal days + 30 entries),
opened as the app opens it (``Memory(share=True)``, ``search.prepare()``, ``wait_built()``),
each run a fresh process and a fresh data dir. The build's steps are wrapped with timers
(wall and the calling thread's CPU, start and end from ``prepare()``): chunking, opening
Milvus Lite (in its own thread), the model's set-up, each ``encode`` call and its per-core
``_forward`` groups, Milvus ``ensure`` / ``insert`` / ``flush``, the keyword index. Also
the process's CPU (Milvus Lite 3 serves from threads of this process). Medians over the runs.

``forward``: the texts that build embedded (saved by ``build``), through the numpy bulk
encoder's forward pass on one thread, in the groups the build makes, with each operation
timed (thread CPU): the four dense products, GELU, softmax, QKᵀ, AV, layer norms …; the
dense products' GFLOP/s beside numpy's sgemm on the same shapes (this CPU's float32 peak as
numpy reaches it); and, when the ``onnx`` package is installed (the test extras), the same
forward pass as an onnxruntime graph with fused Attention / SkipLayerNormalization /
BiasGelu, built from the safetensors weights, beside it (CPU and the vectors' agreement).

Timer wrappers, not a profiler: cProfile sees neither numpy's loops nor the other threads.
The machine is shared: read the shares and ratios, and say the load (printed).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from search_speed import PY, REPO, corpus, env_for  # noqa: E402

BUILD = r"""
import functools, json, sys, threading, time
from pathlib import Path
T, lock = {}, threading.Lock()
T0 = time.perf_counter()

def wrap(owner, name, label):
    f = getattr(owner, name)
    @functools.wraps(f)
    def timed(*a, **k):
        t, c = time.perf_counter(), time.thread_time()
        try:
            return f(*a, **k)
        finally:
            with lock:
                e = T.setdefault(label, {"n": 0, "wall": 0.0, "cpu": 0.0, "start": t - T0, "end": 0.0})
                e["n"] += 1
                e["wall"] += time.perf_counter() - t
                e["cpu"] += time.thread_time() - c
                e["end"] = time.perf_counter() - T0
    setattr(owner, name, timed)

from memsearch_tui.engine.api import Memory
import memsearch_tui.engine.search.bulk_work as bw
import memsearch_tui.engine.search.indexer as ix
import memsearch_tui.engine.search.milvus_backend as mb
import memsearch_tui.engine.search.numpy_bert as nb
import memsearch_tui.engine.search.searcher as se
calls = []
encode = nb.NumpyBertEncoder.encode
def keep(self, texts, batch_size=32):
    calls.append(list(texts))
    return encode(self, texts, batch_size)
nb.NumpyBertEncoder.encode = keep
for owner, name, label in (
    (se.Searcher, "refresh_chunks", "chunking (sync_chunks)"),
    (se.Searcher, "_open_vectors", "Milvus Lite start (own thread)"),
    (se, "encoder_for", "model set-up (weights)"),
    (nb.NumpyBertEncoder, "encode", "encode calls (tokenize + forward)"),
    (bw, "model_tokenizer", "tokenizer load"),
    (nb.NumpyBertEncoder, "_forward", "forward groups (per-core threads)"),
    (mb.MilvusVectors, "ensure", "Milvus ensure (collection)"),
    (mb.MilvusVectors, "insert", "Milvus insert"),
    (mb.MilvusVectors, "flush", "Milvus flush"),
    (se.Searcher, "keyword_index", "keyword index"),
):
    wrap(owner, name, label)
mem = Memory(Path(sys.argv[1]), Path(sys.argv[2]), share=True)
T0 = time.perf_counter()
c0 = time.process_time()
mem.search.prepare()
all_in = None
if hasattr(mem.search, "wait_all_meaning"):  # the final meaning answer can be drawn from here on
    mem.search.wait_all_meaning()
    all_in = (time.perf_counter() - T0, time.process_time() - c0)
mem.search.wait_built()
built, cpu = time.perf_counter() - T0, time.process_time() - c0

mem.close()
Path(sys.argv[3]).write_text(json.dumps(calls, ensure_ascii=False), encoding="utf-8")
print(json.dumps({"build": built, "cpu": cpu, "all_in": all_in, "phases": T}))
"""


def table(rows: list[tuple[str, str]]) -> str:
    """Two-column Markdown rows."""
    return "\n".join(["| measurement | value |", "| --- | --- |", *(f"| {a} | {b} |" for a, b in rows)])


def cmd_build(work: Path, runs: int, old_src: Path | None = None) -> None:
    """``old_src``: another checkout's code too, run by run in the same rounds."""
    root, project = corpus(work, 30, 20)
    env = env_for(work, "encoder-profile")
    texts = work / "encoder-texts.json"
    trees: dict[str, dict] = {str(REPO): env}
    if old_src is not None:
        trees[str(old_src)] = {**env, "PYTHONPATH": str(old_src)}
    got: dict[str, list[dict]] = {name: [] for name in trees}
    load0 = os.getloadavg()[0]
    for n in range(runs + 1):
        for name, tree_env in trees.items():
            shutil.rmtree(env["MEMSEARCH_TUI_DATA_DIR"], ignore_errors=True)
            out = subprocess.run(
                [PY, "-c", BUILD, str(root), str(project), str(texts)],
                env=tree_env,
                capture_output=True,
                text=True,
                cwd="/",  # ``-c`` puts the working directory first on sys.path: not a tree's code
            )
            if out.returncode != 0:
                raise SystemExit(out.stderr[-800:])
            if n:  # the first run is not timed: bytecode, the page cache
                got[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
    for name, runs_of in got.items():
        print(f"tree {name}")
        _build_table(runs_of)
    print(f"{runs} runs, load average {load0:.1f} → {os.getloadavg()[0]:.1f}; texts saved to {texts}")


def _build_table(got: list[dict]) -> None:
    def med(f) -> float:
        return statistics.median(f(x) for x in got)

    rows = [
        ("the build (prepare → built), wall", f"{med(lambda x: x['build']):.2f} s"),
        ("the process's CPU meanwhile (Milvus Lite 3 runs in it)", f"{med(lambda x: x['cpu']):.2f} s"),
    ]
    if all(x.get("all_in") for x in got):
        rows.append(
            (
                "every text embedded (the final meaning answer from here), wall / process CPU",
                f"{med(lambda x: x['all_in'][0]):.2f} s / {med(lambda x: x['all_in'][1]):.2f} s",
            )
        )
    for label in got[0]["phases"]:
        ph = [x["phases"].get(label) for x in got]
        if None in ph:
            continue

        def p(key: str, ph: list = ph) -> float:
            return statistics.median(e[key] for e in ph)

        rows.append(
            (
                f"{label} ×{ph[0]['n']}",
                f"wall {p('wall'):.3f} s, CPU {p('cpu'):.3f} s, from {p('start'):.2f} to {p('end'):.2f} s",
            )
        )
    print(table(rows))


def _groups(enc, calls: list[list[str]]) -> list[list[list[int]]]:
    from memsearch_tui.engine.search import bulk_work

    groups = []
    for texts in calls:
        encs = [list(e.ids) for e in enc.tok.encode_batch(texts)]
        groups += [[encs[i] for i in g] for g in bulk_work.length_groups(encs, bulk_work.cores())]
    return groups


def _timed_forward(enc, seqs: list[list[int]], acc: dict[str, float]) -> None:
    """:meth:`NumpyBertEncoder._forward`'s steps, each timed (thread CPU) into ``acc``."""
    import numpy as np

    from memsearch_tui.engine.search import numpy_bert as nb

    w, dim, h = enc.w, enc.dim, enc.heads
    d = dim // h
    clock = time.thread_time
    mark = [clock()]

    def lap(label: str) -> None:
        now = clock()
        acc[label] = acc.get(label, 0.0) + now - mark[0]
        mark[0] = now

    def residual(product, x, bias: str):
        product += w[bias]
        product += x
        lap("biases and residuals")
        return product

    lens, starts, pos, x = enc._embed(seqs)
    bsz, n, total = len(seqs), int(lens.max()), int(lens.sum())
    ragged = int(lens.min()) != n
    rows = np.repeat(np.arange(bsz), lens)
    grid = np.zeros((bsz * n, 3 * dim), dtype=np.float32)
    flat = rows * n + pos
    mask = np.where(np.arange(n)[None, :] < lens[:, None], np.float32(0.0), np.float32(-1e9))
    bias = mask.astype(np.float32)[:, None, None, :]
    y = np.empty((total, 3 * dim), dtype=np.float32)
    lap("embeddings")
    for i in range(enc.layers):
        p = f"encoder.layer.{i}."
        enc._qkv(x, i, y)
        lap("QKV product")
        if ragged:
            grid[flat] = y
            qkv = grid.reshape(bsz, n, 3, h, d)
        else:
            qkv = y.reshape(bsz, n, 3, h, d)
        lap("into / out of the attention grid")
        att = qkv[:, :, 0].transpose(0, 2, 1, 3) @ qkv[:, :, 1].transpose(0, 2, 3, 1)
        lap("QKᵀ")
        if ragged:
            att += bias
        att -= att.max(-1, keepdims=True)
        np.exp(att, out=att)
        lap("softmax")
        ctx = att @ qkv[:, :, 2].transpose(0, 2, 1, 3)
        lap("AV")
        ctx /= att.sum(-1, keepdims=True)
        lap("softmax")
        by_token = ctx.transpose(0, 2, 1, 3)
        flat_ctx = (by_token[rows, pos] if ragged else by_token).reshape(total, dim)
        lap("into / out of the attention grid")
        o = flat_ctx @ enc.wt[p + "attention.output.dense"]
        lap("attention output product")
        x = enc._norm(residual(o, x, p + "attention.output.dense.bias"), p + "attention.output.LayerNorm")
        lap("layer norms")
        act = x @ enc.wt[p + "intermediate.dense"]
        lap("FFN up product")
        for at in range(0, act.shape[0], nb.FFN_ROWS):
            block = act[at : at + nb.FFN_ROWS]
            block += w[p + "intermediate.dense.bias"]
            lap("biases and residuals")
            nb._gelu(block)
            lap("GELU")
        out = np.matmul(act, enc.wt[p + "output.dense"])
        lap("FFN down product")
        x = enc._norm(residual(out, x, p + "output.dense.bias"), p + "output.LayerNorm")
        lap("layer norms")
    pooled = np.add.reduceat(x, starts, axis=0)
    pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
    lap("pooling")


DENSE = ("QKV product", "attention output product", "FFN up product", "FFN down product")


def _sgemm_peak(rows: int, k: int, n: int) -> float:
    import numpy as np

    a = np.random.default_rng(0).random((rows, k), dtype=np.float32)
    b = np.random.default_rng(1).random((k, n), dtype=np.float32)
    for _ in range(3):
        a @ b
    t, reps = time.thread_time(), 0
    while time.thread_time() - t < 0.5:
        a @ b
        reps += 1
    return 2 * rows * k * n * reps / (time.thread_time() - t) / 1e9


def cmd_forward(work: Path, runs: int) -> None:
    from threadpoolctl import threadpool_limits

    from memsearch_tui.engine.search.embeddings import resolve_model_path
    from memsearch_tui.engine.search.numpy_bert import NumpyBertEncoder

    texts = work / "encoder-texts.json"
    if not texts.is_file():
        cmd_build(work, 1)
    calls = json.loads(texts.read_text(encoding="utf-8"))
    import numpy  # noqa: F401  (loaded first: threadpoolctl limits only the BLAS libraries already loaded)

    one_thread = threadpool_limits(limits=1, user_api="blas")
    load0 = os.getloadavg()[0]
    enc = NumpyBertEncoder(resolve_model_path(None), bulk=True)
    groups = _groups(enc, calls)
    tokens = sum(len(s) for g in groups for s in g)
    cfg = enc.cfg
    inter = int(cfg["intermediate_size"])
    flop = 2 * tokens * enc.layers * (enc.dim * 3 * enc.dim + enc.dim * enc.dim + 2 * enc.dim * inter)
    acc: dict[str, float] = {}
    for g in groups:  # warm
        _timed_forward(enc, g, acc)
    acc.clear()
    t = time.thread_time()
    for _ in range(runs):
        for g in groups:
            _timed_forward(enc, g, acc)
    whole = (time.thread_time() - t) / runs
    dense = sum(acc.get(k, 0.0) for k in DENSE) / runs
    rows = [(f"{k}", f"{v / runs * 1000:.0f} ms, {v / runs / whole * 100:.1f} %") for k, v in acc.items()]
    rows.sort(key=lambda r: -float(r[1].split(" ms")[0]))
    rows.insert(0, ("the forward pass, one thread (CPU)", f"{whole * 1000:.0f} ms"))
    rows.append(("dense products: GFLOP / GFLOP/s", f"{flop / 1e9:.1f} / {flop / dense / 1e9:.1f}"))
    rows.append(("whole forward pass, dense GFLOP per s", f"{flop / whole / 1e9:.1f}"))
    for n in (256, 2048):
        rows.append(
            (
                f"numpy sgemm ({n}×{enc.dim})·({enc.dim}×{inter}), one thread",
                f"{_sgemm_peak(n, enc.dim, inter):.1f} GFLOP/s",
            )
        )
    print(
        f"{sum(map(len, calls))} texts, {tokens} tokens, {len(groups)} groups; {runs} runs; "
        f"load average {load0:.1f} → {os.getloadavg()[0]:.1f}"
    )
    print(table(rows))
    try:
        import onnx  # noqa: F401  (the test extras: builds the comparison graph)
    except ImportError:
        print("onnx is not installed: the onnxruntime comparison is left out")
        return
    _compare_onnxruntime(enc, groups, runs)
    one_thread.restore_original_limits()


def _compare_onnxruntime(enc, groups: list[list[list[int]]], runs: int) -> None:
    """The same forward pass as an onnxruntime graph (packed tokens; fused contrib ops)."""
    import numpy as np
    import onnxruntime as ort

    blob = _ort_graph(enc)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    t = time.perf_counter()
    sess = ort.InferenceSession(blob, so, providers=["CPUExecutionProvider"])
    made = time.perf_counter() - t

    def forward(seqs: list[list[int]]):
        lens = np.array([len(s) for s in seqs])
        bsz, n, total = len(seqs), int(lens.max()), int(lens.sum())
        starts = np.zeros(bsz, np.int64)
        np.cumsum(lens[:-1], out=starts[1:])
        pos = np.arange(total, dtype=np.int64) - np.repeat(starts, lens)
        rows = np.repeat(np.arange(bsz), lens)
        back = (rows * n + pos).astype(np.int64)
        grid = np.full(bsz * n, total, np.int64)
        grid[back] = np.arange(total)
        feed = {
            "ids": np.fromiter((t for s in seqs for t in s), np.int64, total),
            "pos": pos,
            "grid": grid,
            "back": back,
            "bnd": np.array([bsz, n, enc.dim], np.int64),
            "flat": np.array([bsz * n, enc.dim], np.int64),
            "lens": lens.astype(np.int32),
        }
        x = sess.run(["out"], feed)[0]
        pooled = np.add.reduceat(x, starts, axis=0)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    cos = min(float((forward(g) * enc._forward(g)).sum(1).min()) for g in groups)
    ratios = []
    for _ in range(runs):
        t = time.thread_time()
        for g in groups:
            enc._forward(g)
        ours = time.thread_time() - t
        t = time.thread_time()
        for g in groups:
            forward(g)
        ratios.append(((time.thread_time() - t), ours))
    o, n_ = statistics.median(r[0] for r in ratios), statistics.median(r[1] for r in ratios)
    print(
        table(
            [
                ("onnxruntime graph: size / session", f"{len(blob) / 1e6:.0f} MB / {made:.2f} s"),
                ("forward pass CPU: onnxruntime / numpy", f"{o * 1000:.0f} / {n_ * 1000:.0f} ms = {o / n_:.2f}×"),
                ("lowest cosine, onnxruntime vs numpy rows", f"{cos:.7f}"),
            ]
        )
    )


def _ort_graph(enc) -> bytes:
    """MiniLM's forward pass over packed tokens as an ONNX graph: Gather into a padded grid only
    for com.microsoft.Attention (QKV product, softmax, AV), SkipLayerNormalization and BiasGelu."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    from memsearch_tui.engine.search.safetensors_map import mapped_safetensors

    w = {
        k.removeprefix("bert."): np.asarray(v, dtype=np.float32)
        for k, v in mapped_safetensors(enc.model_dir / "model.safetensors").items()
    }
    inits, nodes = [], []

    def init(name: str, arr) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(arr), name))
        return name

    def node(op: str, ins: list[str], out: str, ms: bool = False, **kw) -> str:
        nodes.append(helper.make_node(op, ins, [out], domain="com.microsoft" if ms else "", **kw))
        return out

    eps = enc.eps

    def dense_norm(product: str, residual: str, at: str, out: str) -> str:
        """LayerNorm(product + dense bias + residual) as one SkipLayerNormalization."""
        ln = at + "LayerNorm."
        names = (f"{out}.g", w[ln + "weight"]), (f"{out}.b", w[ln + "bias"]), (f"{out}.d", w[at + "dense.bias"])
        return node(
            "SkipLayerNormalization", [product, residual, *(init(n, v) for n, v in names)], out, True, epsilon=eps
        )

    we = node("Gather", [init("wemb", w["embeddings.word_embeddings.weight"]), "ids"], "we")
    pe = node("Gather", [init("pemb", enc.pos_type()), "pos"], "pe")
    ln = "embeddings.LayerNorm."
    x = node(
        "SkipLayerNormalization",
        [we, pe, init("eg", w[ln + "weight"]), init("eb", w[ln + "bias"])],
        "x",
        True,
        epsilon=eps,
    )
    init("zero", np.zeros((1, enc.dim), np.float32))
    for i in range(enc.layers):
        p, a = f"encoder.layer.{i}.", f"encoder.layer.{i}.attention.self."
        wqkv = np.concatenate([w[a + s + ".weight"].T for s in ("query", "key", "value")], 1)
        bqkv = np.concatenate([w[a + s + ".bias"] for s in ("query", "key", "value")])
        g = node("Gather", [node("Concat", [x, "zero"], f"xz{i}", axis=0), "grid"], f"g{i}")
        g = node("Reshape", [g, "bnd"], f"g3{i}")
        att = node(
            "Attention",
            [g, init(f"wqkv{i}", wqkv), init(f"bqkv{i}", bqkv), "lens"],
            f"att{i}",
            True,
            num_heads=enc.heads,
        )
        att = node("Gather", [node("Reshape", [att, "flat"], f"af{i}"), "back"], f"ap{i}")
        o = node("MatMul", [att, init(f"wo{i}", w[p + "attention.output.dense.weight"].T)], f"o{i}")
        x = dense_norm(o, x, p + "attention.output.", f"xa{i}")
        hid = node("MatMul", [x, init(f"w1{i}", w[p + "intermediate.dense.weight"].T)], f"h{i}")
        hid = node("BiasGelu", [hid, init(f"bi{i}", w[p + "intermediate.dense.bias"])], f"hg{i}", True)
        f = node("MatMul", [hid, init(f"w2{i}", w[p + "output.dense.weight"].T)], f"f{i}")
        x = dense_norm(f, x, p + "output.", "out" if i == enc.layers - 1 else f"xf{i}")
    i64, i32 = TensorProto.INT64, TensorProto.INT32
    inputs = [
        helper.make_tensor_value_info(name, kind, shape)
        for name, kind, shape in (
            ("ids", i64, ["T"]),
            ("pos", i64, ["T"]),
            ("grid", i64, ["G"]),
            ("back", i64, ["T"]),
            ("bnd", i64, [3]),
            ("flat", i64, [2]),
            ("lens", i32, ["B"]),
        )
    ]
    graph = helper.make_graph(
        nodes, "bert", inputs, [helper.make_tensor_value_info("out", TensorProto.FLOAT, ["T", enc.dim])], inits
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    return helper.make_model(graph, opset_imports=opsets).SerializeToString()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["build", "forward"])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work", type=Path, default=Path("/tmp/memsearch-tui-bench"))
    ap.add_argument("--old-src", type=Path, help="build: also this checkout's code, in the same rounds")
    a = ap.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)
    print(f"tree {REPO}")
    if a.what == "build":
        cmd_build(a.work, a.runs, a.old_src)
    else:
        cmd_forward(a.work, a.runs)


if __name__ == "__main__":
    main()
