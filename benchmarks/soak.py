"""Soak: the MCP server under load and faults (issue 38). Run by hand, never in the suite.

    python benchmarks/soak.py [--work DIR] [--minutes 10] [--entries 2000] [--clients 4]
                              [--writers 2] [--kill-every 20] [--no-disk-full] [--steady N]

One MCP server (``memsearch-tui mcp --http``, as several agents share one) serves
``--clients`` SDK clients, each a loop of ``search`` (keyword index), ``read`` and
``remember``, and now and then ``proposals`` (none pending: a call that does nothing, the
anchor that says what any call costs through the same server on the same loaded machine); ``--writers`` CLI processes ``add`` at the same time, and every
``--kill-every`` seconds one of them is SIGKILLed mid-write. With root (a tmpfs can be
mounted) the store lives on a small tmpfs, filled to the last byte for 30 s in the middle
of the run: writes then fail and must say so. At the end every acknowledged write is
looked for by its unique marker: lost (not on disk) or duplicated (in two files).

``--steady N``: the store keeps its size. Each client and each writer keeps at most N of
its own entries: past them, every acknowledged add is followed by a trash of its oldest
one (MCP ``forget``, CLI ``trash``), so the store holds as many live entries at the end as
after the first minute, and the server's RSS can be seen flat (or not). A trashed marker
is looked for in the trash instead (lost when in neither).

Printed: per operation, writes tried / acknowledged / lost / duplicated and latency
p50 / p99; the server's RSS over time; the temp files and ``index check`` left at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

from mcp_bench import QUERIES, bench_env, cli, corpus  # noqa: E402

MARK = "soakmark"
WORDS = sorted({w for q in QUERIES for w in q.split() if w.isascii()})  # bodies unlike each other


class Stats:
    """Latencies and outcomes per operation, shared by the client tasks and writer threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ms: dict[str, list[float]] = {}
        self.tried: dict[str, int] = {}
        self.acked: dict[str, list[str]] = {}  # op -> markers of acknowledged writes
        self.failed: dict[str, int] = {}
        self.errors: dict[str, str] = {}
        self.trashed: set[str] = set()  # markers of our own entries trashed by --steady

    def note(self, op: str, ms: float, ok: bool, marker: str = "", error: str = "") -> None:
        with self.lock:
            self.tried[op] = self.tried.get(op, 0) + 1
            if ok:
                self.ms.setdefault(op, []).append(ms)
                if marker:
                    self.acked.setdefault(op, []).append(marker)
            else:
                self.failed[op] = self.failed.get(op, 0) + 1
                self.errors.setdefault(op, error[:160])


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    root: Path, project: Path, env: dict[str, str], work: Path
) -> tuple[subprocess.Popen[bytes], int, str]:
    port = free_port()
    token_file = work / "token"
    proc = subprocess.Popen(
        cli(root, project, "mcp", "--http", str(port), "--token-file", str(token_file)),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(work / "server.err", "wb"),  # noqa: SIM115 (the server's lifetime)
    )
    for _ in range(600):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return proc, port, token_file.read_text().strip()
        time.sleep(0.1)
    raise SystemExit("the MCP server did not listen in 60 s; see server.err")


