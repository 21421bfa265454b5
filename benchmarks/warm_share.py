"""One warm index shared by the faces (issue 37 item 6): before (every face on its own) and after.

    python benchmarks/warm_share.py [--runs 5] [--work DIR]
    python benchmarks/warm_share.py first-meaning [--runs 5] [--old-src TREE]  # the app's first meaning search, fresh project

On a gen_corpus project of 20 journal days + 30 entries, its index built once:

* **second face's first meaning search**: a fresh process opens ``Memory`` and runs one
  hybrid search, while another face (a stand-in for the app: ``Memory(share=…)`` that has
  searched by meaning) is open. Before = that face does not share (as every face was): the
  second face loads the model and the vector mirror itself. After = it owns the index.
* **the hook with the app open**: the open face has just embedded a new turn, so it holds
  Milvus Lite. A new turn is written, ``--run-due --hook claude-code`` runs; timed: the
  hook's wall time, and how long until the new turn's vector is in (capped). Before: the
  hook's background runner meets Milvus Lite's lock and the vector waits for the app.

``first-meaning`` (issue 36 item 6): a fresh project (no index), as the app opens it:
``mem.search.prepare()`` (the app calls it 2 s after it opens) builds the index in the
background. Timed in one process each run, from a fresh data dir: the build (prepare → built);
the first hybrid search after it (Enter a few seconds after the app opened); and Enter at
once (while the build runs): the keyword answer (with "meaning results coming"), the first
meaning answer (asked again once the build's first vectors are in, as the app does: meaning
over the chunks embedded so far) and the full meaning answer after the build. Before (no prepare): Enter builds everything, then answers.

Medians; the load average is printed beside them (this machine is shared).
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

from search_speed import CLI, PY, corpus, env_for, table  # noqa: E402

QUESTION = "how do we keep the cache fast"
CAP = 30.0  # seconds a new turn's vector is waited for

FACE = """
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from memsearch_tui.engine.api import Memory
mem = Memory(Path(sys.argv[1]), Path(sys.argv[2]))
t1 = time.perf_counter()
mem.search.query(sys.argv[3], strategy="hybrid", k=5)
t2 = time.perf_counter()
print(json.dumps({"search": t2 - t1, "start": t1 - t0, "served_by": mem.warm.served_by}))
"""

APP = """
import sys
from pathlib import Path
from memsearch_tui.engine.api import Memory
mem = Memory(Path(sys.argv[1]), Path(sys.argv[2]), share=sys.argv[3] == "share")
mem.search.query("cache", strategy="hybrid", k=3)
day = Path(sys.argv[2]) / ".memsearch" / "memory" / "2099-01-01.md"
day.write_text("# 2099-01-01\\n\\n## Session 09:00\\n\\n### 09:00\\n- the app embedded this turn\\n", encoding="utf-8")
mem.invalidate()
mem.search.query("embedded turn", strategy="hybrid", k=3)  # syncs: this face now holds Milvus Lite
print("open", flush=True)
sys.stdin.readline()
"""


def open_app(root: Path, project: Path, env: dict, share: bool) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [PY, "-c", APP, str(root), str(project), "share" if share else "alone"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
    return proc


def close_app(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait(timeout=120)


def second_face(root: Path, project: Path, env: dict) -> tuple[float, float, bool]:
    """(wall s of the process, s of its first hybrid search, served by an owner)."""
    t = time.perf_counter()
    out = subprocess.run([PY, "-c", FACE, str(root), str(project), QUESTION], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if out.returncode != 0:
        raise SystemExit(out.stderr[-800:])
    got = json.loads(out.stdout.strip().splitlines()[-1])
    return wall, got["search"], got["served_by"] is not None


def pending(env: dict, root: Path, project: Path) -> int:
    code = (
        "import sys\nfrom pathlib import Path\nfrom memsearch_tui.engine.search.manifest import Manifest\n"
        "from memsearch_tui.engine.search.settings import load_settings\n"
        "m = Manifest(load_settings(Path(sys.argv[1]), Path(sys.argv[2])).manifest_path)\n"
        "print(sum(m.count_pending()))\n"
    )
    out = subprocess.run([PY, "-c", code, str(root), str(project)], env=env, capture_output=True, text=True)
    return int(out.stdout.strip() or "-1")


def hook_run(root: Path, project: Path, env: dict, n: int) -> tuple[float, float | None, str]:
    """(hook wall s, s until the new turn's vector is in or None past CAP, the vector row's reason)."""
    day = project / ".memsearch" / "memory" / "2099-01-02.md"
    with day.open("a", encoding="utf-8") as fh:
        fh.write(f"\n### 10:{n:02d}\n- hook turn {n}: moved the nightly backups to the storage box\n")
    t = time.perf_counter()
    out = subprocess.run(
        [CLI, "--run-due", "--hook", "claude-code", "--json"],
        input=b"{}",
        capture_output=True,
        cwd=project,
        env={**env, "MEMSEARCH_TUI_MEMORY_ROOT": str(root)},
    )
    took = time.perf_counter() - t
    report = json.loads(out.stderr.decode().strip().splitlines()[-1])
    row = next(r for r in report["data"]["tasks"] if r["task"] == "vectors")
    while time.perf_counter() - t < CAP:
        if pending(env, root, project) == 0:
            return took, time.perf_counter() - t, row["reason"]
        time.sleep(0.1)
    return took, None, row["reason"]


APP_FIRST = """
import json, sys, time
from pathlib import Path
from memsearch_tui.engine.api import Memory
mem = Memory(Path(sys.argv[1]), Path(sys.argv[2]), share=True)
q, mode, out = sys.argv[3], sys.argv[4], {}
t0 = time.perf_counter()
if mode == "before":
    mem.search.query(q, strategy="hybrid", k=5)
    out["enter"] = time.perf_counter() - t0
