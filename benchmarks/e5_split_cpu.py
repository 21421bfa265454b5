"""CPU of E5's bulk encode from two source trees, alternately (a refactor of its split).

    python benchmarks/e5_split_cpu.py OLD_SRC NEW_SRC [--texts 240] [--runs 5]

Each run is a fresh process (``PYTHONPATH=SRC``) that loads multilingual-e5-small once,
then times ``E5Encoder(bulk=True).encode`` of the same texts (journal-like turns, English
and Chinese, 20 to 900 characters): the process's CPU (user + system) and wall for the
encode alone. OLD and NEW alternate, so a busy machine slows both alike; prints the
medians and NEW/OLD. The rows must be the same (max abs difference printed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, os, random, sys, time
import numpy as np
from memsearch_tui.engine.search.e5_encoder import E5Encoder, e5_dir
rng = random.Random(7)
en = "we moved the orders service to postgres and the p99 fell from forty to twelve ms".split()
zh = list("把订单服务迁到新的数据库周末停机两小时备份每天凌晨三点跑一次保留三十天")
texts = []
for i in range(int(sys.argv[1])):
    words = en if i % 2 else zh
    n = rng.randint(4, 160)
    texts.append((" " if i % 2 else "").join(rng.choice(words) for _ in range(n)))
enc = E5Encoder(e5_dir(), bulk=True)
enc.encode(texts[:4])  # the engine's first-call set-up, not timed
t0, c0 = time.perf_counter(), os.times()
rows = enc.encode(texts)
c1 = os.times()
print(json.dumps({"cpu": (c1.user - c0.user) + (c1.system - c0.system), "wall": time.perf_counter() - t0,
                  "sum": float(np.abs(rows).sum()), "first": rows[:3].tolist()}))
"""


def once(src: str, texts: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=src)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(texts)], env=env, capture_output=True, text=True, check=True, cwd=src
    )
    out: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--texts", type=int, default=240)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    got: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for _ in range(a.runs):
        for name in ("old", "new"):
            got[name].append(once(getattr(a, name), a.texts))
    cpu = {k: statistics.median(r["cpu"] for r in v) for k, v in got.items()}
    wall = {k: statistics.median(r["wall"] for r in v) for k, v in got.items()}
    same = got["old"][0]["first"] == got["new"][0]["first"] and got["old"][0]["sum"] == got["new"][0]["sum"]
    print(f"load average {os.getloadavg()[0]:.1f}; {a.texts} texts; {a.runs} runs each, alternating")
    print(f"CPU  old {cpu['old']:.2f} s  new {cpu['new']:.2f} s  new/old {cpu['new'] / cpu['old']:.3f}")
    print(f"wall old {wall['old']:.2f} s  new {wall['new']:.2f} s  new/old {wall['new'] / wall['old']:.3f}")
    print(f"rows identical: {same}")


if __name__ == "__main__":
    main()