async def client_loop(
    n: int, port: int, token: str, stats: Stats, stop: float, steady: int = 0, mode: str = "legacy"
) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    rng = random.Random(n)
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)
    async with Client(
        streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http), read_timeout_seconds=120, mode=mode
    ) as c:
        seen: list[str] = []
        mine: list[tuple[str, str]] = []  # (id, marker) of this client's live entries, oldest first
        i = 0
        while time.monotonic() < stop:
            i += 1
            roll = rng.random()
            t0 = time.perf_counter()
            if roll < 0.65:
                op, args = "search", {"query": rng.choice(QUERIES), "k": 8, "strategy": "index"}
            elif roll < 0.7:  # the anchor: a call that does nothing, through the same server and load
                op, args = "proposals", {"status": "pending"}
            elif roll < 0.8 and seen:
                op, args = "read", {"id_or_path": rng.choice(seen)}
            else:
                marker = f"{MARK}-mcp{n}-{i}"
                op = "remember"
                args = {
                    "category": f"soak/mcp{n}",
                    "title": f"Soak note {n}-{i}",
                    "body": " ".join(rng.choice(WORDS) for _ in range(14)) + f" ({marker})",
                }
            try:
                r = await c.call_tool(op, args)
                ok = not r.is_error
                err = "" if ok else str(r.content)[:160]
            except Exception as exc:
                ok, err = False, f"{type(exc).__name__}: {exc}"
            ms = (time.perf_counter() - t0) * 1000
            if op == "search" and ok:
                hits = (r.structured_content or {}).get("hits", [])
                seen = [h["id"] for h in hits if h.get("id")][:8] or seen
            stats.note(
                "proposals (anchor)" if op == "proposals" else op, ms, ok, marker if op == "remember" else "", err
            )
            if op == "remember" and ok and steady:
                entry = (r.structured_content or {}).get("entry") or {}
                if entry.get("id"):
                    mine.append((entry["id"], marker))
                if len(mine) > steady:
                    old_id, old_marker = mine.pop(0)
                    t0 = time.perf_counter()
                    try:
                        f = await c.call_tool("forget", {"id": old_id, "reason": "soak: steady size"})
                        ok, err = not f.is_error, "" if not f.is_error else str(f.content)[:160]
                    except Exception as exc:
                        ok, err = False, f"{type(exc).__name__}: {exc}"
                    if ok:
                        with stats.lock:
                            stats.trashed.add(old_marker)
                    stats.note("forget", (time.perf_counter() - t0) * 1000, ok, "", err)


def writer_loop(
    n: int,
    root: Path,
    project: Path,
    env: dict[str, str],
    stats: Stats,
    stop: float,
    kills: list[int],
    steady: int = 0,
) -> None:
    """CLI ``add`` in a loop; a kill request makes the next one die by SIGKILL mid-write.
    ``steady``: past that many own entries, each add is followed by a ``trash`` of the oldest."""
    i = 0
    mine: list[tuple[str, str]] = []
    while time.monotonic() < stop:
        i += 1
        marker = f"{MARK}-cli{n}-{i}"
        cmd = cli(
            root,
            project,
            "--json",
            "add",
            f"soak/cli{n}",
            f"CLI note {n}-{i}",
            "--body",
            f"CLI {n} note {i} ({marker}).",
        )
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if kills and kills[0] == n:
            kills.pop(0)
            time.sleep(random.uniform(0.3, 1.2))  # somewhere in its start or its write
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate()
        ms = (time.perf_counter() - t0) * 1000
        if proc.returncode == -signal.SIGKILL:
            stats.note("add (killed)", ms, True)  # tried; neither acknowledged nor counted lost
            continue
        why = (err.decode() or out.decode())[-160:]  # --json: the error is in the envelope
        stats.note("add", ms, proc.returncode == 0, marker if proc.returncode == 0 else "", why)
        if steady and proc.returncode == 0:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                mine.append((json.loads(out)["data"]["entry"]["id"], marker))
            if len(mine) > steady:
                old_id, old_marker = mine.pop(0)
                t0 = time.perf_counter()
                gone = subprocess.run(cli(root, project, "trash", old_id), env=env, capture_output=True, text=True)
                if gone.returncode == 0:
                    with stats.lock:
                        stats.trashed.add(old_marker)
                stats.note(
                    "trash (CLI)", (time.perf_counter() - t0) * 1000, gone.returncode == 0, "", gone.stderr[-160:]
                )


def fill(folder: Path) -> Path:
    path = folder / ".soak-fill"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (1 << 20, 1 << 16, 4096, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)
    return path


def markers_on_disk(root: Path, trash: bool = False) -> dict[str, int]:
    """How many entry files (trash excluded; ``trash``: only the trash) hold each marker."""
    counts: dict[str, int] = {}
    for path in root.rglob("*.md"):
        if (".trash" in path.parts) != trash or ".memsearch-tui" in path.parts or ".versions" in path.parts:
            continue
        with contextlib.suppress(OSError):
            text = path.read_text(encoding="utf-8", errors="replace")
            for word in text.split():
                if word.startswith(f"({MARK}-"):
                    m = word.strip("().:")
                    counts[m] = counts.get(m, 0) + 1
    return counts


