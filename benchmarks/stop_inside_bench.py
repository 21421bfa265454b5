"""Texts/s of a bulk encoder's 256-text call, the stop asked inside it or not, two trees side by side.

The build's stop (the app quitting) is asked by the bulk encoders inside their call since
session 20 (before each token block and layer; E5 before each part), so that a quit no
longer waits for the batch in flight. This measures what those questions cost: each round
runs one process per tree (alternating which goes first), each timing ``--calls`` calls of a
``indexer.BATCH``-text batch as the indexer makes them (``indexer._encode`` with a flag
never set, where the tree has it; else a plain ``encode()``). A tree that has it also times
the same call without the stop, alternating in the same process (``plain``), so the
questions' own cost is read without the processes' noise. Medians of the rounds:

    python benchmarks/stop_inside_bench.py --trees BASE BRANCH --encoder torch --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

TEXTS = [
    f"Moved the nightly backup job {n} to the new storage bucket and checked restore step {n}"
    if n % 3 == 0
    else f"第{n}天：调整了服务{n}的缓存淘汰策略，并写好了运维手册第{n}步" * (1 + n % 4)
    if n % 3 == 1
    else f"Reviewed pull request {n}: the retry loop now backs off " + "and logs the attempt " * (n % 9)
    for n in range(256)
]


def encoder(kind: str) -> Any:
    from memsearch_tui.engine.search.embeddings import NumpyBertEncoder, resolve_model_path

    if kind == "numpy":
        return NumpyBertEncoder(resolve_model_path(None), bulk=True)
    if kind == "torch":
        from memsearch_tui.engine.search.torch_bert import TorchBertEncoder

        return TorchBertEncoder(resolve_model_path(None))
    from memsearch_tui.engine.search.e5_encoder import E5Encoder, e5_dir

    return E5Encoder(e5_dir(), bulk=True)


def child(kind: str, calls: int) -> None:
    import threading

    from memsearch_tui.engine.search import indexer

    enc = encoder(kind)
    texts = TEXTS[: indexer.BATCH]
    flag = threading.Event()
    asked = getattr(indexer, "_encode", None)
    ways = {"asked": lambda: asked(enc, texts, flag.is_set)} if asked else {}
    ways["plain"] = lambda: enc.encode(texts)
    enc.encode(texts[:32])  # warm
    rates: dict[str, list[float]] = {k: [] for k in ways}
    for i in range(calls):
        for name in sorted(ways, reverse=i % 2 == 1):
            t = time.perf_counter()
            ways[name]()
            rates[name].append(len(texts) / (time.perf_counter() - t))
    print(json.dumps({k: statistics.median(v) for k, v in rates.items()}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trees", nargs="+", type=Path)
    ap.add_argument("--encoder", choices=("numpy", "torch", "e5"), default="torch")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=4)
    ap.add_argument("--child", action="store_true")
    a = ap.parse_args()
    if a.child:
        child(a.encoder, a.calls)
        return
    got: dict[str, dict[str, list[float]]] = {str(t): {} for t in a.trees}
    for r in range(a.rounds):
        for tree in a.trees if r % 2 == 0 else a.trees[::-1]:
            env = {**os.environ, "PYTHONPATH": str(tree)}
            cmd = [sys.executable, __file__, "--child", "--encoder", a.encoder, "--calls", str(a.calls)]
            out = json.loads(subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout)
            for k, v in out.items():
                got[str(tree)].setdefault(k, []).append(v)
            print(r, tree, {k: round(v, 1) for k, v in out.items()}, os.getloadavg()[0], flush=True)
    med = {t: {k: statistics.median(v) for k, v in ways.items()} for t, ways in got.items()}
    print(json.dumps({"encoder": a.encoder, "medians": med}, indent=1))
    base, new = (med[str(t)] for t in a.trees[:2])
    print("as the indexer calls it, new / base:", round(new.get("asked", new["plain"]) / base["plain"], 3))
    if "asked" in new:
        print("in one process, asked / plain:", round(new["asked"] / new["plain"], 3))


if __name__ == "__main__":
    main()
