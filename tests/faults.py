"""Real faults for tests (issue 38): a full disk and a read-only one are small tmpfs mounts,
an unreadable file is a ``chmod 000`` one read by a process that obeys permission bits
(root without its DAC capabilities, ``cli(obey_modes=True)``).

Root ignores permission bits, and CI runs as root like this machine, so ``chmod`` alone
cannot make a file unreadable or a folder read-only there: a mount can. Where mounting
is refused (not root, no CAP_SYS_ADMIN) the tests that need it are skipped, saying why.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

MAIN = "from memsearch_tui.cli import main; main()"
TIMEOUT = float(os.environ.get("MEMSEARCH_TUI_TEST_TIMEOUT", "120"))


@contextlib.contextmanager
def tmpfs(where: Path, size: str = "4m") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` (made), unmounted after."""
    where.mkdir(parents=True, exist_ok=True)
    if shutil.which("mount") is None:
        pytest.skip("no mount command: a real full or read-only disk cannot be made here")
    proc = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(where)], capture_output=True, text=True
    )
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs (needs root): {proc.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path) -> None:
    """Fill the file system of ``folder`` to the last byte (the next data write: ENOSPC)."""
    fd = os.open(folder / ".fill", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (1 << 16, 4096, 512, 1):  # big chunks, then the last partial pages
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)


def fill_leaving(folder: Path, pages: int) -> None:
    """Fill the file system of ``folder`` but ``pages`` pages of 4 KB (tmpfs counts pages)."""
    slack = folder / ".slack"
    if pages:
        slack.write_bytes(b"s" * 4096 * pages)
    fill(folder)
    slack.unlink(missing_ok=True)


@contextlib.contextmanager
def read_only_view(src: Path, where: Path) -> Iterator[Path]:
    """``src`` seen read-only at ``where`` (a read-only bind mount: EROFS, root included)."""
    where.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(["mount", "--bind", str(src), str(where)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot bind-mount (needs root): {proc.stderr.strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(where)], check=True, capture_output=True)
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def cli(
    root: Path, *args: str, env: dict[str, str] | None = None, obey_modes: bool = False
) -> subprocess.CompletedProcess[str]:
    """``memsearch-tui ARGS`` as a real process. ``obey_modes``: without the capabilities
    that let root ignore permission bits (setpriv), so a ``chmod 000`` file is unreadable
    to it as to any user; the interpreter (under /root here) stays reachable."""
    full = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), **(env or {})}
    cmd = [sys.executable, "-c", MAIN, "--memory-root", str(root), *args]
    if obey_modes and os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("no setpriv: root cannot be made to obey permission bits here")
        cmd = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *cmd]
    return subprocess.run(
        cmd, env=full, capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL, cwd=root.parent
    )


def one_clear_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The failure's one ``error:`` line (no traceback); returns it."""
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr[-3000:]
    return lines[0]