def _hidden(root: Path, path: Path) -> bool:
    rel = path.relative_to(root).parts
    return any(p.startswith(".") for p in rel) or path.name == "INDEX.md" or len(rel) < 2


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=Path("/tmp/soak-bench"))
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--entries", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--writers", type=int, default=2)
    ap.add_argument("--kill-every", type=float, default=20.0)
    ap.add_argument("--no-disk-full", action="store_true")
    ap.add_argument("--steady", type=int, default=0, help="keep the store's size: N own entries per writer")
    ap.add_argument(
        "--protocol",
        choices=("mixed", "legacy", "modern"),
        default="mixed",
        help="legacy: the initialize handshake and a session (Claude Code, Codex today); modern: the "
        "2026-07-28 per-request envelope; mixed (default): even-numbered clients legacy, odd ones modern",
    )
    ap.add_argument("--heap", type=Path, help="the server writes its heap growth here (tracemalloc: slower)")
    a = ap.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)
    src_root, project = corpus(a.work, a.entries, 30)
    run = a.work / "run"
    mounted = False
    if run.exists():
        subprocess.run(["umount", "-l", str(run)], capture_output=True)
        shutil.rmtree(run, ignore_errors=True)
    run.mkdir()
    if not a.no_disk_full:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256m", "tmpfs", str(run)]).returncode == 0
        if not mounted:
            print("disk full phase skipped: cannot mount a tmpfs (needs root)", file=sys.stderr)
    root = run / "memory"
    shutil.copytree(src_root, root)
    env = bench_env(a.work, "data-soak")
    config = Path(env["HOME"]) / ".memsearch" / "config.toml"  # agents write directly, no review
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[tui.mcp]\nwrites = "direct"\n', encoding="utf-8")
    if a.heap:
        env["MEMSEARCH_TUI_MCP_HEAP"] = f"{a.heap.resolve()},30"
    shutil.rmtree(a.work / "data-soak", ignore_errors=True)
    subprocess.run(cli(root, project, "search", "-s", "index", "warm up"), env=env, check=True, capture_output=True)
    server, port, token = start_server(root, project, env, a.work)
    stats = Stats()
    rss: list[tuple[float, float]] = []
    loads: list[float] = []  # the 1-minute load average beside each RSS sample
    print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", file=sys.stderr)
    t_start = time.monotonic()
    stop = t_start + a.minutes * 60
    kills: list[int] = []
    threads = [
        threading.Thread(target=writer_loop, args=(n, root, project, env, stats, stop, kills, a.steady), daemon=True)
        for n in range(a.writers)
    ]
    for t in threads:
        t.start()

    def sampler() -> None:
        next_kill = t_start + a.kill_every
        fill_at, fill_path = (t_start + a.minutes * 30 if mounted else None), None
        while time.monotonic() < stop:
            now = time.monotonic()
            rss.append((now - t_start, rss_mb(server.pid)))
            loads.append(os.getloadavg()[0])
            if a.kill_every and now >= next_kill and a.writers:
                kills.append(random.randrange(a.writers))
                next_kill += a.kill_every
            if fill_at is not None and fill_path is None and now >= fill_at:
                fill_path = fill(run)
                print(f"[{now - t_start:5.0f} s] disk full", file=sys.stderr)
            if fill_path is not None and fill_at is not None and now >= fill_at + 30:
                fill_path.unlink()
                fill_at = None
                print(f"[{now - t_start:5.0f} s] disk freed", file=sys.stderr)
            time.sleep(5)

    watcher = threading.Thread(target=sampler, daemon=True)
    watcher.start()

    async def clients() -> None:
        modes = {"legacy": ["legacy"], "modern": ["2026-07-28"], "mixed": ["legacy", "2026-07-28"]}[a.protocol]
        await asyncio.gather(
            *(client_loop(n, port, token, stats, stop, a.steady, modes[n % len(modes)]) for n in range(a.clients))
        )

    asyncio.run(clients())
    for t in threads:
        t.join()
    watcher.join()
    rss.append((time.monotonic() - t_start, rss_mb(server.pid)))
    server.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(timeout=20)
    report(a, root, project, env, stats, rss, mounted, loads)
    if mounted:
        subprocess.run(["umount", "-l", str(run)], capture_output=True)


