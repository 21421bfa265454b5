"""The first meaning search as a person makes it in a fresh project (issue 36 item 6b).

    python benchmarks/first_search_person.py [--runs 5] [--old-src TREE] [--work DIR]

The project ``warm_share.py first-meaning`` uses (20 journal days + 30 entries, gen_corpus),
each run a fresh process and a fresh data dir (no index). The app opens in a Pilot (120×40,
the build at open on, as the app runs it); after its first frame (the Index's tree filled)
and a person's look at it (``LOOK`` s), the Search pane's key ``6``, then the question typed
at ``CPS`` characters a second (as-you-type keyword searches run between the keys), then
Enter; every key is handed to the app as a terminal's input thread hands it (``pilot.press``
waits for the process to go idle, up to 2 s, which it never does while the build runs).
Timed from Enter: the first answer drawn, and the full meaning answer on screen (the
status line says the strategy ran by meaning (``hybrid``, set as the strategy key sets it:
``auto`` answers this question by keywords on this corpus, at once), with no "meaning results coming" and no
"meaning over N of M" note). Also the first frame and the key ``6`` (to the refresh after
its pane is mounted and current).
With ``--old-src``, that checkout's app in the same rounds (its modules compiled first).

Medians; the load average is printed (the machine is shared: read the ratios).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from search_speed import PY, corpus, env_for, table  # noqa: E402

QUESTION = "how do we keep the cache fast?"  # 30 characters
CPS = 8.0
LOOK = 0.5  # seconds between the first frame and the pane's key

PROBE = textwrap.dedent(r"""
    import time; T0 = time.perf_counter()
    import asyncio, json, sys
    from pathlib import Path

    def send(app, key, char):
        from textual import events

        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)

    async def main():
        from memsearch_tui.tui.app import MemsearchApp
        q, cps, look = sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
        app = MemsearchApp(Path(sys.argv[1]), Path(sys.argv[2]), watch_files=False, remember_theme=False)
        out = {}
        async with app.run_test(size=(120, 40)) as pilot:
            tree = app.query_one("#index-tree")
            while not tree.root.children:
                await pilot.pause(0.002)
            await pilot.pause(0)
            out["paint"] = time.perf_counter() - T0
            await asyncio.sleep(look)
            t = time.perf_counter()
            send(app, "6", "6")  # not pilot.press: it waits for the process to idle (up to 2 s), the build never does
            switcher = app.query_one("#tabs").query_one("ContentSwitcher")
            while switcher.current != "search" or not app.pane("search").is_mounted:
                await asyncio.sleep(0.002)
            drawn = asyncio.Event()
            app.call_after_refresh(drawn.set)
            await drawn.wait()
            pane = app.pane("search")
            pane.strategy = "hybrid"  # as the strategy key sets it (auto ranks this question by keywords here)
            status = app.query_one("#search-status")
            out["key"] = time.perf_counter() - t
            box = app.query_one("#search-input")
            if app.focused is not box:
                box.focus()
            start = time.perf_counter()
            for i, ch in enumerate(q):  # as a terminal sends them: on time, not after the app is idle
                await asyncio.sleep(max(0.0, start + i / cps - time.perf_counter()))
                send(app, {" ": "space", "?": "question_mark"}.get(ch, ch), ch)
            await asyncio.sleep(max(0.0, start + len(q) / cps - time.perf_counter()))
            while box.value != q:  # the last keys still queued (a loaded machine)
                await asyncio.sleep(0.005)
            out["typed_late"] = time.perf_counter() - (start + len(q) / cps)
            shown = pane._shown
            enter = time.perf_counter()
            out["enter_at"] = enter - T0
            out["built_at_enter"] = app.ctx.mem.warm.built.is_set()
            send(app, "enter", "\r")
            first = None
            while True:
                text = str(status.content)
                if first is None and pane._shown > shown and "searching" not in text:
                    first = time.perf_counter() - enter
                by_meaning = "hybrid" in text.split("· strategy ")[-1][:40] or "vector" in text.split("· strategy ")[-1][:40]
                if pane._shown > shown and by_meaning and "coming" not in text and "meaning over" not in text:
                    break
                if time.perf_counter() - enter > 120:
                    raise SystemExit("no full meaning answer in 120 s: " + text)
                await pilot.pause(0.01)
            out["full"] = time.perf_counter() - enter
            out["first"] = first
            out["status"] = text[:120]
            out["built_at_full"] = app.ctx.mem.warm.built.is_set()
            app.ctx.mem.search.wait_built(120)
        return out

    print(json.dumps(asyncio.run(main())))
""")


def run_once(root: Path, project: Path, env: dict, src: Path | None) -> dict:
    env = {**env}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    env["MEMSEARCH_TUI_CONFIG_DIR"] = str(Path(env["HOME"]) / "conf")
    shutil.rmtree(env["MEMSEARCH_TUI_DATA_DIR"], ignore_errors=True)
    shutil.rmtree(env["MEMSEARCH_TUI_CONFIG_DIR"], ignore_errors=True)
    args = [PY, "-c", PROBE, str(root), str(project), QUESTION, str(CPS), str(LOOK)]
    out = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, cwd="/")
    if out.returncode != 0:
        raise SystemExit(f"probe failed ({src or 'this tree'}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work", type=Path, default=Path("/tmp/memsearch-tui-bench"))
    ap.add_argument("--old-src", type=Path, help="another checkout, measured in the same rounds")
    a = ap.parse_args()
    load0 = os.getloadavg()
    root, project = corpus(a.work, 30, 20)
    env = env_for(a.work, "first-person")
    trees: dict[str, Path | None] = {"this tree": None}
    if a.old_src is not None:
        subprocess.run([PY, "-m", "compileall", "-q", str(a.old_src / "memsearch_tui")], check=False)
        trees[f"old code ({a.old_src.name})"] = a.old_src
    got: dict[str, list[dict]] = {name: [] for name in trees}
    for n in range(a.runs + 1):
        for name, src in trees.items():
            r = run_once(root, project, env, src)
            if n:  # the first round is not timed: bytecode, the page cache
                got[name].append(r)
    rows = []
    for name, rs in got.items():

        def med(key: str, rs: list[dict] = rs) -> str:
            return f"{statistics.median(r[key] for r in rs):.2f} s"

        built = sum(r["built_at_enter"] for r in rs)
        rows.append(
            (
                f"{name}: Enter → first answer drawn / full meaning answer on screen",
                f"{med('first')} / {med('full')} (build done at Enter {built}/{len(rs)}; Enter at {med('enter_at')})",
            )
        )
        rows.append((f"{name}: first frame / key 6 to its pane", f"{med('paint')} / {med('key')}"))
    load = os.getloadavg()
    rows.append(("load average (1 min) at the start / end", f"{load0[0]:.1f} → {load[0]:.1f}"))
    print(
        f"{a.runs} runs each, 20 journal days + 30 entries, {os.cpu_count()} CPUs; question {QUESTION!r} at {CPS:g}/s\n"
    )
    print(table([(what, val, "—", "—") for what, val in rows]))
    print(json.dumps(got))


if __name__ == "__main__":
    main()