elif mode == "after":
    mem.search.prepare()
    mem.search.wait_built()
    out["build"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    mem.search.query(q, strategy="hybrid", k=5)
    out["enter"] = time.perf_counter() - t1
else:  # Enter at once, during the build
    mem.search.prepare()
    res = mem.search.query(q, strategy="hybrid", k=5)
    out["keywords"] = time.perf_counter() - t0
    out["coming"] = any("meaning results coming" in n for n in res.notes)
    mem.search.wait_meaning()  # the app asks again once the build's first vectors are in
    res = mem.search.query(q, strategy="hybrid", k=5)
    out["first"] = time.perf_counter() - t0
    out["partial"] = any(n.startswith("meaning over") for n in res.notes)
    first = [(h.id, h.lines) for h in res.hits]
    # the app asks again once every text is embedded (session 20), else once the build ends
    getattr(mem.search, "wait_all_meaning", mem.search.wait_built)()
    res = mem.search.query(q, strategy="hybrid", k=5)
    out["meaning"] = time.perf_counter() - t0
    out["final"] = not any("meaning results coming" in n or n.startswith("meaning over") for n in res.notes)
    full = [(h.id, h.lines, h.snippet, round(h.score, 6)) for h in res.hits]
    out["same"] = first == [(h.id, h.lines) for h in res.hits]  # the first meaning answer was the final one
    mem.search.wait_built()
    out["built"] = time.perf_counter() - t0
    res = mem.search.query(q, strategy="hybrid", k=5)
    out["as_built"] = full == [(h.id, h.lines, h.snippet, round(h.score, 6)) for h in res.hits]
mem.close()
print(json.dumps(out))
"""


def first_meaning(work: Path, runs: int, old_src: Path | None = None) -> list[tuple[str, str]]:
    """``old_src``: another checkout's code too (Enter at once), in the same rounds."""
    root, project = corpus(work, 30, 20)
    env = env_for(work, "first-app")
    old_env = {**env, "PYTHONPATH": str(old_src)} if old_src is not None else env
    got: dict[str, list[dict]] = {"before": [], "after": [], "at-once": []}
    if old_src is not None:
        got["at-once (old code)"] = []
    for n in range(runs + 1):
        for mode, samples in got.items():
            shutil.rmtree(env["MEMSEARCH_TUI_DATA_DIR"], ignore_errors=True)
            out = subprocess.run(
                [PY, "-c", APP_FIRST, str(root), str(project), QUESTION, mode.split(" ")[0]],
                env=old_env if "old" in mode else env,
                capture_output=True,
                text=True,
                cwd="/",  # ``-c`` puts the working directory first on sys.path: not a tree's code
            )
            if out.returncode != 0:
                raise SystemExit(out.stderr[-800:])
            if n:  # the first round is not timed: bytecode, the page cache
                samples.append(json.loads(out.stdout.strip().splitlines()[-1]))

    def med(mode: str, key: str) -> str:
        return f"{statistics.median(x[key] for x in got[mode]):.2f} s"

    def at_once(mode: str) -> str:
        coming = sum(x["coming"] for x in got[mode])
        partial = sum(x["partial"] for x in got[mode])
        same = sum(x.get("same", False) for x in got[mode])
        final = sum(x.get("final", False) for x in got[mode])
        as_built = sum(x.get("as_built", False) for x in got[mode])
        return (
            f"{med(mode, 'keywords')} / {med(mode, 'first')} / {med(mode, 'meaning')} "
            f"(coming note {coming}/{runs}; first hits partial {partial}/{runs}; "
            f"first top-5 = final top-5 {same}/{runs}; full answer without a note {final}/{runs}, "
            f"= the answer after the build {as_built}/{runs}; build done {med(mode, 'built')})"
        )

    rows = [
        ("before: Enter in a fresh project (builds, then answers)", med("before", "enter")),
        ("after: the build at open (prepare → built)", med("after", "build")),
        ("after: Enter once the build is done", med("after", "enter")),
        (
            "after: Enter at once, during the build: keyword hits / first meaning hits / full meaning hits",
            at_once("at-once"),
        ),
    ]
    if old_src is not None:
        rows.append((f"old code ({old_src.name}): Enter at once, the same three", at_once("at-once (old code)")))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", nargs="?", choices=["share", "first-meaning"], default="share")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work", type=Path, default=Path("/tmp/memsearch-tui-bench"))
    ap.add_argument("--old-src", type=Path, help="first-meaning: also this checkout's code (Enter at once)")
    a = ap.parse_args()
    load0 = os.getloadavg()
    if a.what == "first-meaning":
        rows = first_meaning(a.work, a.runs, a.old_src)
        load = os.getloadavg()
        rows.append(("load average (1 min) at the start / end", f"{load0[0]:.1f} → {load[0]:.1f}"))
        print(f"{a.runs} runs each, 20 journal days + 30 entries (163 chunks), {os.cpu_count()} CPUs\n")
        print(table([(what, got, "—", "—") for what, got in rows]))
        return
    root, project = corpus(a.work, 30, 20)
    env = env_for(a.work, "warm-share")
    home = Path(env["HOME"])
    (home / ".memsearch").mkdir(parents=True, exist_ok=True)
    (home / ".memsearch" / "config.toml").write_text("[plugins.claude-code.project_review]\nenabled = false\n")
    shutil.rmtree(env["MEMSEARCH_TUI_DATA_DIR"], ignore_errors=True)
    for extra in ("2099-01-01.md", "2099-01-02.md"):
        (project / ".memsearch" / "memory" / extra).unlink(missing_ok=True)
    subprocess.run(
        [CLI, "--memory-root", str(root), "--project", str(project), "vectors", "index"], env=env, check=True
    )
    rows = []
    for label, share in (
        ("before: the open face does not share", False),
        ("after: the open face owns the index", True),
    ):
        app = open_app(root, project, env, share)
        try:
            second_face(root, project, env)  # not timed: bytecode, the page cache
            faces = [second_face(root, project, env) for _ in range(a.runs)]
            hooks = [hook_run(root, project, env, n) for n in range(a.runs)]
        finally:
            close_app(app)
        served = sum(f[2] for f in faces)
        waits = [h[1] for h in hooks if h[1] is not None]
        rows.append(
            (
                f"second face's first hybrid search, {label}",
                f"{statistics.median(f[1] for f in faces):.2f} s search, {statistics.median(f[0] for f in faces):.2f} s process"
                f" (served by the owner {served}/{len(faces)})",
            )
        )
        rows.append(
            (
                f"hook with the app open, {label}",
                f"hook {statistics.median(h[0] for h in hooks):.2f} s; new turn's vector in "
                + (
                    f"{statistics.median(waits):.2f} s"
                    if len(waits) == len(hooks)
                    else f"{len(waits)}/{len(hooks)} within {CAP:.0f} s"
                )
                + f" ({hooks[-1][2]})",
            )
        )
    load = os.getloadavg()
    rows.append(("load average (1 min) at the start / end", f"{load0[0]:.1f} → {load[0]:.1f}"))
    print(f"{a.runs} runs each, 20 journal days + 30 entries, {os.cpu_count()} CPUs\n")
    print(table([(what, got, "—", "—") for what, got in rows]))


if __name__ == "__main__":
    main()
