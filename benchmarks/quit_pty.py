"""Quitting the app in a real terminal (a pty) during a ctrl+o build: when the screen is left,
when the "stopping the vector build…" line comes (and that it comes after the screen is left),
when the process ends. An illustration beside ``quit_bench.py`` (which times ``run`` returning
in Textual's test harness, not the process's end).

    PYTHONPATH=<tree> python benchmarks/quit_pty.py CORPUS [SECONDS]

CORPUS: a ``journal_gen`` corpus (``memory/``, ``project/``; copied to a temp folder first);
SECONDS: how long after ctrl+o to press ctrl+q (default 25). ``MEMSEARCH_TUI_INDEX_ENCODER=torch``
picks sentence-transformers, which cannot be stopped inside its call: the line then shows.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import shutil
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

LEAVE = b"\x1b[?1049l"  # the terminal's leave-alternate-screen sequence
LINE = b"memsearch-tui: stopping the vector build"


def main() -> None:
    corpus, wait = Path(sys.argv[1]), float(sys.argv[2]) if len(sys.argv) > 2 else 25.0
    tmp = Path(tempfile.mkdtemp(prefix="quit-pty-"))
    shutil.copytree(corpus, tmp / "c", symlinks=True)
    (tmp / "home").mkdir()
    env = {
        **os.environ,
        "HOME": str(tmp / "home"),
        "MEMSEARCH_TUI_DATA_DIR": str(tmp / "data"),
        "TERM": "xterm-256color",
    }
    args = [
        sys.executable,
        "-m",
        "memsearch_tui",
        "--memory-root",
        str(tmp / "c/memory"),
        "--project",
        str(tmp / "c/project"),
    ]
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(sys.executable, args, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    out = bytearray()

    def pump(secs: float) -> bool:
        end = time.monotonic() + secs
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    return False
                if not data:
                    return False
                out.extend(data)
        return True

    pump(8)
    os.write(fd, b"6")  # the Search pane
    pump(4)
    os.write(fd, b"\x0f")  # ctrl+o: build the vector index
    pump(wait)
    at, t0, seen = len(out), time.monotonic(), {}
    os.write(fd, b"\x11")  # ctrl+q
    while pump(0.05) and time.monotonic() - t0 < 300:
        for name, mark in (("left_screen_s", LEAVE), ("line_s", LINE)):
            if name not in seen and mark in out[at:]:
                seen[name] = round(time.monotonic() - t0, 2)
    _, status = os.waitpid(pid, 0)
    tail = bytes(out[at:])
    left, said = tail.find(LEAVE), tail.find(LINE)
    print(json.dumps({"exit_s": round(time.monotonic() - t0, 2), **seen, "line_after_screen_left": said > left >= 0,
                      "status": os.waitstatus_to_exitcode(status)}))  # fmt: skip
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