def report(
    a: argparse.Namespace,
    root: Path,
    project: Path,
    env: dict[str, str],
    stats: Stats,
    rss: list[tuple[float, float]],
    disk_full: bool,
    loads: list[float],
) -> None:
    on_disk = markers_on_disk(root)
    in_trash = markers_on_disk(root, trash=True)
    print(
        f"\nsoak: {a.minutes:g} min, {a.entries} entries, {a.clients} MCP clients (one HTTP server), "
        f"{a.writers} CLI writers, a writer SIGKILLed every {a.kill_every:g} s, "
        f"disk full for 30 s: {'yes' if disk_full else 'no'}; "
        f"{f'steady size ({a.steady} own entries each, {len(stats.trashed)} trashed)' if a.steady else 'growing store'}; "
        f"live entries at the end: {sum(1 for p in root.rglob('*.md') if not _hidden(root, p))}; load average at the end: "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores\n"
    )
    print("| operation | tried | acknowledged | failed | lost | duplicated | p50 ms | p99 ms |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for op in sorted(stats.tried):
        acked = stats.acked.get(op, [])
        lost = sum(1 for m in acked if on_disk.get(m, 0) == 0 and not (m in stats.trashed and in_trash.get(m)))
        dup = sum(1 for m in acked if on_disk.get(m, 0) > 1)
        ms = stats.ms.get(op, [])
        writes = op in ("remember", "add")  # forget / trash (CLI): --steady's own trashing
        print(
            f"| {op} | {stats.tried[op]} | {len(acked) if writes else '—'} | {stats.failed.get(op, 0)} | "
            f"{lost if writes else '—'} | {dup if writes else '—'} | {pct(ms, 0.5):.0f} | {pct(ms, 0.99):.0f} |"
        )
    for op, err in stats.errors.items():
        print(f"  first {op} failure: {err}")
    print("\nserver RSS (MB) over time:")
    step = max(1, len(rss) // 12)
    print("| t (s) | " + " | ".join(f"{t:.0f}" for t, _ in rss[::step]) + " |")
    print("| --- | " + " | ".join("---" for _ in rss[::step]) + " |")
    print("| RSS | " + " | ".join(f"{m:.0f}" for _, m in rss[::step]) + " |")
    print("| load (1 min) | " + " | ".join(f"{x:.1f}" for x in loads[::step]) + " |")
    warm = [m for t, m in rss if t >= 60] or [m for _, m in rss]
    print(f"max {max(m for _, m in rss):.0f} MB; after the first minute {min(warm):.0f}–{max(warm):.0f} MB")
    temps = [p for p in root.rglob("*.tmp") if ".memsearch-tui" not in p.parts]
    check = subprocess.run(cli(root, project, "--json", "index", "check"), env=env, capture_output=True, text=True)
    ok = json.loads(check.stdout or "{}").get("ok")
    print(f"temp files left in the store: {len(temps)}; `index check`: {'consistent' if ok else check.stdout[-300:]}")
    search_ms = stats.ms.get("search", [])
    anchor = stats.ms.get("proposals (anchor)", [])
    if search_ms:
        print(
            f"MCP search: p50 {statistics.median(search_ms):.0f} ms, p99 {pct(search_ms, 0.99):.0f} ms "
            f"over {len(search_ms)} calls"
            + (
                f"; the do-nothing call beside it: p50 {statistics.median(anchor):.0f} ms, p99 {pct(anchor, 0.99):.0f} ms"
                f" (search p50 {statistics.median(search_ms) / statistics.median(anchor):.2f}x the anchor)"
                if anchor
                else ""
            )
        )
    if loads:
        print(f"load average (1 min) during the run: median {statistics.median(loads):.1f}, max {max(loads):.1f}")


if __name__ == "__main__":
    main()
