"""CPU of the test suite's Milvus standalone servers (``scripts/milvus_server.py``) over a run.

Those servers are nobody's child (a supervisor in a new session starts them), so
``suite_cpu.py`` does not see their CPU. This polls ``/proc`` every 0.5 s while a run goes on
and keeps, per server process (and supervisor) whose command line or working folder is under
MARK, its last user+sys time; a process is counted until its last poll (a server killed by a
test loses at most its last half second). Linux only.

    .venv/bin/python benchmarks/milvus_server_cpu.py /tmp/srv.txt /tmp/bt &   # MARK: the run's --basetemp
    .venv/bin/python -m pytest -n 4 --dist loadgroup --basetemp=/tmp/bt ...
    kill %1; cat /tmp/srv.txt     # per process, the total, and the running sum every ~10 s

Session 15 (load average 5-14, 7 engineers): a server idle costs 0.54 s of CPU per 30 s (~2 %
of a core), starting one 0.3 s; the three server test files (`-n 2`) 6.3 s in all servers.
"""

from __future__ import annotations

import os
import signal
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def _sample(mark: str) -> dict[tuple[int, str], float]:
    seen: dict[tuple[int, str], float] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            kind = "milvus" if "run standalone" in cmd else "supervisor" if "milvus_server.py supervise" in cmd else ""
            if not kind or (mark not in cmd and not os.path.realpath(f"/proc/{pid}/cwd").startswith(mark)):
                continue
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seen[(int(pid), kind)] = (int(fields[11]) + int(fields[12])) / TICK  # utime + stime
    return seen


def main(out: str, mark: str) -> None:
    stop = {"now": False}
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.update(now=True))
    cpu: dict[tuple[int, str], float] = {}
    first: dict[tuple[int, str], float] = {}
    sums: list[tuple[float, float]] = []
    t0 = time.monotonic()
    while not stop["now"]:
        now = time.monotonic() - t0
        for key, seconds in _sample(mark).items():
            first.setdefault(key, now)
            cpu[key] = seconds
        sums.append((now, sum(cpu.values())))
        time.sleep(0.5)
    with open(out, "w", encoding="utf-8") as f:
        for (pid, kind), seconds in sorted(cpu.items(), key=lambda kv: first[kv[0]]):
            f.write(f"{kind:10s} pid {pid:7d} from {first[(pid, kind)]:6.1f} s  cpu {seconds:6.2f} s\n")
        for kind in ("milvus", "supervisor"):
            f.write(f"total {kind}: {sum(s for (_, k), s in cpu.items() if k == kind):.2f} s CPU\n")
        f.writelines(f"t={t:6.1f} s  cpu {c:6.2f} s\n" for t, c in sums[::20])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
